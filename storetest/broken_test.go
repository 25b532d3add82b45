package storetest_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// The stores in this file each break one rule of the contract, on top of a
// memstore.Store that keeps the data.

// caseSensitive matches owner and name case-sensitively.
type caseSensitive struct{ *memstore.Store }

func (s caseSensitive) Repository(ctx context.Context, owner, name string) (issuefields.Repository, error) {
	r, err := s.Store.Repository(ctx, owner, name)
	if err == nil && strings.EqualFold(owner+"/"+name, r.Owner+"/"+r.Name) && owner+"/"+name != r.Owner+"/"+r.Name {
		return issuefields.Repository{}, issuefields.ErrNotFound
	}
	return r, err
}

// currentNamesOnly does not find a repository by a former owner or name.
type currentNamesOnly struct{ *memstore.Store }

func (s currentNamesOnly) Repository(ctx context.Context, owner, name string) (issuefields.Repository, error) {
	r, err := s.Store.Repository(ctx, owner, name)
	if err == nil && !strings.EqualFold(owner+"/"+name, r.Owner+"/"+r.Name) {
		return issuefields.Repository{}, issuefields.ErrNotFound
	}
	return r, err
}

// opaqueNotFound returns an error that does not wrap ErrNotFound.
type opaqueNotFound struct{ *memstore.Store }

func (s opaqueNotFound) Repository(ctx context.Context, owner, name string) (issuefields.Repository, error) {
	r, err := s.Store.Repository(ctx, owner, name)
	if err != nil {
		return r, errors.New(err.Error())
	}
	return r, nil
}

// repositoryEdit changes every repository that Repository returns.
type repositoryEdit struct {
	*memstore.Store
	edit func(*issuefields.Repository)
}

func (s repositoryEdit) Repository(ctx context.Context, owner, name string) (issuefields.Repository, error) {
	r, err := s.Store.Repository(ctx, owner, name)
	s.edit(&r)
	return r, err
}

// issueEdit turns what Issue returns into something else.
type issueEdit struct {
	*memstore.Store
	edit func(repo issuefields.Repository, number int64, is issuefields.Issue, err error) (issuefields.Issue, error)
}

func (s issueEdit) Issue(ctx context.Context, repo issuefields.Repository, number int64) (issuefields.Issue, error) {
	is, err := s.Store.Issue(ctx, repo, number)
	return s.edit(repo, number, is, err)
}

// fieldsEdit changes the fields that Fields returns, or fails.
type fieldsEdit struct {
	*memstore.Store
	edit func(repo issuefields.Repository, fields []issuefields.Field) ([]issuefields.Field, error)
}

func (s fieldsEdit) Fields(ctx context.Context, repo issuefields.Repository) ([]issuefields.Field, error) {
	fields, err := s.Store.Fields(ctx, repo)
	if err != nil {
		return nil, err
	}
	return s.edit(repo, deepFields(fields)) // memstore's fields are a shared snapshot
}

// cachedFields remembers the fields that it first returned for a
// repository, and returns them from then on.
type cachedFields struct {
	*memstore.Store
	mu    sync.Mutex
	cache map[int64][]issuefields.Field
}

func (s *cachedFields) Fields(ctx context.Context, repo issuefields.Repository) ([]issuefields.Field, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fields, ok := s.cache[repo.ID]; ok {
		return fields, nil
	}
	fields, err := s.Store.Fields(ctx, repo)
	if err != nil {
		return nil, err
	}
	s.cache[repo.ID] = fields
	return fields, nil
}

// valuesEdit changes the values that Values returns.
type valuesEdit struct {
	*memstore.Store
	edit func([]issuefields.Value)
}

func (s valuesEdit) Values(ctx context.Context, key issuefields.IssueKey) ([]issuefields.Value, issuefields.Version, error) {
	values, v, err := s.Store.Values(ctx, key)
	values = deep(values) // memstore's values are a shared snapshot
	s.edit(values)
	return values, v, err
}

// aliasing keeps in(the values it is given) for each issue, and returns
// out(those values).
type aliasing struct {
	*memstore.Store
	in, out func([]issuefields.Value) []issuefields.Value
	mu      sync.Mutex
	kept    map[issuefields.IssueKey][]issuefields.Value
}

func (s *aliasing) Values(ctx context.Context, key issuefields.IssueKey) ([]issuefields.Value, issuefields.Version, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	values, v, err := s.Store.Values(ctx, key)
	if kept, ok := s.kept[key]; ok && err == nil {
		values = s.out(kept)
	}
	return values, v, err
}

func (s *aliasing) CompareAndSwap(ctx context.Context, key issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) (issuefields.Version, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.Store.CompareAndSwap(ctx, key, expected, values)
	if err == nil {
		s.kept[key] = s.in(values)
	}
	return v, err
}

