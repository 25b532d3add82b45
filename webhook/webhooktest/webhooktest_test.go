package webhooktest_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/conformance"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/webhook"
	"github.com/issuefields/issuefields/webhook/webhooktest"
)

func TestMemstorePasses(t *testing.T) {
	if err := webhooktest.TestStore(func() (webhook.Store, error) { return memstore.New().Hooks(), nil }); err != nil {
		t.Fatal(err)
	}
}

func TestBrokenStoresFail(t *testing.T) {
	tests := []struct {
		name  string
		store func(*memstore.Hooks) webhook.Store
		want  []string // cases that must fail, among others
	}{
		{"CreateHook not atomic",
			func(h *memstore.Hooks) webhook.Store { return hooksNotAtomic{h} },
			[]string{"CreateHook checks and creates as one atomic step: of 30 concurrent creates with max 20, exactly 20 succeed"}},
		{"HooksFor without the organization's hooks",
			func(h *memstore.Hooks) webhook.Store { return repositoryHooksOnly{h} },
			[]string{
				"HooksFor returns the hooks of the repository and of the organization that owns it, matched case-insensitively, by ID",
				"HooksFor follows a repository's rename and transfer: its own hooks, by its ID, and those of the organization that owns it now",
			}},
		{"Deliveries oldest first",
			func(h *memstore.Hooks) webhook.Store { return oldestFirst{h} },
			[]string{"Deliveries returns the deliveries of the hook newest first, without their Request and Response, as Before and Limit select"}},
		{"HooksFor panicking",
			func(h *memstore.Hooks) webhook.Store { return panickingHooksFor{h} },
			[]string{"HooksFor returns the hooks of the repository and of the organization that owns it, matched case-insensitively, by ID:\n\tpanic: boom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			conformance.ExpectFailures(t, webhooktest.TestStore(func() (webhook.Store, error) { return tt.store(memstore.New().Hooks()), nil }), tt.want)
		})
	}
}

func TestNewStoreError(t *testing.T) {
	err := webhooktest.TestStore(func() (webhook.Store, error) { return nil, errors.New("no database") })
	want := "CreateHook stores every attribute of the hook with a positive ID, and returns it as stored, which Hooks shows:\n\tnew store: no database"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("TestStore = %v, want an error containing %q", err, want)
	}
}

// memHooks is memstore's Hooks, under a name that the broken stores embed
// it by: a field named Hooks would hide the method.
type memHooks = memstore.Hooks

// hooksNotAtomic counts the hooks of the scope, and creates the hook after a
// pause, past max if others were created meanwhile.
type hooksNotAtomic struct{ *memHooks }

func (s hooksNotAtomic) CreateHook(ctx context.Context, hook webhook.Hook, max int) (webhook.Hook, error) {
	hooks, err := s.memHooks.Hooks(ctx, hook.Scope)
	if err != nil {
		return webhook.Hook{}, err
	}
	if len(hooks) >= max {
		return webhook.Hook{}, webhook.ErrTooManyHooks
	}
	time.Sleep(time.Millisecond)
	return s.memHooks.CreateHook(ctx, hook, math.MaxInt)
}

// repositoryHooksOnly gives a repository's events to its own hooks alone,
// not to those of its organization.
type repositoryHooksOnly struct{ *memHooks }

func (s repositoryHooksOnly) HooksFor(ctx context.Context, repo issuefields.Repository) ([]webhook.Hook, error) {
	return s.memHooks.Hooks(ctx, webhook.Scope{RepositoryID: repo.ID})
}

// oldestFirst lists the deliveries that it selects oldest first.
type oldestFirst struct{ *memHooks }

func (s oldestFirst) Deliveries(ctx context.Context, hookID int64, q webhook.DeliveryQuery) ([]webhook.Delivery, error) {
	ds, err := s.memHooks.Deliveries(ctx, hookID, q)
	slices.Reverse(ds)
	return ds, err
}

// panickingHooksFor panics in HooksFor.
type panickingHooksFor struct{ *memHooks }

func (panickingHooksFor) HooksFor(context.Context, issuefields.Repository) ([]webhook.Hook, error) {
	panic("boom")
}
