package standin_test

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/standin"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/webhook"
)

// seeded returns a store with the organization octo-org, two fields, and
// its repositories hello-world, with an issue with values, a deleted one
// and one transferred to handbook, and handbook; and a hook of hello-world
// with one delivery.
func seeded(t *testing.T) (s *memstore.Store, hook webhook.Hook, delivery webhook.Delivery) {
	t.Helper()
	ctx := context.Background()
	s = memstore.New()
	steps := []func() error{
		func() error { return s.AddOrganization("octo-org") },
		func() error {
			return s.AddField("octo-org", issuefields.Field{ID: 1, Name: "Priority", DataType: issuefields.DataTypeSingleSelect,
				Options: []issuefields.FieldOption{{ID: 11, Name: "High", Color: "red"}, {ID: 12, Name: "Low", Color: "gray"}}})
		},
		func() error {
			return s.AddField("octo-org", issuefields.Field{ID: 2, Name: "Points", DataType: issuefields.DataTypeNumber})
		},
		func() error { _, err := s.AddRepository("octo-org", "handbook", false); return err },
		func() error {
			repo, err := s.AddRepository("octo-org", "hello-world", false)
			if err == nil {
				hook, err = s.Hooks().CreateHook(ctx, webhook.Hook{Scope: webhook.Scope{RepositoryID: repo.ID}, Active: true,
					Events: []string{"issues"}, Config: webhook.Config{URL: "http://127.0.0.1:1/hook", ContentType: "json", Secret: "s3cret"}}, 20)
			}
			return err
		},
		func() error { return s.AddIssue("octo-org", "hello-world", 1) },
		func() error {
			return s.SetValues("octo-org", "hello-world", 1, []issuefields.Value{{FieldID: 2, Number: 3}, {FieldID: 1, OptionIDs: []int64{11}}})
		},
		func() error { return s.AddIssue("octo-org", "hello-world", 2) },
		func() error { return s.DeleteIssue("octo-org", "hello-world", 2) },
		func() error { return s.AddIssue("octo-org", "hello-world", 3) },
		func() error { return s.TransferIssue("octo-org", "hello-world", 3, "octo-org", "handbook", 8) },
		func() (err error) {
			delivery, err = s.Hooks().AddDelivery(ctx, webhook.Delivery{HookID: hook.ID, GUID: "72d3162e", Event: "issues", Action: "field_added",
				DeliveredAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Duration: 1500 * time.Microsecond,
				Status: "failed to connect to host", URL: hook.Config.URL,
				Request: webhook.Message{Header: http.Header{"X-Service-Event": {"issues"}}, Body: []byte(`{"action":"field_added"}`)}})
			return err
		},
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("seeding, step %d: %v", i, err)
		}
	}
	return s, hook, delivery
}

