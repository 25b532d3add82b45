package webhooktest

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/conformance"
	"github.com/issuefields/issuefields/webhook"
)

// hookCases check webhook.Store's hooks, for a store that implements it; for
// another store each case passes without a call.
var hookCases = []testCase{
	{"CreateHook stores every attribute of the hook with a positive ID, and returns it as stored, which Hooks shows", createHookStores},
	{"CreateHook gives each hook an ID that no hook had before, even a deleted one", hookIDsNew},
	{"Hooks returns the hooks of the scope by ID, and none of another scope", hooksOfScope},
	{"CreateHook returns ErrTooManyHooks, storing nothing, when the scope has max hooks already", createHookMax},
	{"CreateHook checks and creates as one atomic step: of 30 concurrent creates with max 20, exactly 20 succeed", createHookConcurrent},
	{"UpdateHook calls change with the hook as stored, stores what it returns, and returns it as stored", updateHookStores},
	{"UpdateHook returns an error that wraps the error of change, and changes nothing", updateHookChangeFails},
	{"UpdateHook refuses a change that alters the hook's ID or scope, and changes nothing", updateHookKeepsIdentity},
	{"UpdateHook is atomic: concurrent changes of one hook lose none", updateHookConcurrent},
	{"UpdateHook and DeleteHook return ErrNotFound for a hook that does not exist in the scope asked for", hookNotInScope},
	{"DeleteHook deletes the hook and its deliveries, and no other", deleteHookDeletes},
	{"HooksFor returns the hooks of the repository and of the organization that owns it, matched case-insensitively, by ID", hooksForRepository},
	{"HooksFor follows a repository's rename and transfer: its own hooks, by its ID, and those of the organization that owns it now", hooksForTransferred},
}

// hookScopes returns the scopes of the hooks of the organization octo-org
// and of its repository hello-world.
func (e *env) hookScopes() (org, repo webhook.Scope) {
	return webhook.Scope{Organization: "octo-org"}, webhook.Scope{RepositoryID: helloWorld.ID}
}

// createHook creates hook, with MaxHooks as the limit, and returns it as
// stored.
func (e *env) createHook(hook webhook.Hook) webhook.Hook {
	e.r.Helper()
	created, err := e.s.CreateHook(e.ctx, hook, webhook.MaxHooks)
	if err != nil {
		e.r.Fatalf("CreateHook(%+v): %v", hook, err)
	}
	return created
}

// hooksOf returns the hooks of scope.
func (e *env) hooksOf(scope webhook.Scope) []webhook.Hook {
	e.r.Helper()
	hooks, err := e.s.Hooks(e.ctx, scope)
	if err != nil {
		e.r.Fatalf("Hooks(%+v): %v", scope, err)
	}
	return hooks
}

// wantHooks reports a failure, citing when, unless scope has the hooks want.
func (e *env) wantHooks(scope webhook.Scope, want []webhook.Hook, when string) {
	e.r.Helper()
	if got := e.hooksOf(scope); !equalHooks(got, want) {
		e.r.Errorf("%s: Hooks(%+v) = %+v, want %+v", when, scope, got, want)
	}
}

// hooksFor returns the hooks that get the events of repo.
func (e *env) hooksFor(repo issuefields.Repository) []webhook.Hook {
	e.r.Helper()
	hooks, err := e.s.HooksFor(e.ctx, repo)
	if err != nil {
		e.r.Fatalf("HooksFor(%+v): %v", repo, err)
	}
	return hooks
}

// wantHooksFor reports a failure, citing when, unless the hooks that get the
// events of repo are want.
func (e *env) wantHooksFor(repo issuefields.Repository, want []webhook.Hook, when string) {
	e.r.Helper()
	if got := e.hooksFor(repo); !equalHooks(got, want) {
		e.r.Errorf("%s: HooksFor(%+v) = %+v, want %+v", when, repo, got, want)
	}
}

// errRefused is what a change of a hook returns to refuse it.
var errRefused = errors.New("storetest: a change that refuses")

// refuse is a change of a hook that changes the hook it is given, which is
// the caller's copy, and then refuses it.
func refuse(h webhook.Hook) (webhook.Hook, error) {
	h.Active = !h.Active
	if len(h.Events) > 0 {
		h.Events[0] = "changed"
	}
	h.Config.URL = "https://changed.example.com"
	return h, errRefused
}

