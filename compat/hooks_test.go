package compat

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/google/go-github/v92/github"
)

// A typedDelivery is one delivery as a receiver written with go-github reads
// it: validated with ValidatePayload and parsed with ParseWebHook.
type typedDelivery struct {
	guid  string // X-GitHub-Delivery
	event any    // *github.PingEvent or *github.IssuesEvent
}

// startTypedReceiver starts a receiver that checks each delivery's
// X-Hub-Signature-256 with go-github's ValidatePayload and parses it with
// ParseWebHook, which must give a *github.PingEvent for a ping and a
// *github.IssuesEvent for an issues delivery; it sends each delivery it
// accepts on the returned channel, and fails the test for any other.
func startTypedReceiver(t *testing.T) (url string, deliveries <-chan typedDelivery) {
	t.Helper()
	ch := make(chan typedDelivery, 100)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(github.SHA256SignatureHeader) == "" {
			t.Errorf("receiver: a delivery without %s", github.SHA256SignatureHeader)
		}
		payload, err := github.ValidatePayload(r, []byte(webhookSecret))
		if err != nil {
			t.Errorf("receiver: ValidatePayload: %v", err)
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		event, err := github.ParseWebHook(github.WebHookType(r), payload)
		if err != nil {
			t.Errorf("receiver: ParseWebHook(%q): %v", github.WebHookType(r), err)
			http.Error(w, "unknown event", http.StatusBadRequest)
			return
		}
		switch event.(type) {
		case *github.PingEvent, *github.IssuesEvent:
		default:
			t.Errorf("receiver: ParseWebHook(%q) gave a %T", github.WebHookType(r), event)
		}
		ch <- typedDelivery{guid: github.DeliveryID(r), event: event}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rc.Close)
	return rc.URL, ch
}

// hookMethods are go-github's typed methods of one kind of hook, an
// organization's or a repository's, bound to its owner.
type hookMethods struct {
	kind       string // the hook's type: Organization or Repository
	create     func(ctx context.Context, h *github.Hook) (*github.Hook, *github.Response, error)
	list       func(ctx context.Context, opts *github.ListOptions) ([]*github.Hook, *github.Response, error)
	get        func(ctx context.Context, id int64) (*github.Hook, *github.Response, error)
	edit       func(ctx context.Context, id int64, h *github.Hook) (*github.Hook, *github.Response, error)
	config     func(ctx context.Context, id int64) (*github.HookConfig, *github.Response, error)
	ping       func(ctx context.Context, id int64) (*github.Response, error)
	deliveries func(ctx context.Context, id int64, opts *github.ListCursorOptions) ([]*github.HookDelivery, *github.Response, error)
	delivery   func(ctx context.Context, hookID, deliveryID int64) (*github.HookDelivery, *github.Response, error)
	redeliver  func(ctx context.Context, hookID, deliveryID int64) (*github.HookDelivery, *github.Response, error)
	delete     func(ctx context.Context, id int64) (*github.Response, error)
}

// orgHookMethods returns the Organizations methods of org's hooks.
func orgHookMethods(c *github.Client, org string) hookMethods {
	o := c.Organizations
	return hookMethods{
		kind: "Organization",
		create: func(ctx context.Context, h *github.Hook) (*github.Hook, *github.Response, error) {
			return o.CreateHook(ctx, org, h)
		},
		list: func(ctx context.Context, opts *github.ListOptions) ([]*github.Hook, *github.Response, error) {
			return o.ListHooks(ctx, org, opts)
		},
		get: func(ctx context.Context, id int64) (*github.Hook, *github.Response, error) {
			return o.GetHook(ctx, org, id)
		},
		edit: func(ctx context.Context, id int64, h *github.Hook) (*github.Hook, *github.Response, error) {
			return o.EditHook(ctx, org, id, h)
		},
		config: func(ctx context.Context, id int64) (*github.HookConfig, *github.Response, error) {
			return o.GetHookConfiguration(ctx, org, id)
		},
		ping: func(ctx context.Context, id int64) (*github.Response, error) { return o.PingHook(ctx, org, id) },
		deliveries: func(ctx context.Context, id int64, opts *github.ListCursorOptions) ([]*github.HookDelivery, *github.Response, error) {
			return o.ListHookDeliveries(ctx, org, id, opts)
		},
		delivery: func(ctx context.Context, hookID, deliveryID int64) (*github.HookDelivery, *github.Response, error) {
			return o.GetHookDelivery(ctx, org, hookID, deliveryID)
		},
		redeliver: func(ctx context.Context, hookID, deliveryID int64) (*github.HookDelivery, *github.Response, error) {
			return o.RedeliverHookDelivery(ctx, org, hookID, deliveryID)
		},
		delete: func(ctx context.Context, id int64) (*github.Response, error) { return o.DeleteHook(ctx, org, id) },
	}
}

