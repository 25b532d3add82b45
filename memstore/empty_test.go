package memstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/webhook"
)

// seedOne fills s with one organization, field, repository, issue, value and
// hook, and returns the repository, the issue's version and the hook.
func seedOne(t *testing.T, s *memstore.Store) (issuefields.Repository, issuefields.Version, webhook.Hook) {
	t.Helper()
	ctx := context.Background()
	if err := s.AddOrganization("octo-org"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddField("octo-org", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText}); err != nil {
		t.Fatal(err)
	}
	repo, err := s.AddRepository("octo-org", "hello-world", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddIssue("octo-org", "hello-world", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.SetValues("octo-org", "hello-world", 1, []issuefields.Value{{FieldID: 1, Text: "first"}}); err != nil {
		t.Fatal(err)
	}
	hook, err := s.Hooks().CreateHook(ctx, webhook.Hook{Scope: webhook.Scope{Organization: "octo-org"}, Active: true,
		Config: webhook.Config{URL: "http://127.0.0.1:9/hook", ContentType: "json"}}, webhook.MaxHooks)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Hooks().AddDelivery(ctx, webhook.Delivery{HookID: hook.ID, StatusCode: 200}); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Snapshot(ctx, "octo-org", "hello-world", 1)
	if err != nil {
		t.Fatal(err)
	}
	return repo, snap.Issue.Version, hook
}

func TestEmptyDropsEverythingAndSeedsAgainAsNew(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	repo, version, hook := seedOne(t, s)

	if err := s.Empty(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Snapshot(ctx, "octo-org", "hello-world", 1); !errors.Is(err, issuefields.ErrNotFound) {
		t.Errorf("Snapshot after Empty: %v, want ErrNotFound", err)
	}
	if hooks, err := s.Hooks().Hooks(ctx, webhook.Scope{Organization: "octo-org"}); err != nil || len(hooks) != 0 {
		t.Errorf("Hooks after Empty = %v, %v; want none", hooks, err)
	}
	if _, err := s.Hooks().Deliveries(ctx, hook.ID, webhook.DeliveryQuery{Limit: 10}); err == nil {
		t.Error("Deliveries of the hook from before Empty: no error, want one for a hook that does not exist")
	}

	again, againVersion, againHook := seedOne(t, s)
	if again.ID != repo.ID || againHook.ID != hook.ID {
		t.Errorf("seeded again: repository %d and hook %d, want %d and %d as the first time", again.ID, againHook.ID, repo.ID, hook.ID)
	}
	if againVersion == version {
		t.Errorf("seeded again: version %q, the same as before Empty; want a new one", version)
	}
	deliveries, err := s.Hooks().Deliveries(ctx, againHook.ID, webhook.DeliveryQuery{Limit: 10})
	if err != nil || len(deliveries) != 1 {
		t.Errorf("Deliveries of the new hook = %v, %v; want only the one delivered after Empty", deliveries, err)
	}
}
