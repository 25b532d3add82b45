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
// it decodes the event. In an application the Notifier is the handler's
// Config.Notifier; here the example calls Notify itself.
func Example() {
	secret := []byte("It's a Secret to Everybody")
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "cannot read body", http.StatusBadRequest)
			return
		}
		if !webhook.Verify(secret, body, r.Header.Get("X-Service-Signature-256")) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var e issuefields.Event
		if err := json.Unmarshal(body, &e); err != nil {
			http.Error(w, "bad event", http.StatusBadRequest)
			return
		}
		fmt.Printf("%s: %s %s/%s#%d by %s\n", r.Header.Get("X-Service-Event"),
			e.Action, e.Repository.Owner, e.Repository.Name, e.IssueNumber, e.Actor.Login)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()

	hook, err := webhook.New(receiver.URL, webhook.Options{Secret: secret})
	if err != nil {
		panic(err)
	}
	err = hook.Notify(context.Background(), issuefields.Event{
		ID:          "evt-1",
		Action:      issuefields.ActionSet,
		Time:        time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC),
		Repository:  issuefields.EventRepository{ID: 1296269, Owner: "octocat", Name: "Hello-World"},
		IssueNumber: 1347,
		Actor:       issuefields.EventActor{Login: "octocat", Kind: issuefields.FineGrainedPersonalAccessToken},
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
	// issue_field_values: set octocat/Hello-World#1347 by octocat
	// {Delivered:1 Failed:0 Dropped:0 Abandoned:0}
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