// repoHookMethods returns the Repositories methods of owner/repo's hooks.
func repoHookMethods(c *github.Client, owner, repo string) hookMethods {
	r := c.Repositories
	return hookMethods{
		kind: "Repository",
		create: func(ctx context.Context, h *github.Hook) (*github.Hook, *github.Response, error) {
			return r.CreateHook(ctx, owner, repo, h)
		},
		list: func(ctx context.Context, opts *github.ListOptions) ([]*github.Hook, *github.Response, error) {
			return r.ListHooks(ctx, owner, repo, opts)
		},
		get: func(ctx context.Context, id int64) (*github.Hook, *github.Response, error) {
			return r.GetHook(ctx, owner, repo, id)
		},
		edit: func(ctx context.Context, id int64, h *github.Hook) (*github.Hook, *github.Response, error) {
			return r.EditHook(ctx, owner, repo, id, h)
		},
		config: func(ctx context.Context, id int64) (*github.HookConfig, *github.Response, error) {
			return r.GetHookConfiguration(ctx, owner, repo, id)
		},
		ping: func(ctx context.Context, id int64) (*github.Response, error) { return r.PingHook(ctx, owner, repo, id) },
		deliveries: func(ctx context.Context, id int64, opts *github.ListCursorOptions) ([]*github.HookDelivery, *github.Response, error) {
			return r.ListHookDeliveries(ctx, owner, repo, id, opts)
		},
		delivery: func(ctx context.Context, hookID, deliveryID int64) (*github.HookDelivery, *github.Response, error) {
			return r.GetHookDelivery(ctx, owner, repo, hookID, deliveryID)
		},
		redeliver: func(ctx context.Context, hookID, deliveryID int64) (*github.HookDelivery, *github.Response, error) {
			return r.RedeliverHookDelivery(ctx, owner, repo, hookID, deliveryID)
		},
		delete: func(ctx context.Context, id int64) (*github.Response, error) {
			return r.DeleteHook(ctx, owner, repo, id)
		},
	}
}

// TestHookMethodsWithGoGitHub drives the hook routes of an organization and
// of a repository with go-github's typed methods, as a tool that subscribes
// to GitHub's webhooks does: create a hook, list, get, edit it with the hook
// as fetched, ping it, write, list its deliveries page by page through the
// cursor, get one, redeliver it and delete the hook. The receiver checks
// every delivery with ValidatePayload and ParseWebHook.
func TestHookMethodsWithGoGitHub(t *testing.T) {
	s := startServer(t)
	admin := s.client(t, hooksToken)
	for i, m := range []hookMethods{orgHookMethods(admin, "octo-org"), repoHookMethods(admin, "octo-org", "hello-world")} {
		t.Run(m.kind, func(t *testing.T) {
			receiver, deliveries := startTypedReceiver(t)
			checkHookMethods(t, s, m, receiver, deliveries, 5+i)
		})
	}
}

