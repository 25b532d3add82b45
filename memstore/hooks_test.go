package memstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/webhook"
)

// TestHooksHaveALockOfTheirOwn checks that a request for values does not
// wait while the hooks are locked, here by an UpdateHook whose change has not
// returned yet.
func TestHooksHaveALockOfTheirOwn(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	r, err := s.AddRepository("octocat", "hello", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddIssue("octocat", "hello", 1); err != nil {
		t.Fatal(err)
	}
	scope := webhook.Scope{RepositoryID: r.ID}
	hook, err := s.Hooks().CreateHook(ctx, webhook.Hook{Scope: scope, Active: true}, webhook.MaxHooks)
	if err != nil {
		t.Fatal(err)
	}
	locked, release := make(chan struct{}), make(chan struct{})
	updated := make(chan error)
	go func() {
		_, err := s.Hooks().UpdateHook(ctx, scope, hook.ID, func(h webhook.Hook) (webhook.Hook, error) {
			close(locked)
			<-release
			return h, nil
		})
		updated <- err
	}()
	<-locked
	served := make(chan error)
	go func() {
		snap, err := s.Snapshot(ctx, "octocat", "hello", 1)
		if err == nil {
			_, err = s.UpdateIssue(ctx, snap, snap.Issue)
		}
		served <- err
	}()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Snapshot and UpdateIssue while the hooks are locked: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Errorf("Snapshot and UpdateIssue waited for the lock of the hooks")
	}
	close(release)
	if err := <-updated; err != nil {
		t.Errorf("UpdateHook: %v", err)
	}
}

// TestHooksOfAnyScope checks that the Store keeps hooks of an organization
// and a repository that it does not have, which the routes refuse before
// they call it.
func TestHooksOfAnyScope(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	for _, scope := range []webhook.Scope{{Organization: "nobody"}, {RepositoryID: 1296269}} {
		hook, err := s.Hooks().CreateHook(ctx, webhook.Hook{Scope: scope}, webhook.MaxHooks)
		if err != nil {
			t.Fatalf("CreateHook(%+v): %v", scope, err)
		}
		if hooks, err := s.Hooks().Hooks(ctx, scope); err != nil || len(hooks) != 1 || hooks[0].ID != hook.ID {
			t.Errorf("Hooks(%+v) = %+v, %v; want the hook created", scope, hooks, err)
		}
	}
}

// TestHookErrors checks that a scope with neither or both of an organization
// and a repository, and a query that DeliveryQuery does not describe, get an
// error that names the package.
func TestHookErrors(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	hook, err := s.Hooks().CreateHook(ctx, webhook.Hook{Scope: webhook.Scope{RepositoryID: 1}}, webhook.MaxHooks)
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	for _, scope := range []webhook.Scope{{}, {Organization: "octo-org", RepositoryID: 1}, {RepositoryID: -1}} {
		_, err := s.Hooks().CreateHook(ctx, webhook.Hook{Scope: scope}, webhook.MaxHooks)
		errs = append(errs, err)
		_, err = s.Hooks().Hooks(ctx, scope)
		errs = append(errs, err)
	}
	for _, q := range []webhook.DeliveryQuery{{}, {Limit: -1}, {Limit: 10, Status: "OK"}} {
		_, err := s.Hooks().Deliveries(ctx, hook.ID, q)
		errs = append(errs, err)
	}
	for _, err := range errs {
		if err == nil || !strings.HasPrefix(err.Error(), "memstore: ") {
			t.Errorf("error = %v, want one that starts with %q", err, "memstore: ")
		}
	}
}
