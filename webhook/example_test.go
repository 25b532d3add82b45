package webhook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// A receiver checks the signature of the body, exactly as received, before
// it decodes the delivery. With Vendor "GitHub" the headers are GitHub's own,
// so a receiver written for GitHub's issues event reads these unchanged. In
// an application the Notifier is the handler's Config.Notifier; here the
// example calls Notify itself, for an event of a write that gave a field its
// first value and removed another's.
func Example() {
	secret := []byte("It's a Secret to Everybody")
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "cannot read body", http.StatusBadRequest)
			return
		}
		if !webhook.Verify(secret, body, r.Header.Get("X-Hub-Signature-256")) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var delivery struct {
			Action string `json:"action"`
			Issue  struct {
				Number int64 `json:"number"`
			} `json:"issue"`
			Repository struct {
				FullName string `json:"full_name"`
			} `json:"repository"`
			IssueField struct {
				Name string `json:"name"`
			} `json:"issue_field"`
			IssueFieldValue struct {
				Value any `json:"value"`
			} `json:"issue_field_value"`
		}
		if err := json.Unmarshal(body, &delivery); err != nil {
			http.Error(w, "bad delivery", http.StatusBadRequest)
			return
		}
		fmt.Printf("%s %s: %s %s#%d, %v\n", r.Header.Get("X-GitHub-Event"), delivery.Action,
			delivery.IssueField.Name, delivery.Repository.FullName, delivery.Issue.Number, delivery.IssueFieldValue.Value)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()

	// One worker delivers the changes of an event in their order.
	hook, err := webhook.New(receiver.URL, webhook.Options{Secret: secret, Vendor: "GitHub", Workers: 1})
	if err != nil {
		panic(err)
	}
	err = hook.Notify(context.Background(), issuefields.Event{
		ID:     "evt-1",
		Action: issuefields.ActionSet,
		Time:   time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC),
		Issue: issuefields.Issue{Number: 1347,
			Repository: issuefields.Repository{ID: 1296269, Owner: "octo-org", Name: "hello-world", OwnedByOrganization: true}},
		Actor: &issuefields.Principal{Login: "octocat", Kind: issuefields.FineGrainedPersonalAccessToken},
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
	if err := hook.Close(context.Background()); err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", hook.Stats())
	// Output:
	// issues field_added: Notes octo-org/hello-world#1347, needs triage
	// issues field_removed: Estimate octo-org/hello-world#1347, 5
	// {Delivered:2 Failed:0 Dropped:0 Abandoned:0}
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
