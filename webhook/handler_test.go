package webhook_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/webhook"
)

// syncBuffer is a bytes.Buffer that the handler and the notifier's workers
// may write to at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// newWritableHandler returns a handler over a store with one organization,
// a text field "Notes" (id 1), a public repository octo-org/hello-world with
// issues 1 to issues, and the token "writer-token" that may write there. It
// notifies n and logs to logger.
func newWritableHandler(t *testing.T, issues int64, n issuefields.Notifier, logger *slog.Logger) http.Handler {
	t.Helper()
	s := memstore.New()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.AddOrganization("octo-org"))
	must(s.AddField("octo-org", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText}))
	_, err := s.AddRepository("octo-org", "hello-world", false)
	must(err)
	for i := int64(1); i <= issues; i++ {
		must(s.AddIssue("octo-org", "hello-world", i))
	}
	writer := &issuefields.Principal{
		Kind:  issuefields.FineGrainedPersonalAccessToken,
		Login: "octocat",
		Permissions: func(context.Context, issuefields.Repository) (issuefields.RepositoryPermissions, error) {
			return issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionWrite, Push: true}, nil
		},
	}
	h, err := issuefields.New(issuefields.Config{
		Store: s,
		Verifier: issuefields.TokenVerifierFunc(func(_ context.Context, token string) (*issuefields.Principal, error) {
			if token != "writer-token" {
				return nil, issuefields.ErrBadCredentials
			}
			return writer, nil
		}),
		Notifier: n,
		Logger:   logger,
	})
	must(err)
	return h
}

// TestDropIsLoggedOnce writes through a handler while the notifier's queue
// is full: the write succeeds, and the dropped event is logged exactly once,
// with the request id and the event, by the handler that got the error.
func TestDropIsLoggedOnce(t *testing.T) {
	rc := newBlockingReceiver(t)
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	n := newNotifier(t, rc.URL, webhook.Options{Workers: 1, QueueSize: 1, Logger: logger}, nil)
	h := newWritableHandler(t, 3, n, logger)

	write := func(issue string) {
		t.Helper()
		req := httptest.NewRequest("POST", "/repos/octo-org/hello-world/issues/"+issue+"/issue-field-values",
			strings.NewReader(`{"issue_field_values": [{"field_id": 1, "value": "a note"}]}`))
		req.Header.Set("Authorization", "Bearer writer-token")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("POST issue %s: status %d: %s", issue, rec.Code, rec.Body)
		}
	}
	write("1") // taken by the only worker, which waits for the receiver
	<-rc.arrived
	write("2") // fills the queue
	write("3") // dropped: the queue is full
	if got := n.Stats().Dropped; got != 1 {
		t.Fatalf("Stats().Dropped = %d, want 1", got)
	}
	var drops []string
	for line := range strings.Lines(logs.String()) {
		if strings.Contains(line, "queue is full") {
			drops = append(drops, line)
		}
	}
	if len(drops) != 1 {
		t.Fatalf("the drop is logged %d times, want once; logs:\n%s", len(drops), logs.String())
	}
	for _, want := range []string{"request_id=", "event_id="} {
		if !strings.Contains(drops[0], want) {
			t.Errorf("the drop's log line lacks %s: %s", want, drops[0])
		}
	}
	rc.unblock()
}