func createHookStores(e *env) {
	org, repo := e.hookScopes()
	for _, scope := range []webhook.Scope{org, repo} {
		hook := aHook(scope, "https://hooks.example.com/a")
		hook.Active = false
		hook.Config = webhook.Config{URL: "http://127.0.0.1:8080/hook", ContentType: "form", InsecureSSL: "1"}
		got := e.createHook(hook)
		if got.ID <= 0 {
			e.r.Errorf("CreateHook gave the ID %d, want a positive one", got.ID)
		}
		want := hook
		want.ID = got.ID
		if !equalHooks([]webhook.Hook{got}, []webhook.Hook{want}) {
			e.r.Errorf("CreateHook(%+v) returned %+v, want it with an ID", hook, got)
		}
		e.wantHooks(scope, []webhook.Hook{want}, "after CreateHook")
	}
}

func hookIDsNew(e *env) {
	org, repo := e.hookScopes()
	var had []int64
	check := func(h webhook.Hook) webhook.Hook {
		e.r.Helper()
		if h.ID <= 0 || slices.Contains(had, h.ID) {
			e.r.Errorf("CreateHook gave the ID %d, want a positive one that no hook had (%v)", h.ID, had)
		}
		had = append(had, h.ID)
		return h
	}
	for i := range 3 {
		for _, scope := range []webhook.Scope{org, repo} {
			h := check(e.createHook(aHook(scope, fmt.Sprint("https://hooks.example.com/", i))))
			if i%2 == 0 {
				if err := e.s.DeleteHook(e.ctx, scope, h.ID); err != nil {
					e.r.Fatalf("DeleteHook(%+v, %d): %v", scope, h.ID, err)
				}
			}
		}
	}
}

func hooksOfScope(e *env) {
	org, repo := e.hookScopes()
	other := webhook.Scope{Organization: "other-org"}
	otherRepo := webhook.Scope{RepositoryID: octoOther.ID}
	want := make(map[webhook.Scope][]webhook.Hook)
	for i := range 3 {
		for _, scope := range []webhook.Scope{repo, org, other} {
			h := e.createHook(aHook(scope, fmt.Sprintf("https://hooks.example.com/%d", i)))
			want[scope] = append(want[scope], h)
		}
	}
	for _, scope := range []webhook.Scope{org, repo, other} {
		if got := e.hooksOf(scope); !equalHooks(got, want[scope]) {
			e.r.Errorf("Hooks(%+v) = hooks %v, want %v, in that order", scope, idsOfHooks(got), idsOfHooks(want[scope]))
		}
	}
	if got := e.hooksOf(otherRepo); len(got) != 0 {
		e.r.Errorf("Hooks(%+v) of a repository without hooks = %+v, want none", otherRepo, got)
	}
}

func createHookMax(e *env) {
	h := e.s
	org, repo := e.hookScopes()
	const limit = 3
	var kept []webhook.Hook
	for i := range limit {
		hook, err := h.CreateHook(e.ctx, aHook(org, fmt.Sprint("https://hooks.example.com/", i)), limit)
		if err != nil {
			e.r.Fatalf("CreateHook of hook %d of %d: %v", i+1, limit, err)
		}
		kept = append(kept, hook)
	}
	for range 2 {
		if _, err := h.CreateHook(e.ctx, aHook(org, "https://hooks.example.com/more"), limit); !errors.Is(err, webhook.ErrTooManyHooks) {
			e.r.Errorf("CreateHook of hook %d with max %d: error = %v, want ErrTooManyHooks", limit+1, limit, err)
		}
	}
	e.wantHooks(org, kept, "after CreateHook refused a hook past max")
	if _, err := h.CreateHook(e.ctx, aHook(repo, "https://hooks.example.com/repo"), limit); err != nil {
		e.r.Errorf("CreateHook in another scope, after one scope reached max: %v", err)
	}
	if err := h.DeleteHook(e.ctx, org, kept[0].ID); err != nil {
		e.r.Fatalf("DeleteHook: %v", err)
	}
	if _, err := h.CreateHook(e.ctx, aHook(org, "https://hooks.example.com/again"), limit); err != nil {
		e.r.Errorf("CreateHook after a hook of a full scope was deleted: %v", err)
	}
}