// oneFieldsBuffer answers every Fields call in one buffer of its own,
// overwriting what it returned before.
type oneFieldsBuffer struct {
	*memstore.Store
	mu  sync.Mutex
	buf []issuefields.Field
}

func (s *oneFieldsBuffer) Fields(ctx context.Context, repo issuefields.Repository) ([]issuefields.Field, error) {
	fields, err := s.Store.Fields(ctx, repo)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf[:0], fields...)
	return s.buf, err
}

// valuesOverwritten hands out memstore's values as they are, and its
// SetValues writes new values into the slice it handed out last for the
// issue, when they have the same length, instead of replacing it. It breaks
// the snapshot rule only in SetValues, which the suite never calls while
// other goroutines read, so that the race detector does not stop the suite.
type valuesOverwritten struct {
	*memstore.Store
	mu        sync.Mutex
	handedOut map[issuefields.IssueKey][]issuefields.Value
}

func (s *valuesOverwritten) Values(ctx context.Context, key issuefields.IssueKey) ([]issuefields.Value, issuefields.Version, error) {
	values, v, err := s.Store.Values(ctx, key)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handedOut[key] = values
	return values, v, err
}

func (s *valuesOverwritten) SetValues(owner, repo string, number int64, values []issuefields.Value) error {
	if r, err := s.Store.Repository(context.Background(), owner, repo); err == nil {
		s.mu.Lock()
		if old := s.handedOut[issuefields.IssueKey{RepositoryID: r.ID, Number: number}]; len(old) == len(values) {
			copy(old, values)
		}
		s.mu.Unlock()
	}
	return s.Store.SetValues(owner, repo, number, values)
}

// swapEdit implements CompareAndSwap with a function of the underlying store.
type swapEdit struct {
	*memstore.Store
	swap func(s *memstore.Store, key issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) (issuefields.Version, error)
}

func (s swapEdit) CompareAndSwap(_ context.Context, key issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) (issuefields.Version, error) {
	return s.swap(s.Store, key, expected, values)
}

// ignoreVersion writes whatever version the issue has.
func ignoreVersion(s *memstore.Store, key issuefields.IssueKey, _ issuefields.Version, values []issuefields.Value) (issuefields.Version, error) {
	_, current, err := s.Values(context.Background(), key)
	if err != nil {
		return "", err
	}
	return s.CompareAndSwap(context.Background(), key, current, values)
}

// checkThenWrite compares the version, waits, and then writes whatever
// version the issue has by then.
func checkThenWrite(s *memstore.Store, key issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) (issuefields.Version, error) {
	_, current, err := s.Values(context.Background(), key)
	if err != nil {
		return "", err
	}
	if current != expected {
		return "", issuefields.ErrVersionConflict
	}
	time.Sleep(10 * time.Millisecond)
	return ignoreVersion(s, key, expected, values)
}

// knownFieldsOnly refuses values of fields that the repository's owner does
// not have.
func knownFieldsOnly(s *memstore.Store, key issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) (issuefields.Version, error) {
	fields, err := s.Fields(context.Background(), issuefields.Repository{ID: key.RepositoryID})
	if err != nil {
		return "", err
	}
	for _, v := range values {
		if !slices.ContainsFunc(fields, func(f issuefields.Field) bool { return f.ID == v.FieldID }) {
			return "", fmt.Errorf("field %d not found", v.FieldID)
		}
	}
	return s.CompareAndSwap(context.Background(), key, expected, values)
}

// renamedVersions hands out versions of its own, made by name from the
// underlying store's version and the values, and compares them under a lock
// of its own.
type renamedVersions struct {
	*memstore.Store
	name func(v issuefields.Version, values []issuefields.Value) issuefields.Version
	mu   sync.Mutex
}

func (s *renamedVersions) Values(ctx context.Context, key issuefields.IssueKey) ([]issuefields.Value, issuefields.Version, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	values, v, err := s.Store.Values(ctx, key)
	return values, s.name(v, values), err
}

func (s *renamedVersions) CompareAndSwap(ctx context.Context, key issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) (issuefields.Version, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	current, v, err := s.Store.Values(ctx, key)
	if err != nil {
		return "", err
	}
	if s.name(v, current) != expected {
		return "", issuefields.ErrVersionConflict
	}
	if _, err := s.Store.CompareAndSwap(ctx, key, v, values); err != nil {
		return "", err
	}
	_, v, err = s.Store.Values(ctx, key)
	return s.name(v, values), err
}

// byContent names a version by the values alone, so that equal values have
// equal versions.
func byContent(_ issuefields.Version, values []issuefields.Value) issuefields.Version {
	return issuefields.Version(fmt.Sprint(values))
}

// modulo3 names a version by the underlying one modulo 3.
func modulo3(v issuefields.Version, _ []issuefields.Value) issuefields.Version {
	n, _ := strconv.Atoi(string(v))
	return issuefields.Version(strconv.Itoa(n % 3))
}