// TestSourceStateShowsTheListedData checks that a Source shows its
// organizations' fields, its repositories' issues with their values or
// what became of them, and their hooks with their deliveries, and leaves
// out what the store does not have.
func TestSourceStateShowsTheListedData(t *testing.T) {
	store, hook, delivery := seeded(t)
	src := standin.Source{Store: store, Hooks: store.Hooks(), Organizations: []string{"octo-org", "gone-org"}, Repositories: []standin.RepositoryIssues{
		{Owner: "octo-org", Name: "hello-world", Issues: []int64{1, 2, 3, 4}},
		{Owner: "octo-org", Name: "gone", Issues: []int64{1}},
		{Owner: "octo-org", Name: "handbook", Issues: []int64{8}},
	}}
	got, err := src.State(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := standin.State{
		Organizations: []standin.Organization{{Login: "octo-org", Fields: []standin.Field{
			{ID: 1, Name: "Priority", DataType: "single_select", Options: []string{"High", "Low"}},
			{ID: 2, Name: "Points", DataType: "number"},
		}}},
		Repositories: []standin.Repository{
			{Owner: "octo-org", Name: "hello-world", Issues: []standin.Issue{
				{Number: 1, Values: []standin.Value{{Field: "Priority", Value: "High"}, {Field: "Points", Value: "3"}}},
				{Number: 2, Note: "deleted"},
				{Number: 3, Note: "transferred to octo-org/handbook#8"},
				{Number: 4, Note: "not found"},
			}},
			{Owner: "octo-org", Name: "handbook", Issues: []standin.Issue{{Number: 8}}},
		},
		Hooks: []standin.Hook{{ID: hook.ID, Owner: "octo-org/hello-world", URL: "http://127.0.0.1:1/hook", ContentType: "json",
			Events: []string{"issues"}, Active: true, Signed: true, Deliveries: []standin.Delivery{{
				ID: delivery.ID, GUID: "72d3162e", Event: "issues", Action: "field_added", Status: "failed to connect to host",
				Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), DurationMS: 1.5,
				Request: standin.Message{Header: http.Header{"X-Service-Event": {"issues"}}, Body: []byte(`{"action":"field_added"}`)},
			}}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("State() =\n%+v\nwant\n%+v", got, want)
	}
}

// TestSourceRedeliversOnlyItsHooksDeliveries checks that Source.Redeliver
// sends a delivery of its hooks again, recorded as a redelivery with the
// same GUID, and says not found for another hook or delivery.
func TestSourceRedeliversOnlyItsHooksDeliveries(t *testing.T) {
	store, hook, delivery := seeded(t)
	hooks, err := webhook.New(webhook.Options{Store: store.Hooks()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	listed := standin.Source{Store: store, Hooks: store.Hooks(), Notifier: hooks, Organizations: []string{"octo-org"},
		Repositories: []standin.RepositoryIssues{{Owner: "octo-org", Name: "hello-world"}}}
	if err := listed.Redeliver(ctx, hook.ID, delivery.ID); err != nil {
		t.Errorf("Redeliver of the hook's delivery = %v, want nil", err)
	}
	if err := hooks.Close(ctx); err != nil {
		t.Fatalf("draining the redelivery: %v", err)
	}
	if list, err := store.Hooks().Deliveries(ctx, hook.ID, webhook.DeliveryQuery{Limit: 10}); err != nil || len(list) != 2 || !list[0].Redelivery || list[0].GUID != delivery.GUID {
		t.Errorf("the hook's deliveries after the redelivery = %+v (%v), want the redelivery of %s first, then the delivery", list, err, delivery.GUID)
	}
	if err := listed.Redeliver(ctx, hook.ID, delivery.ID); !errors.Is(err, webhook.ErrClosed) {
		t.Errorf("Redeliver once the notifier is closed = %v, want webhook.ErrClosed", err)
	}
	unnotified := listed
	unnotified.Notifier = nil
	if err := unnotified.Redeliver(ctx, hook.ID, delivery.ID); err == nil || errors.Is(err, issuefields.ErrNotFound) {
		t.Errorf("Redeliver without a Notifier = %v, want an error other than not found", err)
	}
	unlisted := standin.Source{Store: store, Hooks: store.Hooks(), Notifier: hooks, Organizations: []string{"octo-org"}}
	for _, tc := range []struct {
		name               string
		src                standin.Source
		hookID, deliveryID int64
	}{
		{"another hook", listed, hook.ID + 1, delivery.ID},
		{"another delivery", listed, hook.ID, delivery.ID + 100},
		{"a hook of a repository not listed", unlisted, hook.ID, delivery.ID},
	} {
		if err := tc.src.Redeliver(ctx, tc.hookID, tc.deliveryID); !errors.Is(err, issuefields.ErrNotFound) {
			t.Errorf("%s: Redeliver = %v, want an error that wraps ErrNotFound", tc.name, err)
		}
	}
}

// TestSourceShowsEachHookOnce checks that a repository listed twice, by
// names that differ in case, shows its hooks once.
func TestSourceShowsEachHookOnce(t *testing.T) {
	store, hook, _ := seeded(t)
	src := standin.Source{Store: store, Hooks: store.Hooks(), Repositories: []standin.RepositoryIssues{
		{Owner: "octo-org", Name: "hello-world"},
		{Owner: "OCTO-ORG", Name: "Hello-World"},
	}}
	got, err := src.State(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Hooks) != 1 || got.Hooks[0].ID != hook.ID {
		t.Errorf("State().Hooks = %+v, want hook %d once", got.Hooks, hook.ID)
	}
}
