package issuefields_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/issuefields/issuefields"
)

// lineHandler is a slog.Handler and RequestLogHandler that keeps what it is
// given.
type lineHandler struct {
	slog.Handler
	mu       sync.Mutex
	lines    []issuefields.RequestLine
	messages []string
}

func (h *lineHandler) Handle(ctx context.Context, r slog.Record) error {
	h.mu.Lock()
	h.messages = append(h.messages, r.Message)
	h.mu.Unlock()
	return h.Handler.Handle(ctx, r)
}

func (h *lineHandler) LogRequest(_ context.Context, line issuefields.RequestLine) error {
	h.mu.Lock()
	h.lines = append(h.lines, line)
	h.mu.Unlock()
	return nil
}

// TestRequestLogHandlerGetsTheLine checks that a logger's handler that is a
// RequestLogHandler gets each request's line through LogRequest, with what
// the answer and the caller were, and no record of it through Handle.
func TestRequestLogHandlerGetsTheLine(t *testing.T) {
	lh := &lineHandler{Handler: slog.NewTextHandler(new(bytes.Buffer), nil)}
	h := newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t), Logger: slog.New(lh)})
	req := httptest.NewRequest("GET", valuesPath(org, publicRepo, 1), nil)
	req.Header.Set("Authorization", "Bearer "+readerToken)
	before := time.Now()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)

	want := []issuefields.RequestLine{{ID: w.Header().Get("X-Service-Request-Id"), Method: "GET",
		Route: "GET /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values", Status: w.Code, Login: "reader"}}
	if diff := cmp.Diff(want, lh.lines, cmpopts.IgnoreFields(issuefields.RequestLine{}, "Time", "Duration")); diff != "" {
		t.Errorf("lines given to LogRequest (-want +got):\n%s", diff)
	}
	if len(lh.lines) == 1 {
		if l := lh.lines[0]; l.Time.Before(before) || l.Time.After(time.Now()) || l.Duration < 0 || l.Duration > time.Since(before) {
			t.Errorf("line's time %v and duration %v, want within the request (begun %v)", l.Time, l.Duration, before)
		}
	}
	if len(lh.messages) != 0 {
		t.Errorf("Handle was given %q too, want nothing", lh.messages)
	}
}

// TestRequestLineRecord checks the record that a logger's handler without
// LogRequest gets: its level, message, time and the six attributes, in order.
func TestRequestLineRecord(t *testing.T) {
	at := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	r := issuefields.RequestLine{Time: at, ID: "ID-1", Method: "HEAD", Route: "GET /x", Status: 404,
		Duration: 83 * time.Microsecond, Login: "octocat"}.Record()
	var got []string
	r.Attrs(func(a slog.Attr) bool {
		got = append(got, a.String())
		return true
	})
	want := []string{"request_id=ID-1", "method=HEAD", "route=GET /x", "status=404", "duration=83µs", "login=octocat"}
	if r.Level != slog.LevelInfo || r.Message != "request" || !r.Time.Equal(at) || !cmp.Equal(got, want) {
		t.Errorf("record: level %v, message %q, time %v, attributes %q; want INFO, request, %v, %q", r.Level, r.Message, r.Time, got, at, want)
	}
}