// globalVersion has one version for the whole store, which every write
// changes.
type globalVersion struct {
	*memstore.Store
	mu      sync.Mutex
	version int
}

func (s *globalVersion) Values(ctx context.Context, key issuefields.IssueKey) ([]issuefields.Value, issuefields.Version, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	values, _, err := s.Store.Values(ctx, key)
	return values, issuefields.Version(strconv.Itoa(s.version)), err
}

func (s *globalVersion) CompareAndSwap(ctx context.Context, key issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) (issuefields.Version, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if expected != issuefields.Version(strconv.Itoa(s.version)) {
		return "", issuefields.ErrVersionConflict
	}
	if _, err := ignoreVersion(s.Store, key, expected, values); err != nil {
		return "", err
	}
	s.version++
	return issuefields.Version(strconv.Itoa(s.version)), nil
}

func (s *globalVersion) SetValues(owner, repo string, number int64, values []issuefields.Value) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version++
	return s.Store.SetValues(owner, repo, number, values)
}

// same returns its argument.
func same[S any](s S) S { return s }

// deepFields returns a copy of fields that shares nothing.
func deepFields(fields []issuefields.Field) []issuefields.Field {
	out := slices.Clone(fields)
	for i := range out {
		out[i].Options = slices.Clone(out[i].Options)
	}
	return out
}

// shallow returns a copy of values that shares the OptionIDs.
func shallow(values []issuefields.Value) []issuefields.Value { return slices.Clone(values) }

// deep returns a copy of values that shares nothing.
func deep(values []issuefields.Value) []issuefields.Value {
	out := slices.Clone(values)
	for i := range out {
		out[i].OptionIDs = slices.Clone(out[i].OptionIDs)
	}
	return out
}

// fieldsByID sorts fields by ID.
func fieldsByID(_ issuefields.Repository, fields []issuefields.Field) ([]issuefields.Field, error) {
	slices.SortFunc(fields, func(a, b issuefields.Field) int { return cmp.Compare(a.ID, b.ID) })
	return fields, nil
}

// optionsByID sorts the options of every field by ID.
func optionsByID(_ issuefields.Repository, fields []issuefields.Field) ([]issuefields.Field, error) {
	for _, f := range fields {
		slices.SortFunc(f.Options, func(a, b issuefields.Option) int { return cmp.Compare(a.ID, b.ID) })
	}
	return fields, nil
}

// duplicateOptionNames accepts a field whose options repeat a name, and keeps
// the first option of each name.
type duplicateOptionNames struct{ *memstore.Store }

func (s duplicateOptionNames) AddField(org string, f issuefields.Field) error {
	seen := make(map[string]bool)
	f.Options = slices.DeleteFunc(slices.Clone(f.Options), func(o issuefields.Option) bool {
		dup := seen[o.Name]
		seen[o.Name] = true
		return dup
	})
	return s.Store.AddField(org, f)
}

// clearBeforeAddIssue clears the values of the issue that AddIssue is to
// add, and so those of an issue that has the number already, before it
// refuses it.
type clearBeforeAddIssue struct{ *memstore.Store }

func (s clearBeforeAddIssue) AddIssue(owner, repo string, number int64) error {
	_ = s.SetValues(owner, repo, number, nil)
	return s.Store.AddIssue(owner, repo, number)
}

// valuesLeftBehind moves an issue without its values.
type valuesLeftBehind struct{ *memstore.Store }

func (s valuesLeftBehind) TransferIssue(owner, repo string, number int64, toOwner, toRepo string, toNumber int64) error {
	if err := s.Store.TransferIssue(owner, repo, number, toOwner, toRepo, toNumber); err != nil {
		return err
	}
	return s.SetValues(toOwner, toRepo, toNumber, nil)
}

// forgetfulRename finds a renamed repository by its current name only:
// renaming it takes away every name it had before.
type forgetfulRename struct {
	*memstore.Store
	mu        sync.Mutex
	forgotten map[[2]string]bool // lower-cased owner and name
}

func (s *forgetfulRename) RenameRepository(owner, name, newName string) error {
	r, err := s.Store.Repository(context.Background(), owner, name)
	if err != nil {
		return err
	}
	if err := s.Store.RenameRepository(owner, name, newName); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forgotten[[2]string{strings.ToLower(r.Owner), strings.ToLower(r.Name)}] = true
	delete(s.forgotten, [2]string{strings.ToLower(r.Owner), strings.ToLower(newName)})
	return nil
}

func (s *forgetfulRename) Repository(ctx context.Context, owner, name string) (issuefields.Repository, error) {
	s.mu.Lock()
	forgotten := s.forgotten[[2]string{strings.ToLower(owner), strings.ToLower(name)}]
	s.mu.Unlock()
	if forgotten {
		return issuefields.Repository{}, issuefields.ErrNotFound
	}
	return s.Store.Repository(ctx, owner, name)
}
