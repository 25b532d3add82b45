package storetest_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
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

// A fieldsChange is what ChangeFields applies to an organization's fields.
type fieldsChange = func(current []issuefields.Field) ([]issuefields.Field, error)

// caseSensitive matches owner and name case-sensitively.
type caseSensitive struct{ *memstore.Store }

func (s caseSensitive) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	r := snap.Repository
	if err == nil && strings.EqualFold(owner+"/"+name, r.Owner+"/"+r.Name) && owner+"/"+name != r.Owner+"/"+r.Name {
		return issuefields.Snapshot{}, issuefields.ErrNotFound
	}
	return snap, err
}

// currentNamesOnly does not find a repository by a former owner or name.
type currentNamesOnly struct{ *memstore.Store }

func (s currentNamesOnly) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	if r := snap.Repository; err == nil && !strings.EqualFold(owner+"/"+name, r.Owner+"/"+r.Name) {
		return issuefields.Snapshot{}, issuefields.ErrNotFound
	}
	return snap, err
}

// opaqueNotFound returns an error that does not wrap ErrNotFound.
type opaqueNotFound struct{ *memstore.Store }

func (s opaqueNotFound) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	if err != nil {
		return snap, errors.New(err.Error())
	}
	return snap, nil
}

// snapshotEdit changes what Snapshot returns, or fails, given the owner,
// name and number asked for. The Snapshot's slices are its own.
type snapshotEdit struct {
	*memstore.Store
	edit func(owner, name string, number int64, snap *issuefields.Snapshot) error
}

func (s snapshotEdit) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	if err != nil {
		return snap, err
	}
	snap.Fields, snap.Issue.Values = deepFields(snap.Fields), deep(snap.Issue.Values) // memstore's slices are shared
	if err := s.edit(owner, name, number, &snap); err != nil {
		return issuefields.Snapshot{}, err
	}
	return snap, nil
}

// moved reports whether snap shows an issue other than number of its
// Repository.
func moved(snap *issuefields.Snapshot, number int64) bool {
	return snap.IssueErr == nil && snap.Issue.Key() != issuefields.IssueKey{RepositoryID: snap.Repository.ID, Number: number}
}

// cachedFields remembers the fields that Snapshot first showed for a
// repository, and shows them from then on.
type cachedFields struct {
	*memstore.Store
	mu    sync.Mutex
	cache map[int64][]issuefields.Field
}

func (s *cachedFields) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	if err != nil || snap.IssueErr != nil {
		return snap, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if fields, ok := s.cache[snap.Repository.ID]; ok {
		snap.Fields = fields
	}
	s.cache[snap.Repository.ID] = snap.Fields
	return snap, nil
}

// oneFieldsBuffer shows the fields of every Snapshot in one buffer of its
// own, overwriting what it showed before.
type oneFieldsBuffer struct {
	*memstore.Store
	mu  sync.Mutex
	buf []issuefields.Field
}

func (s *oneFieldsBuffer) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf[:0], snap.Fields...)
	snap.Fields = s.buf
	return snap, err
}

// valuesEdit changes the values that Snapshot shows.
type valuesEdit struct {
	*memstore.Store
	edit func([]issuefields.Value)
}

func (s valuesEdit) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	snap.Issue.Values = deep(snap.Issue.Values) // memstore's values are shared
	s.edit(snap.Issue.Values)
	return snap, err
}

// valuesOverwritten hands out memstore's values as they are, and its
// SetValues writes new values into the slice that Snapshot handed out last
// for the issue, when they have the same length, instead of replacing it. It
// breaks the snapshot rule only in SetValues, which the suite never calls
// while other goroutines read, so that the race detector does not stop the
// suite.
type valuesOverwritten struct {
	*memstore.Store
	mu        sync.Mutex
	handedOut map[issuefields.IssueKey][]issuefields.Value
}

func (s *valuesOverwritten) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	if err == nil && snap.IssueErr == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.handedOut[snap.Issue.Key()] = snap.Issue.Values
	}
	return snap, err
}

func (s *valuesOverwritten) SetValues(owner, repo string, number int64, values []issuefields.Value) error {
	if snap, err := s.Store.Snapshot(context.Background(), owner, repo, number); err == nil && snap.IssueErr == nil {
		s.mu.Lock()
		if old := s.handedOut[snap.Issue.Key()]; len(old) == len(values) {
			copy(old, values)
		}
		s.mu.Unlock()
	}
	return s.Store.SetValues(owner, repo, number, values)
}