func createHookConcurrent(e *env) {
	h := e.s
	org, _ := e.hookScopes()
	const creators, limit = 30, 20
	created := make([]webhook.Hook, creators)
	errs := conformance.Parallel(creators, func(i int) error {
		var err error
		created[i], err = h.CreateHook(e.ctx, aHook(org, fmt.Sprint("https://hooks.example.com/", i)), limit)
		return err
	})
	var ids []int64
	for i, err := range errs {
		switch {
		case err == nil:
			ids = append(ids, created[i].ID)
		case !errors.Is(err, webhook.ErrTooManyHooks):
			e.r.Errorf("creator %d: CreateHook error = %v, want nil or ErrTooManyHooks", i, err)
		}
	}
	if len(ids) != limit {
		e.r.Errorf("%d of %d concurrent CreateHook with max %d succeeded, want exactly %d", len(ids), creators, limit, limit)
	}
	slices.Sort(ids)
	if got := idsOfHooks(e.hooksOf(org)); !slices.Equal(got, ids) {
		e.r.Errorf("after concurrent CreateHook, Hooks has the hooks %v, want those created, %v, each once", got, ids)
	}
}

func updateHookStores(e *env) {
	h := e.s
	org, repo := e.hookScopes()
	for _, scope := range []webhook.Scope{org, repo} {
		stored := e.createHook(aHook(scope, "https://hooks.example.com/a"))
		other := e.createHook(aHook(scope, "https://hooks.example.com/b"))
		var given webhook.Hook
		next := stored
		next.Active = false
		next.Events = []string{"pull_request"}
		next.Config = webhook.Config{URL: "https://hooks.example.com/new", ContentType: "form", InsecureSSL: "1"}
		next.UpdatedAt = hookTime.Add(time.Hour)
		got, err := h.UpdateHook(e.ctx, scope, stored.ID, func(current webhook.Hook) (webhook.Hook, error) {
			given = current
			return next, nil
		})
		if err != nil {
			e.r.Fatalf("UpdateHook(%+v, %d): %v", scope, stored.ID, err)
		}
		if !equalHooks([]webhook.Hook{given}, []webhook.Hook{stored}) {
			e.r.Errorf("UpdateHook called change with %+v, want the hook as stored, %+v", given, stored)
		}
		if !equalHooks([]webhook.Hook{got}, []webhook.Hook{next}) {
			e.r.Errorf("UpdateHook returned %+v, want %+v", got, next)
		}
		e.wantHooks(scope, []webhook.Hook{next, other}, "after UpdateHook")
	}
}

func updateHookChangeFails(e *env) {
	h := e.s
	org, _ := e.hookScopes()
	stored := e.createHook(aHook(org, "https://hooks.example.com/a"))
	if _, err := h.UpdateHook(e.ctx, org, stored.ID, refuse); !errors.Is(err, errRefused) {
		e.r.Errorf("UpdateHook with a change that failed: error = %v, want one that wraps the change's", err)
	}
	e.wantHooks(org, []webhook.Hook{stored}, "after UpdateHook with a change that failed")
}

func updateHookKeepsIdentity(e *env) {
	h := e.s
	org, repo := e.hookScopes()
	stored := e.createHook(aHook(org, "https://hooks.example.com/a"))
	other := e.createHook(aHook(org, "https://hooks.example.com/b"))
	for _, c := range []struct {
		what  string
		alter func(*webhook.Hook)
	}{
		{"the ID to another hook's", func(hook *webhook.Hook) { hook.ID = other.ID }},
		{"the ID to a new one", func(hook *webhook.Hook) { hook.ID = other.ID + 1000 }},
		{"the scope to another organization", func(hook *webhook.Hook) { hook.Scope = webhook.Scope{Organization: "other-org"} }},
		{"the scope to a repository", func(hook *webhook.Hook) { hook.Scope = repo }},
	} {
		_, err := h.UpdateHook(e.ctx, org, stored.ID, func(current webhook.Hook) (webhook.Hook, error) {
			current.Config.URL = "https://hooks.example.com/changed"
			c.alter(&current)
			return current, nil
		})
		if err == nil {
			e.r.Errorf("UpdateHook with a change that altered %s succeeded, want an error", c.what)
		}
		e.wantHooks(org, []webhook.Hook{stored, other}, "after UpdateHook refused a change that altered "+c.what)
		e.wantHooks(repo, nil, "after UpdateHook refused a change that altered "+c.what)
	}
}

