package webhook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/webhook"
)

// A Notifier delivers each changed field of a write to the hooks that its
// Store holds, as GitHub delivers its issues event. Here a receiver written
// for GitHub checks the signature over the body as received, then decodes
// it. In an application the Notifier is the handler's Config.Notifier and
// the hooks come through the Routes; here the example stores a hook and
// calls Notify itself, for a write that gave one field its first value and
// removed another's.
func Example() {
	ctx := context.Background()
	secret := "It's a Secret to Everybody"
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 25<<20))
		if err != nil {
			http.Error(w, "cannot read the body", http.StatusBadRequest)
			return
		}
		if !webhook.Verify([]byte(secret), body, r.Header.Get("X-Hub-Signature-256")) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var delivery struct {
			Action string
			Issue  struct {
				Number  int64
				Title   string
				HTMLURL string `json:"html_url"`
			}
			IssueField struct {
				Name string
			} `json:"issue_field"`
			IssueFieldValue struct {
				Value any
			} `json:"issue_field_value"`
		}
		if err := json.Unmarshal(body, &delivery); err != nil {
			http.Error(w, "bad delivery", http.StatusBadRequest)
			return
		}
		fmt.Printf("%s %s: %s = %v on %q, %s\n", r.Header.Get("X-GitHub-Event"), delivery.Action,
			delivery.IssueField.Name, delivery.IssueFieldValue.Value, delivery.Issue.Title, delivery.Issue.HTMLURL)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()

	store := memstore.New()
	if err := store.AddOrganization("octo-org"); err != nil {
		panic(err)
	}
	repo, err := store.AddRepository("octo-org", "hello-world", false)
	if err != nil {
		panic(err)
	}
	// The hook that POST /orgs/octo-org/hooks would create.
	hook, err := store.Hooks().CreateHook(ctx, webhook.Hook{
		Scope:  webhook.Scope{Organization: "octo-org"},
		Active: true,
		Events: []string{"issues"},
		Config: webhook.Config{URL: receiver.URL, ContentType: "json", Secret: secret, InsecureSSL: "0"},
	}, webhook.MaxHooks)
	if err != nil {
		panic(err)
	}

	n, err := webhook.New(webhook.Options{
		Store:   store.Hooks(), // the webhook.Store beside the data
		BaseURL: "https://api.example.com",
		WebURL:  "https://example.com",
		Vendor:  "GitHub",
		Workers: 1, // one worker delivers in the order of the changes
	})
	if err != nil {
		panic(err)
	}
	err = n.Notify(ctx, issuefields.Event{
		ID:     "evt-1",
		Action: issuefields.ActionSet,
		Time:   time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC),
		Issue:  issuefields.Issue{Repository: repo, Number: 1347},
		Actor:  &issuefields.Principal{Login: "octocat", Kind: issuefields.FineGrainedPersonalAccessToken},
		Changes: []issuefields.FieldChange{
			{
				Field: issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText},
				After: &issuefields.Value{FieldID: 1, Text: "needs triage"},
			},
			{
				Field:  issuefields.Field{ID: 3, Name: "Estimate", DataType: issuefields.DataTypeNumber},
				Before: &issuefields.Value{FieldID: 3, Number: 5},
			},
		},
	})
	if err != nil {
		panic(err)
	}
	// Close delivers what is queued before it returns.
	if err := n.Close(ctx); err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", n.Stats())

	// Every delivery is recorded, newest first, as GET .../deliveries
	// lists them.
	deliveries, err := store.Hooks().Deliveries(ctx, hook.ID, webhook.DeliveryQuery{Limit: 10})
	if err != nil {
		panic(err)
	}
	for _, d := range deliveries {
		fmt.Println(d.Event, d.Action, d.StatusCode, d.Status)
	}
	// Output:
	// issues field_added: Notes = needs triage on "Issue #1347", https://example.com/octo-org/hello-world/issues/1347
	// issues field_removed: Estimate = 5 on "Issue #1347", https://example.com/octo-org/hello-world/issues/1347
	// {Delivered:2 Failed:0 Dropped:0 Abandoned:0}
	// issues field_removed 204 OK
	// issues field_added 204 OK
}

// The routes of NewRoutes are GitHub's webhook routes, so that a tool
// subscribes as it would on GitHub. A host gives them to the API's handler,
// which serves them beside its own, under the same prefix, which the
// Notifier's BaseURL includes. Here a tool creates an organization's hook,
// which then gets a ping.
func ExampleNewRoutes() {
	store := memstore.New()
	if err := store.AddOrganization("octo-org"); err != nil {
		panic(err)
	}
	pings := make(chan string, 1)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pings <- r.Header.Get("X-GitHub-Event") + " of hook " + r.Header.Get("X-GitHub-Hook-ID")
	}))
	defer receiver.Close()

	n, err := webhook.New(webhook.Options{Store: store.Hooks(), BaseURL: "https://api.example.com/api/v3", Vendor: "GitHub"})
	if err != nil {
		panic(err)
	}
	defer n.Close(context.Background())
	// A token that may manage octo-org's hooks.
	verifier := issuefields.TokenVerifierFunc(func(_ context.Context, token string) (*issuefields.Principal, error) {
		if token != "admin-token" {
			return nil, issuefields.ErrBadCredentials
		}
		return &issuefields.Principal{Kind: issuefields.FineGrainedPersonalAccessToken, Login: "octocat",
			OrganizationPermissions: func(context.Context, string) (issuefields.OrganizationPermissions, error) {
				return issuefields.OrganizationPermissions{Visible: true, OrganizationHooks: issuefields.PermissionWrite}, nil
			}}, nil
	})
	routes, err := webhook.NewRoutes(webhook.RoutesConfig{Store: store, Notifier: n})
	if err != nil {
		panic(err)
	}
	h, err := issuefields.New(issuefields.Config{Store: store, Verifier: verifier, Notifier: n, Vendor: "GitHub",
		BaseURL: "https://api.example.com/api/v3", Routes: routes})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/v3/", http.StripPrefix("/api/v3", h))
	server := httptest.NewServer(mux)
	defer server.Close()

	req, err := http.NewRequest("POST", server.URL+"/api/v3/orgs/octo-org/hooks", strings.NewReader(
		`{"name":"web","events":["issues"],"config":{"url":"`+receiver.URL+`","content_type":"json","secret":"s3cret"}}`))
	if err != nil {
		panic(err)
	}
	req.Header.Set("Authorization", "Bearer admin-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var created struct {
		ID     int64
		Config struct{ Secret string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil {
		panic(err)
	}
	fmt.Println(resp.StatusCode, resp.Header.Get("Location"), created.Config.Secret)
	fmt.Println(<-pings)
	// Output:
	// 201 https://api.example.com/api/v3/orgs/octo-org/hooks/1 ********
	// ping of hook 1
}

// The signature is the scheme of GitHub's X-Hub-Signature-256; this is the
// example of GitHub's documentation.
func ExampleVerify() {
	secret := []byte("It's a Secret to Everybody")
	body := []byte("Hello, World!")
	signature := webhook.Sign(secret, body)
	fmt.Println(signature)
	fmt.Println(webhook.Verify(secret, body, signature))
	fmt.Println(webhook.Verify([]byte("a guess"), body, signature))
	// Output:
	// sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17
	// true
	// false
}
