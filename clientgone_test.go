package issuefields_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// waitingStore is a memstore whose Snapshot waits until the request's context
// ends, as a store call to a slow database would, and then fails with the
// context's error.
type waitingStore struct {
	*memstore.Store
	waiting chan struct{}
}

func (s *waitingStore) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	close(s.waiting)
	<-ctx.Done()
	return issuefields.Snapshot{}, ctx.Err()
}

// TestClientGoneIsLoggedAs499 checks that a request whose client went away
// while the store worked is logged with status 499, and not as a failure of
// the server.
func TestClientGoneIsLoggedAs499(t *testing.T) {
	var log bytes.Buffer
	s := &waitingStore{Store: newFixtureStore(t), waiting: make(chan struct{})}
	h := newConfiguredHandler(t, issuefields.Config{Store: s, Logger: slog.New(slog.NewJSONHandler(&log, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest("GET", valuesPath(org, publicRepo, 1), nil).WithContext(ctx)
	req.Header.Set("Authorization", "Bearer "+writerToken)
	go func() {
		<-s.waiting
		cancel()
	}()
	h.ServeHTTP(httptest.NewRecorder(), req)

	var statuses []float64
	for line := range strings.SplitSeq(strings.TrimSpace(log.String()), "\n") {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if entry["level"] != "INFO" {
			t.Errorf("log line at level %v, want only the request's line: %s", entry["level"], line)
		}
		if status, ok := entry["status"].(float64); ok {
			statuses = append(statuses, status)
		}
	}
	if len(statuses) != 1 || statuses[0] != 499 {
		t.Errorf("logged statuses %v, want one line with 499:\n%s", statuses, log.String())
	}
}