// aliasing keeps in(the values that UpdateIssue stores) for each issue, and
// shows out(those values) in their place.
type aliasing struct {
	*memstore.Store
	in, out func([]issuefields.Value) []issuefields.Value
	mu      sync.Mutex
	kept    map[issuefields.IssueKey][]issuefields.Value
}

func (s *aliasing) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	s.mu.Lock()
	defer s.mu.Unlock()
	if kept, ok := s.kept[snap.Issue.Key()]; ok && err == nil && snap.IssueErr == nil {
		snap.Issue.Values = s.out(kept)
	}
	return snap, err
}

func (s *aliasing) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	v, err := s.Store.UpdateIssue(ctx, snap, next)
	if err == nil {
		s.mu.Lock()
		s.kept[snap.Issue.Key()] = s.in(next.Values)
		s.mu.Unlock()
	}
	return v, err
}

// current returns the Snapshot of the issue of snap as the store holds it
// now, found by the current name of snap's repository.
func current(ctx context.Context, s *memstore.Store, snap issuefields.Snapshot) (issuefields.Snapshot, error) {
	return s.Snapshot(ctx, snap.Repository.Owner, snap.Repository.Name, snap.Issue.Number)
}

// versionIgnored stores from a Snapshot whatever the issue's version is now.
type versionIgnored struct{ *memstore.Store }

func (s versionIgnored) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	if now, err := current(ctx, s.Store, snap); err == nil {
		snap.Issue.Version = now.Issue.Version
	}
	return s.Store.UpdateIssue(ctx, snap, next)
}

// versionOnly checks the issue's version alone: it stores from a Snapshot
// whose repository or fields the store no longer holds.
type versionOnly struct{ *memstore.Store }

func (s versionOnly) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	if now, err := current(ctx, s.Store, snap); err == nil && now.IssueErr == nil {
		snap.Repository, snap.Fields = now.Repository, now.Fields
	}
	return s.Store.UpdateIssue(ctx, snap, next)
}

// followsTransfers stores the values of a Snapshot that shows a transferred
// issue at the issue's new place.
type followsTransfers struct{ *memstore.Store }

func (s followsTransfers) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	if moved := snap.Issue; snap.IssueErr == nil && moved.Version == "" {
		if there, err := s.Store.Snapshot(ctx, moved.Repository.Owner, moved.Repository.Name, moved.Number); err == nil {
			snap = there
		}
	}
	return s.Store.UpdateIssue(ctx, snap, next)
}

// clearedOnError clears the issue's values when it cannot store.
type clearedOnError struct{ *memstore.Store }

func (s clearedOnError) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	v, err := s.Store.UpdateIssue(ctx, snap, next)
	if now, nowErr := current(ctx, s.Store, snap); err != nil && nowErr == nil {
		_, _ = s.Store.UpdateIssue(ctx, now, issuefields.Issue{})
	}
	return v, err
}

// oneFieldOnce refuses values that repeat a field.
type oneFieldOnce struct{ *memstore.Store }

func (s oneFieldOnce) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	for i, v := range next.Values {
		if slices.ContainsFunc(next.Values[:i], func(w issuefields.Value) bool { return w.FieldID == v.FieldID }) {
			return "", fmt.Errorf("field %d has two values", v.FieldID)
		}
	}
	return s.Store.UpdateIssue(ctx, snap, next)
}

// renamedVersions hands out versions of its own, made by name from the
// underlying store's version and the values, and checks them by name.
type renamedVersions struct {
	*memstore.Store
	name func(v issuefields.Version, values []issuefields.Value) issuefields.Version
}

func (s renamedVersions) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	snap.Issue.Version = s.name(snap.Issue.Version, snap.Issue.Values)
	return snap, err
}

func (s renamedVersions) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	if now, err := current(ctx, s.Store, snap); err == nil && s.name(now.Issue.Version, now.Issue.Values) == snap.Issue.Version {
		snap.Issue.Version = now.Issue.Version
	}
	v, err := s.Store.UpdateIssue(ctx, snap, next)
	if err != nil {
		return "", err
	}
	return s.name(v, next.Values), nil
}

// byContent names a version by the values alone, so that equal values have
// equal versions.
func byContent(_ issuefields.Version, values []issuefields.Value) issuefields.Version {
	return issuefields.Version(fmt.Sprint(values))
}