func updateHookConcurrent(e *env) {
	h := e.s
	_, repo := e.hookScopes()
	stored := e.createHook(aHook(repo, "https://hooks.example.com/a"))
	const writers = 16
	errs := conformance.Parallel(writers, func(i int) error {
		_, err := h.UpdateHook(e.ctx, repo, stored.ID, func(current webhook.Hook) (webhook.Hook, error) {
			current.Events = append(current.Events, fmt.Sprint("event-", i))
			return current, nil
		})
		return err
	})
	for i, err := range errs {
		if err != nil {
			e.r.Errorf("writer %d: UpdateHook: %v", i, err)
		}
	}
	got := e.hooksOf(repo)
	if len(got) != 1 {
		e.r.Fatalf("after concurrent UpdateHook, Hooks = %+v, want the one hook", got)
	}
	events := got[0].Events
	for i := range writers {
		if !slices.Contains(events, fmt.Sprint("event-", i)) {
			e.r.Errorf("after %d writers each added an event, the hook has the events %q, without that of writer %d", writers, events, i)
		}
	}
	if len(events) != len(stored.Events)+writers {
		e.r.Errorf("after %d writers each added an event to %d, the hook has %d events: %q", writers, len(stored.Events), len(events), events)
	}
}

func hookNotInScope(e *env) {
	h := e.s
	org, repo := e.hookScopes()
	otherRepo := webhook.Scope{RepositoryID: otherHelloWorld.ID}
	orgHook := e.createHook(aHook(org, "https://hooks.example.com/org"))
	repoHook := e.createHook(aHook(repo, "https://hooks.example.com/repo"))
	gone := e.createHook(aHook(org, "https://hooks.example.com/gone"))
	if err := h.DeleteHook(e.ctx, org, gone.ID); err != nil {
		e.r.Fatalf("DeleteHook: %v", err)
	}
	for _, c := range []struct {
		scope webhook.Scope
		id    int64
		what  string
	}{
		{webhook.Scope{Organization: "other-org"}, orgHook.ID, "a hook of another organization"},
		{repo, orgHook.ID, "a hook of the repository's organization"},
		{otherRepo, repoHook.ID, "a hook of another repository"},
		{org, repoHook.ID, "a hook of a repository of the organization"},
		{org, gone.ID, "a deleted hook"},
		{org, repoHook.ID + orgHook.ID + gone.ID, "an ID no hook has"},
	} {
		called := false
		_, err := h.UpdateHook(e.ctx, c.scope, c.id, func(hook webhook.Hook) (webhook.Hook, error) {
			called = true
			return hook, nil
		})
		if !errors.Is(err, issuefields.ErrNotFound) || called {
			e.r.Errorf("UpdateHook(%+v, %d) of %s: error = %v (change called: %t), want ErrNotFound without calling change", c.scope, c.id, c.what, err, called)
		}
		if err := h.DeleteHook(e.ctx, c.scope, c.id); !errors.Is(err, issuefields.ErrNotFound) {
			e.r.Errorf("DeleteHook(%+v, %d) of %s: error = %v, want ErrNotFound", c.scope, c.id, c.what, err)
		}
	}
	e.wantHooks(org, []webhook.Hook{orgHook}, "after calls for hooks of other scopes")
	e.wantHooks(repo, []webhook.Hook{repoHook}, "after calls for hooks of other scopes")
}