// checkHookMethods runs the steps of TestHookMethodsWithGoGitHub with m; its
// write sets hello-world#3's Estimate to estimate, which must change it.
func checkHookMethods(t *testing.T, s *server, m hookMethods, receiver string, deliveries <-chan typedDelivery, estimate int) {
	ctx := context.Background()
	created, resp, err := m.create(ctx, &github.Hook{
		Name:   github.Ptr("web"),
		Events: []string{"issues"},
		Active: github.Ptr(true),
		Config: &github.HookConfig{URL: github.Ptr(receiver), ContentType: github.Ptr("json"), Secret: github.Ptr(webhookSecret)},
	})
	if err != nil {
		t.Fatalf("CreateHook: %v", err)
	}
	id := created.GetID()
	if resp.StatusCode != http.StatusCreated || created.GetType() != m.kind || created.Config.GetSecret() != "********" ||
		created.Config.GetURL() != receiver || !slices.Equal(created.Events, []string{"issues"}) {
		t.Errorf("CreateHook = %d %v, want 201 and the %s hook with its secret masked", resp.StatusCode, created, m.kind)
	}
	ping := nextTyped[*github.PingEvent](t, deliveries)
	if ping.GetHookID() != id || ping.GetHook().GetID() != id {
		t.Errorf("the new hook's ping names hook %d (%d), want %d", ping.GetHookID(), ping.GetHook().GetID(), id)
	}

	listed, _, err := m.list(ctx, nil)
	if err != nil || len(listed) != 1 || listed[0].GetID() != id {
		t.Fatalf("ListHooks = %v, %v; want the new hook", listed, err)
	}
	fetched, _, err := m.get(ctx, id)
	if err != nil || fetched.GetURL() != created.GetURL() || fetched.GetPingURL() != created.GetPingURL() {
		t.Fatalf("GetHook = %v, %v; want the hook as created", fetched, err)
	}
	// EditHook sends back the hook as fetched, read-only keys and the
	// masked secret included: the secret stays, and the events change.
	fetched.Events = append(fetched.Events, "pull_request")
	edited, _, err := m.edit(ctx, id, fetched)
	if err != nil || !slices.Equal(edited.Events, []string{"issues", "pull_request"}) || edited.Config.GetSecret() != "********" {
		t.Fatalf("EditHook = %v, %v; want the events changed and the secret kept", edited, err)
	}
	if cfg, _, err := m.config(ctx, id); err != nil || cfg.GetURL() != receiver || cfg.GetContentType() != "json" {
		t.Errorf("GetHookConfiguration = %v, %v; want the hook's config", cfg, err)
	}

	if resp, err := m.ping(ctx, id); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("PingHook = %v, %v; want 204", resp, err)
	}
	nextTyped[*github.PingEvent](t, deliveries)
	if _, _, err := addValues(ctx, s.client(t, writerToken), "octo-org", "hello-world", 3, []*github.IssueRequestFieldValue{
		{FieldID: 2, Value: estimate},
	}); err != nil {
		t.Fatalf("a write: %v", err)
	}
	issues := nextTyped[*github.IssuesEvent](t, deliveries)
	if issues.GetAction() != "field_added" || issues.GetIssue().GetNumber() != 3 {
		t.Errorf("the write's delivery: %s of issue %d, want field_added of issue 3", issues.GetAction(), issues.GetIssue().GetNumber())
	}

	all := listAllDeliveries(t, m, id, 3)
	if all[0].GetEvent() != "issues" || all[1].GetEvent() != "ping" || all[2].GetEvent() != "ping" {
		t.Fatalf("the deliveries, newest first: %v, want the write's and two pings", all)
	}
	one, _, err := m.delivery(ctx, id, all[0].GetID())
	if err != nil || one.GetGUID() != all[0].GetGUID() || one.Request.GetHeader("X-GitHub-Event") != "issues" ||
		one.Request.RawPayload == nil || one.GetStatusCode() != http.StatusNoContent || one.Response == nil {
		t.Fatalf("GetHookDelivery = %v, %v; want the write's delivery with its request and response", one, err)
	}

	if _, _, err := m.redeliver(ctx, id, one.GetID()); !errors.As(err, new(*github.AcceptedError)) {
		t.Fatalf("RedeliverHookDelivery: %v, want go-github's AcceptedError of a 202", err)
	}
	again := nextTypedDelivery(t, deliveries)
	if _, ok := again.event.(*github.IssuesEvent); !ok || again.guid != one.GetGUID() {
		t.Errorf("the redelivery is a %T with X-GitHub-Delivery %s, want the issues event again with %s", again.event, again.guid, one.GetGUID())
	}
	if all = listAllDeliveries(t, m, id, 4); !all[0].GetRedelivery() || all[0].GetGUID() != one.GetGUID() {
		t.Errorf("the newest delivery %v, want the redelivery of %s", all[0], one.GetGUID())
	}

	if resp, err := m.delete(ctx, id); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DeleteHook = %v, %v; want 204", resp, err)
	}
	_, _, err = m.get(ctx, id)
	wantErrorResponse(t, err, http.StatusNotFound)
}

// listAllDeliveries lists hook id's deliveries with m, one per page through
// the cursor, until there are at least n (a delivery is recorded after its
// receiver answered), and returns them, newest first.
func listAllDeliveries(t *testing.T, m hookMethods, id int64, n int) []*github.HookDelivery {
	t.Helper()
	var all []*github.HookDelivery
	for deadline := time.Now().Add(deliveryBound); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		all = nil
		opts := &github.ListCursorOptions{PerPage: 1}
		for pages := 0; ; pages++ {
			if pages > 100 {
				t.Fatalf("ListHookDeliveries: more than 100 pages")
			}
			page, resp, err := m.deliveries(context.Background(), id, opts)
			if err != nil {
				t.Fatalf("ListHookDeliveries: %v", err)
			}
			all = append(all, page...)
			if resp.Cursor == "" {
				break
			}
			opts.Cursor = resp.Cursor
		}
		if len(all) >= n {
			if !slices.IsSortedFunc(all, func(a, b *github.HookDelivery) int { return int(b.GetID() - a.GetID()) }) {
				t.Errorf("ListHookDeliveries: %v, want newest first", all)
			}
			return all
		}
	}
	t.Fatalf("ListHookDeliveries lists %d deliveries after %v, want %d", len(all), deliveryBound, n)
	return nil
}

// nextTypedDelivery returns the next delivery of deliveries, or fails the
// test after deliveryBound.
func nextTypedDelivery(t *testing.T, deliveries <-chan typedDelivery) typedDelivery {
	t.Helper()
	select {
	case d := <-deliveries:
		return d
	case <-time.After(deliveryBound):
		t.Fatalf("no delivery within %v", deliveryBound)
		return typedDelivery{}
	}
}

// nextTyped returns the event of the next delivery, which must be an E.
func nextTyped[E any](t *testing.T, deliveries <-chan typedDelivery) E {
	t.Helper()
	d := nextTypedDelivery(t, deliveries)
	e, ok := d.event.(E)
	if !ok {
		t.Fatalf("the next delivery is a %T, want a %T", d.event, e)
	}
	return e
}