// modulo3 names a version by a hash of the underlying one modulo 3.
func modulo3(v issuefields.Version, _ []issuefields.Value) issuefields.Version {
	h := fnv.New32a()
	h.Write([]byte(v))
	return issuefields.Version(strconv.Itoa(int(h.Sum32() % 3)))
}

// globalVersion has one version for the whole store, which every write
// changes.
type globalVersion struct {
	*memstore.Store
	mu      sync.Mutex
	version int
}

func (s *globalVersion) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	snap.Issue.Version = issuefields.Version(strconv.Itoa(s.version))
	return snap, err
}

func (s *globalVersion) UpdateIssue(ctx context.Context, snap issuefields.Snapshot, next issuefields.Issue) (issuefields.Version, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if snap.Issue.Version != issuefields.Version(strconv.Itoa(s.version)) {
		return "", issuefields.ErrChanged
	}
	if now, err := current(ctx, s.Store, snap); err == nil {
		snap.Issue.Version = now.Issue.Version
	}
	if _, err := s.Store.UpdateIssue(ctx, snap, next); err != nil {
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

// reusedIDs gives a new field or option the next ID above those of the
// organization's fields now, which may be the ID of one that was deleted.
type reusedIDs struct{ *memstore.Store }

func (s reusedIDs) ChangeFields(ctx context.Context, org string, change fieldsChange) ([]issuefields.Field, error) {
	return s.Store.ChangeFields(ctx, org, func(current []issuefields.Field) ([]issuefields.Field, error) {
		next, err := change(current)
		if err != nil {
			return nil, err
		}
		next = deepFields(next)
		var last int64
		for _, f := range next {
			last = max(last, f.ID)
			for _, o := range f.Options {
				last = max(last, o.ID)
			}
		}
		for i := range next {
			if next[i].ID == 0 {
				last++
				next[i].ID = last
			}
			for j := range next[i].Options {
				if next[i].Options[j].ID == 0 {
					last++
					next[i].Options[j].ID = last
				}
			}
		}
		return next, nil
	})
}

// fieldsNotAtomic reads the fields, calls change with them outside the
// organization's lock, and stores what it returns over whatever the
// organization has by then.
type fieldsNotAtomic struct{ *memstore.Store }

func (s fieldsNotAtomic) ChangeFields(ctx context.Context, org string, change fieldsChange) ([]issuefields.Field, error) {
	current, err := s.OrganizationFields(ctx, org)
	if err != nil {
		return nil, err
	}
	next, err := change(current)
	if err != nil {
		return nil, err
	}
	time.Sleep(time.Millisecond)
	return s.Store.ChangeFields(ctx, org, func([]issuefields.Field) ([]issuefields.Field, error) { return next, nil })
}

// optionsRequired refuses a select field without options.
type optionsRequired struct{ *memstore.Store }

func (s optionsRequired) ChangeFields(ctx context.Context, org string, change fieldsChange) ([]issuefields.Field, error) {
	return s.Store.ChangeFields(ctx, org, func(current []issuefields.Field) ([]issuefields.Field, error) {
		next, err := change(current)
		if err != nil {
			return nil, err
		}
		for _, f := range next {
			if (f.DataType == issuefields.DataTypeSingleSelect || f.DataType == issuefields.DataTypeMultiSelect) && len(f.Options) == 0 {
				return nil, fmt.Errorf("field %q has no options", f.Name)
			}
		}
		return next, nil
	})
}

// namesRefusedWhenKept stores a field or an option with another one's name,
// and then refuses every change that keeps the two names.
type namesRefusedWhenKept struct{ *memstore.Store }

func (s namesRefusedWhenKept) ChangeFields(ctx context.Context, org string, change fieldsChange) ([]issuefields.Field, error) {
	return s.Store.ChangeFields(ctx, org, func(current []issuefields.Field) ([]issuefields.Field, error) {
		next, err := change(current)
		if err != nil {
			return nil, err
		}
		if sharedName(current) && sharedName(next) {
			return nil, fmt.Errorf("organization %q: duplicate key", org)
		}
		return next, nil
	})
}

// sharedName reports whether two of fields, or two options of one field,
// have names that differ only in case or invisible characters.
func sharedName(fields []issuefields.Field) bool {
	key := func(name string) string { return strings.ToLower(strings.ReplaceAll(name, "\u200b", "")) }
	seen := make(map[string]bool)
	for _, f := range fields {
		options := make(map[string]bool)
		for _, o := range f.Options {
			if options[key(o.Name)] {
				return true
			}
			options[key(o.Name)] = true
		}
		if seen[key(f.Name)] {
			return true
		}
		seen[key(f.Name)] = true
	}
	return false
}

// keptFields keeps the slice that a change returned, and shows it in place
// of the organization's fields.
type keptFields struct {
	*memstore.Store
	mu   sync.Mutex
	kept map[string][]issuefields.Field // by lower-cased login
}

func (s *keptFields) ChangeFields(ctx context.Context, org string, change fieldsChange) ([]issuefields.Field, error) {
	var next []issuefields.Field
	stored, err := s.Store.ChangeFields(ctx, org, func(current []issuefields.Field) ([]issuefields.Field, error) {
		var err error
		next, err = change(current)
		return next, err
	})
	if err == nil {
		s.mu.Lock()
		s.kept[strings.ToLower(org)] = next
		s.mu.Unlock()
	}
	return stored, err
}

func (s *keptFields) OrganizationFields(ctx context.Context, org string) ([]issuefields.Field, error) {
	fields, err := s.Store.OrganizationFields(ctx, org)
	s.mu.Lock()
	defer s.mu.Unlock()
	if kept, ok := s.kept[strings.ToLower(org)]; ok && err == nil {
		return kept, nil
	}
	return fields, err
}

func (s *keptFields) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, owner, name, number)
	s.mu.Lock()
	defer s.mu.Unlock()
	if kept, ok := s.kept[strings.ToLower(snap.Repository.Owner)]; ok && err == nil {
		snap.Fields = kept
	}
	return snap, err
}

