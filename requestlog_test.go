package issuefields_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields"
)

// recordHandler is a slog.Handler that keeps the records it is given.
type recordHandler struct {
	mu      sync.Mutex
	records []slog.Record
}

func (h *recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *recordHandler) WithGroup(string) slog.Handler            { return h }

func (h *recordHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.records = append(h.records, r.Clone())
	return nil
}

// TestRequestLogLine checks the line a request is logged with: level Info,
// message "request", and the attributes request_id (the answer's request id),
// method, route, status, duration and login, in that order.
func TestRequestLogLine(t *testing.T) {
	rh := &recordHandler{}
	h := newConfiguredHandler(t, issuefields.Config{Store: newFixtureStore(t), Logger: slog.New(rh)})
	req := httptest.NewRequest("GET", valuesPath(org, publicRepo, 1), nil)
	req.Header.Set("Authorization", "Bearer "+readerToken)
	before := time.Now()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	took := time.Since(before)

	if len(rh.records) != 1 {
		t.Fatalf("the request was logged with %d records, want 1", len(rh.records))
	}
	r := rh.records[0]
	var keys []string
	got := map[string]slog.Value{}
	r.Attrs(func(a slog.Attr) bool {
		keys = append(keys, a.Key)
		got[a.Key] = a.Value
		return true
	})
	if r.Level != slog.LevelInfo || r.Message != "request" {
		t.Errorf("record: level %v, message %q; want INFO, request", r.Level, r.Message)
	}
	if want := []string{"request_id", "method", "route", "status", "duration", "login"}; !cmp.Equal(keys, want) {
		t.Errorf("attributes %q, want %q", keys, want)
	}
	want := map[string]string{
		"request_id": w.Header().Get("X-Service-Request-Id"),
		"method":     "GET",
		"route":      "/repos/{owner}/{repo}/issues/{issue_number}/issue-field-values",
		"status":     "200",
		"login":      "reader",
	}
	for key, value := range want {
		if got[key].String() != value {
			t.Errorf("%s = %q, want %q", key, got[key], value)
		}
	}
	if d := got["duration"].Duration(); d < 0 || d > took {
		t.Errorf("duration %v, want within the request's %v", d, took)
	}
}
