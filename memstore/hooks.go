package memstore

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/reponame"
	"github.com/issuefields/issuefields/webhook"
)

var _ webhook.Store = (*Hooks)(nil)

// Hooks is the [webhook.Store] of a Store: its webhooks and their newest
// deliveries, which [Store.Hooks] returns. Its lock is its own: recording a
// delivery never waits for the store-wide lock of the accounts,
// repositories and issues, nor holds up a request for values. It keeps an
// organization's hooks under its lower-cased login and a repository's under
// its ID, and does not check that the organization or the repository
// exists: the routes that create hooks do. Hooks and deliveries get their
// IDs from two counters that only grow, so no ID is given twice until
// [Store.Empty] starts them again, as a new Store would. Each hook keeps its
// newest [webhook.KeptDeliveries] deliveries in a ring, in which a new
// delivery takes the place of the oldest. It is safe for concurrent use.
type Hooks struct {
	mu      sync.RWMutex
	hooks   map[int64]*hookEntry
	byScope map[webhook.Scope][]int64 // by scopeKey, each in ID order
	// lastHook and lastDelivery are the IDs given last; they only grow.
	lastHook, lastDelivery int64
}

// Hooks returns the hooks and deliveries that s keeps, which [Store.Empty]
// drops with the rest.
func (s *Store) Hooks() *Hooks { return &s.hooks }

// A hookEntry is a hook and its newest deliveries.
type hookEntry struct {
	hook       webhook.Hook
	deliveries ring
}

// Hooks returns the hooks of scope, by ID. An organization's login matches
// case-insensitively.
func (h *Hooks) Hooks(_ context.Context, scope webhook.Scope) ([]webhook.Hook, error) {
	key, err := scopeKey(scope)
	if err != nil {
		return nil, err
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.list(h.byScope[key]), nil
}

// CreateHook stores a copy of hook under the next hook ID of the store, which
// no hook had before, unless hook's scope has max hooks already. It does not
// check that the organization or the repository of the scope exists; the
// routes do.
func (h *Hooks) CreateHook(_ context.Context, hook webhook.Hook, max int) (webhook.Hook, error) {
	key, err := scopeKey(hook.Scope)
	if err != nil {
		return webhook.Hook{}, err
	}
	hook.Events = slices.Clone(hook.Events)
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.byScope[key]) >= max {
		return webhook.Hook{}, fmt.Errorf("memstore: hooks of %s: %w", describeScope(hook.Scope), webhook.ErrTooManyHooks)
	}
	if h.hooks == nil {
		h.hooks = make(map[int64]*hookEntry)
		h.byScope = make(map[webhook.Scope][]int64)
	}
	h.lastHook++
	hook.ID = h.lastHook
	h.hooks[hook.ID] = &hookEntry{hook: hook}
	h.byScope[key] = append(h.byScope[key], hook.ID)
	return copyHook(hook), nil
}