// fieldsOverwritten writes the fields that ChangeFields stores into the slice
// that OrganizationFields handed out last for the organization, when they
// have the same length, instead of replacing it.
type fieldsOverwritten struct {
	*memstore.Store
	mu        sync.Mutex
	handedOut map[string][]issuefields.Field // by lower-cased login
}

func (s *fieldsOverwritten) OrganizationFields(ctx context.Context, org string) ([]issuefields.Field, error) {
	fields, err := s.Store.OrganizationFields(ctx, org)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handedOut[strings.ToLower(org)] = fields
	return fields, err
}

func (s *fieldsOverwritten) ChangeFields(ctx context.Context, org string, change fieldsChange) ([]issuefields.Field, error) {
	stored, err := s.Store.ChangeFields(ctx, org, change)
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.handedOut[strings.ToLower(org)]; err == nil && len(old) == len(stored) {
		copy(old, stored)
	}
	return stored, err
}

// duplicateOptionNames accepts a field whose options repeat a name, and keeps
// the first option of each name.
type duplicateOptionNames struct{ *memstore.Store }

func (s duplicateOptionNames) AddField(org string, f issuefields.Field) error {
	seen := make(map[string]bool)
	f.Options = slices.DeleteFunc(slices.Clone(f.Options), func(o issuefields.FieldOption) bool {
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
	snap, err := s.Store.Snapshot(context.Background(), owner, name, 0)
	if err != nil {
		return err
	}
	if err := s.Store.RenameRepository(owner, name, newName); err != nil {
		return err
	}
	r := snap.Repository
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forgotten[[2]string{strings.ToLower(r.Owner), strings.ToLower(r.Name)}] = true
	delete(s.forgotten, [2]string{strings.ToLower(r.Owner), strings.ToLower(newName)})
	return nil
}

func (s *forgetfulRename) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	s.mu.Lock()
	forgotten := s.forgotten[[2]string{strings.ToLower(owner), strings.ToLower(name)}]
	s.mu.Unlock()
	if forgotten {
		return issuefields.Snapshot{}, issuefields.ErrNotFound
	}
	return s.Store.Snapshot(ctx, owner, name, number)
}

// emptyDoesNothing has an Empty that leaves everything as it was.
type emptyDoesNothing struct{ *memstore.Store }

func (emptyDoesNothing) Empty(context.Context) error { return nil }

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
func fieldsByID(fields []issuefields.Field) {
	slices.SortFunc(fields, func(a, b issuefields.Field) int { return cmp.Compare(a.ID, b.ID) })
}

// optionsByID sorts the options of every field by ID.
func optionsByID(fields []issuefields.Field) {
	for _, f := range fields {
		slices.SortFunc(f.Options, func(a, b issuefields.FieldOption) int { return cmp.Compare(a.ID, b.ID) })
	}
}