func deleteHookDeletes(e *env) {
	h := e.s
	org, repo := e.hookScopes()
	doomed := e.createHook(aHook(org, "https://hooks.example.com/doomed"))
	kept := e.createHook(aHook(org, "https://hooks.example.com/kept"))
	repoHook := e.createHook(aHook(repo, "https://hooks.example.com/repo"))
	var doomedDeliveries, keptDeliveries []webhook.Delivery
	for range 3 {
		doomedDeliveries = append(doomedDeliveries, e.addDelivery(aDelivery(doomed.ID, 200)))
		keptDeliveries = append(keptDeliveries, e.addDelivery(aDelivery(kept.ID, 500)))
	}
	if err := h.DeleteHook(e.ctx, org, doomed.ID); err != nil {
		e.r.Fatalf("DeleteHook(%+v, %d): %v", org, doomed.ID, err)
	}
	e.wantHooks(org, []webhook.Hook{kept}, "after DeleteHook")
	e.wantHooks(repo, []webhook.Hook{repoHook}, "after DeleteHook of a hook of another scope")
	if got, err := h.Deliveries(e.ctx, doomed.ID, webhook.DeliveryQuery{Limit: 10}); !errors.Is(err, issuefields.ErrNotFound) {
		e.r.Errorf("after DeleteHook, Deliveries of the deleted hook = %+v, %v; want ErrNotFound", got, err)
	}
	for _, d := range doomedDeliveries {
		if got, err := h.Delivery(e.ctx, doomed.ID, d.ID); !errors.Is(err, issuefields.ErrNotFound) {
			e.r.Errorf("after DeleteHook, Delivery(%d, %d) = %+v, %v; want ErrNotFound", doomed.ID, d.ID, got, err)
		}
	}
	slices.Reverse(keptDeliveries)
	e.wantDeliveries(kept.ID, webhook.DeliveryQuery{Limit: 10}, keptDeliveries, "after DeleteHook of another hook")
}

func hooksForRepository(e *env) {
	octo, other, user := helloWorld, otherHelloWorld, userHelloWorld
	// Hooks created in turns, so that neither scope's come first, and the
	// organization's under another spelling of its login.
	orgA := e.createHook(aHook(webhook.Scope{Organization: "Octo-Org"}, "https://hooks.example.com/org-a"))
	repo := e.createHook(aHook(webhook.Scope{RepositoryID: octo.ID}, "https://hooks.example.com/repo"))
	otherOrg := e.createHook(aHook(webhook.Scope{Organization: "other-org"}, "https://hooks.example.com/other-org"))
	sibling := e.createHook(aHook(webhook.Scope{RepositoryID: octoOther.ID}, "https://hooks.example.com/sibling"))
	orgB := e.createHook(aHook(webhook.Scope{Organization: "OCTO-ORG"}, "https://hooks.example.com/org-b"))
	otherRepo := e.createHook(aHook(webhook.Scope{RepositoryID: other.ID}, "https://hooks.example.com/other-repo"))
	userRepo := e.createHook(aHook(webhook.Scope{RepositoryID: user.ID}, "https://hooks.example.com/user-repo"))
	e.wantHooksFor(octo, []webhook.Hook{orgA, repo, orgB}, "a repository of octo-org")
	e.wantHooksFor(octoOther, []webhook.Hook{orgA, sibling, orgB}, "another repository of octo-org")
	e.wantHooksFor(other, []webhook.Hook{otherOrg, otherRepo}, "a repository of other-org")
	e.wantHooksFor(user, []webhook.Hook{userRepo}, "a repository of a user")
	e.wantHooksFor(octoNew, []webhook.Hook{orgA, orgB}, "a repository of octo-org without hooks")
}

func hooksForTransferred(e *env) {
	octo := helloWorld
	orgHook := e.createHook(aHook(webhook.Scope{Organization: "octo-org"}, "https://hooks.example.com/octo-org"))
	repoHook := e.createHook(aHook(webhook.Scope{RepositoryID: octo.ID}, "https://hooks.example.com/repo"))
	otherHook := e.createHook(aHook(webhook.Scope{Organization: "other-org"}, "https://hooks.example.com/other-org"))
	renamed := octo
	renamed.Name = "renamed"
	e.wantHooksFor(renamed, []webhook.Hook{orgHook, repoHook}, "after a rename")
	renamed.Owner = "other-org"
	e.wantHooksFor(renamed, []webhook.Hook{repoHook, otherHook}, "after a transfer to other-org")
	renamed.Owner, renamed.OwnedByOrganization = "octocat", false
	e.wantHooksFor(renamed, []webhook.Hook{repoHook}, "after a transfer to the user octocat")
}