// UpdateHook replaces hook id of scope with a copy of what change returns,
// given a copy of the hook. It holds the lock of h while it calls change,
// so change must not call the methods of h. It returns an error, and changes
// nothing, if change returns one or alters the hook's ID or scope.
func (h *Hooks) UpdateHook(_ context.Context, scope webhook.Scope, id int64, change func(webhook.Hook) (webhook.Hook, error)) (webhook.Hook, error) {
	key, err := scopeKey(scope)
	if err != nil {
		return webhook.Hook{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	e, err := h.find(key, id)
	if err != nil {
		return webhook.Hook{}, err
	}
	next, err := change(copyHook(e.hook))
	if err != nil {
		return webhook.Hook{}, fmt.Errorf("memstore: update hook %d: %w", id, err)
	}
	if next.ID != e.hook.ID || next.Scope != e.hook.Scope {
		return webhook.Hook{}, fmt.Errorf("memstore: update hook %d: the change made it hook %d of %s", id, next.ID, describeScope(next.Scope))
	}
	e.hook = copyHook(next)
	return next, nil
}

// DeleteHook deletes hook id of scope and its deliveries.
func (h *Hooks) DeleteHook(_ context.Context, scope webhook.Scope, id int64) error {
	key, err := scopeKey(scope)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, err := h.find(key, id); err != nil {
		return err
	}
	delete(h.hooks, id)
	ids := slices.DeleteFunc(h.byScope[key], func(i int64) bool { return i == id })
	if len(ids) == 0 {
		delete(h.byScope, key)
	} else {
		h.byScope[key] = ids
	}
	return nil
}

// HooksFor returns the hooks of repo and, when an organization owns repo,
// those of the organization repo.Owner, by ID. It takes repo as given, and
// so follows a rename or a transfer as soon as the caller passes the
// repository as it is now.
func (h *Hooks) HooksFor(_ context.Context, repo issuefields.Repository) ([]webhook.Hook, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	ids := h.byScope[webhook.Scope{RepositoryID: repo.ID}]
	if repo.OwnedByOrganization {
		ids = slices.Concat(ids, h.byScope[webhook.Scope{Organization: reponame.Key(repo.Owner)}])
		slices.Sort(ids)
	}
	return h.list(ids), nil
}

// AddDelivery records a copy of d, with the next delivery ID of the store,
// as the newest delivery of hook d.HookID, and forgets the hook's oldest
// delivery when it has KeptDeliveries already. For a hook that does not
// exist it records nothing and returns the zero Delivery.
func (h *Hooks) AddDelivery(_ context.Context, d webhook.Delivery) (webhook.Delivery, error) {
	d.Request, d.Response = copyMessage(d.Request), copyMessage(d.Response)
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.hooks[d.HookID]
	if !ok {
		return webhook.Delivery{}, nil
	}
	h.lastDelivery++
	d.ID = h.lastDelivery
	e.deliveries.add(d)
	return copyDelivery(d), nil
}

// Deliveries returns the deliveries of hook hookID that q selects, newest
// first, without their Request and Response. It returns an error for a
// Limit that is not positive and for a Status other than "success",
// "failure" and "".
func (h *Hooks) Deliveries(_ context.Context, hookID int64, q webhook.DeliveryQuery) ([]webhook.Delivery, error) {
	if err := checkQuery(q); err != nil {
		return nil, err
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	e, ok := h.hooks[hookID]
	if !ok {
		return nil, noHook(hookID)
	}
	out := []webhook.Delivery{}
	for i := range e.deliveries.len() {
		d := e.deliveries.newest(i)
		if (q.Before != 0 && d.ID >= q.Before) || !statusMatches(q.Status, d.StatusCode) {
			continue
		}
		listed := *d
		listed.Request, listed.Response = webhook.Message{}, webhook.Message{}
		if out = append(out, listed); len(out) == q.Limit {
			break
		}
	}
	return out, nil
}

// Delivery returns a copy of delivery id of hook hookID.
func (h *Hooks) Delivery(_ context.Context, hookID, id int64) (webhook.Delivery, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	e, ok := h.hooks[hookID]
	if !ok {
		return webhook.Delivery{}, noHook(hookID)
	}
	for i := range e.deliveries.len() {
		if d := e.deliveries.newest(i); d.ID == id {
			return copyDelivery(*d), nil
		}
	}
	return webhook.Delivery{}, fmt.Errorf("memstore: delivery %d of hook %d: %w", id, hookID, issuefields.ErrNotFound)
}

// find returns hook id of the scope whose key is key. The caller holds h.mu.
func (h *Hooks) find(key webhook.Scope, id int64) (*hookEntry, error) {
	e, ok := h.hooks[id]
	if !ok || !slices.Contains(h.byScope[key], id) {
		return nil, fmt.Errorf("memstore: hook %d of %s: %w", id, describeScope(key), issuefields.ErrNotFound)
	}
	return e, nil
}

// list returns copies of the hooks ids, in their order. The caller holds
// h.mu.
func (h *Hooks) list(ids []int64) []webhook.Hook {
	out := make([]webhook.Hook, len(ids))
	for i, id := range ids {
		out[i] = copyHook(h.hooks[id].hook)
	}
	return out
}

// A ring keeps the newest deliveries of a hook, at most KeptDeliveries: it
// grows until it is full, and from then on each delivery takes the place of
// the oldest. Its memory is bounded, and adding a delivery moves no other.
type ring struct {
	ds   []webhook.Delivery
	next int // where the next delivery goes once ds is full: the oldest
}

// add adds d as the newest delivery, forgetting the oldest when r is full.
func (r *ring) add(d webhook.Delivery) {
	if len(r.ds) < webhook.KeptDeliveries {
		r.ds = append(r.ds, d)
		return
	}
	r.ds[r.next] = d
	r.next = (r.next + 1) % len(r.ds)
}

// len returns the number of deliveries r keeps.
func (r *ring) len() int { return len(r.ds) }

// newest returns the delivery that i deliveries are newer than, for i from 0
// to r.len()-1.
func (r *ring) newest(i int) *webhook.Delivery {
	n := len(r.ds)
	return &r.ds[(r.next-1-i+2*n)%n]
}

// scopeKey returns the key under which the hooks of scope are kept: scope
// with the organization's login lower-cased. It returns an error unless
// exactly one of an organization and a positive repository ID is set.
func scopeKey(scope webhook.Scope) (webhook.Scope, error) {
	if (scope.Organization == "") == (scope.RepositoryID == 0) || scope.RepositoryID < 0 {
		return webhook.Scope{}, fmt.Errorf("memstore: hook scope %+v: want an organization or a repository, not both", scope)
	}
	scope.Organization = reponame.Key(scope.Organization)
	return scope, nil
}

// describeScope names scope in an error message.
func describeScope(scope webhook.Scope) string {
	if scope.Organization != "" {
		return fmt.Sprintf("organization %q", scope.Organization)
	}
	return fmt.Sprintf("repository %d", scope.RepositoryID)
}

// noHook returns the error for a hook id that does not exist.
func noHook(id int64) error {
	return fmt.Errorf("memstore: hook %d: %w", id, issuefields.ErrNotFound)
}

// checkQuery returns an error unless q's Limit is positive and its Status
// one that DeliveryQuery describes.
func checkQuery(q webhook.DeliveryQuery) error {
	switch {
	case q.Limit <= 0:
		return fmt.Errorf("memstore: deliveries: limit %d, want a positive one", q.Limit)
	case q.Status != "" && q.Status != "success" && q.Status != "failure":
		return fmt.Errorf(`memstore: deliveries: status %q, want "success", "failure" or ""`, q.Status)
	}
	return nil
}

// statusMatches reports whether a delivery whose receiver answered code
// has status, as DeliveryQuery.Status describes it.
func statusMatches(status string, code int) bool {
	succeeded := code >= 200 && code <= 399
	return status == "" || status == "success" && succeeded || status == "failure" && !succeeded
}

// copyHook returns a copy of h that shares no memory with it.
func copyHook(h webhook.Hook) webhook.Hook {
	h.Events = slices.Clone(h.Events)
	return h
}

// copyDelivery returns a copy of d that shares no memory with it.
func copyDelivery(d webhook.Delivery) webhook.Delivery {
	d.Request, d.Response = copyMessage(d.Request), copyMessage(d.Response)
	return d
}

// copyMessage returns a copy of m that shares no memory with it.
func copyMessage(m webhook.Message) webhook.Message {
	m.Header, m.Body = m.Header.Clone(), slices.Clone(m.Body)
	return m
}
