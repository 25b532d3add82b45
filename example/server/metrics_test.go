package server

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
)

// valuesRoute is the route label of the list and the writes of an issue's
// values.
const valuesRoute = "/repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"

// scrape returns the metrics at /metrics of the debug listener of s, in
// Prometheus's text format.
func scrape(t *testing.T, s *running) string {
	t.Helper()
	url, err := debugURL(s)
	if err != nil {
		t.Fatalf("%v:\n%s", err, strings.Join(s.message, "\n"))
	}
	a := send(t, http.MethodGet, url+"/metrics", "", "")
	if a.status != http.StatusOK || !strings.HasPrefix(a.header.Get("Content-Type"), "text/plain") {
		t.Fatalf("GET /metrics = %d %s, want 200 and Prometheus's text format", a.status, a.header.Get("Content-Type"))
	}
	return a.body
}

// sample returns the value of series, such as
// issuefields_requests_total{route="/healthz",status="200"}, in metrics,
// Prometheus's text format, or "" when metrics have no sample of it.
func sample(metrics, series string) string {
	for line := range strings.Lines(metrics) {
		if v, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), series+" "); ok {
			return v
		}
	}
	return ""
}

// scrapeUntil scrapes s's metrics until each series of want has its value,
// or deliveryBound has passed, and returns the values of those series in the
// last scrape. A request is counted when its handler returns, which for an
// answer given before the body was read to its end (a refused write) is after
// the client has the answer; a delivery is counted when it ends.
func scrapeUntil(t *testing.T, s *running, want map[string]string) map[string]string {
	t.Helper()
	got := map[string]string{}
	for deadline := time.Now().Add(deliveryBound); ; time.Sleep(10 * time.Millisecond) {
		m := scrape(t, s)
		for series := range want {
			got[series] = sample(m, series)
		}
		if maps.Equal(got, want) || time.Now().After(deadline) {
			return got
		}
	}
}

// TestMetricsCountRequestsByRoute checks that -debug-addr counts the API's
// requests under their route, without the -prefix, with their status and
// duration.
func TestMetricsCountRequestsByRoute(t *testing.T) {
	s := startServer(t, "-debug-addr", "127.0.0.1:0", "-prefix", "/api/v3")
	values := s.base + "repos/octo-org/hello-world/issues/3/issue-field-values"
	if status, body := do(t, http.MethodGet, values, "demo-reader-token", ""); status != http.StatusOK {
		t.Fatalf("GET = %d %s", status, body)
	}
	if status, body := do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": [{"field_id": 2, "value": 1}]}`); status != http.StatusOK {
		t.Fatalf("POST = %d %s", status, body)
	}
	do(t, http.MethodGet, s.base+"repos/octo-org/hello-world/issues/3/nope", "demo-reader-token", "")

	m := scrape(t, s)
	for series, want := range map[string]string{
		`issuefields_requests_total{route="` + valuesRoute + `",status="200"}`:    "2",
		`issuefields_requests_total{route="other",status="404"}`:                  "1",
		`issuefields_request_duration_seconds_count{route="` + valuesRoute + `"}`: "2",
		`issuefields_requests_in_flight`:                                          "0",
	} {
		if got := sample(m, series); got != want {
			t.Errorf("%s = %q, want %s", series, got, want)
		}
	}
}

// TestMetricsCountWriteLimitRefusals checks that a write over -write-limit
// counts as a refusal.
func TestMetricsCountWriteLimitRefusals(t *testing.T) {
	s := startServer(t, "-debug-addr", "127.0.0.1:0", "-write-limit", "1")
	values := s.base + "repos/octo-org/hello-world/issues/3/issue-field-values"
	for _, want := range []int{http.StatusOK, http.StatusUnprocessableEntity} {
		if status, body := do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": [{"field_id": 2, "value": 1}]}`); status != want {
			t.Fatalf("POST = %d %s, want %d", status, body, want)
		}
	}
	want := map[string]string{
		"issuefields_write_limit_refusals_total":                               "1",
		`issuefields_requests_total{route="` + valuesRoute + `",status="422"}`: "1",
	}
	if got := scrapeUntil(t, s, want); !maps.Equal(got, want) {
		t.Errorf("metrics = %v, want %v", got, want)
	}
}

// TestMetricsCountWebhookDeliveries checks that a delivery to a receiver
// counts as delivered, and one to a closed port as failed.
func TestMetricsCountWebhookDeliveries(t *testing.T) {
	receiver, _ := startReceiver(t)
	outcomes := []string{"delivered", "failed", "dropped", "abandoned"}
	for _, tc := range []struct{ url, outcome string }{
		{receiver, "delivered"},
		{"http://127.0.0.1:1/hook", "failed"},
	} {
		s := startServer(t, "-debug-addr", "127.0.0.1:0", "-webhook", tc.url, "-webhook-secret", "s")
		values := s.base + "repos/octo-org/hello-world/issues/3/issue-field-values"
		if status, body := do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": [{"field_id": 2, "value": 1}]}`); status != http.StatusOK {
			t.Fatalf("POST = %d %s", status, body)
		}
		want := map[string]string{}
		for _, outcome := range outcomes {
			want[`issuefields_webhook_deliveries_total{outcome="`+outcome+`"}`] = "0"
		}
		want[`issuefields_webhook_deliveries_total{outcome="`+tc.outcome+`"}`] = "1"
		if got := scrapeUntil(t, s, want); !maps.Equal(got, want) {
			t.Errorf("to %s: issuefields_webhook_deliveries_total = %v, want %v", tc.url, got, want)
		}
	}
}

// downStore is a store whose reads of an issue fail, once down is set, as
// a database that is down makes them fail.
type downStore struct {
	*fakeStore
	down atomic.Bool
}

func (s *downStore) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	if s.down.Load() {
		return issuefields.Snapshot{}, fmt.Errorf("the database is down: %w", issuefields.ErrUnavailable)
	}
	return s.fakeStore.Snapshot(ctx, owner, name, number)
}

// TestMetricsCountServerErrors checks that a request that fails because the
// store is unavailable counts as a server error.
func TestMetricsCountServerErrors(t *testing.T) {
	store := &downStore{fakeStore: newFakeStore(true)}
	s := startCommand(t, Command{Open: func(context.Context, *slog.Logger) (Store, func(), error) {
		return served(store), func() {}, nil
	}}, "-debug-addr", "127.0.0.1:0")
	store.down.Store(true)
	values := s.base + "repos/octo-org/hello-world/issues/3/issue-field-values"
	if status, body := do(t, http.MethodGet, values, "demo-reader-token", ""); status != http.StatusServiceUnavailable {
		t.Fatalf("GET from an unavailable store = %d %s, want 503", status, body)
	}
	m := scrape(t, s)
	if got := sample(m, "issuefields_server_errors_total"); got != "1" {
		t.Errorf("issuefields_server_errors_total = %q, want 1", got)
	}
	if got := sample(m, `issuefields_requests_total{route="`+valuesRoute+`",status="503"}`); got != "1" {
		t.Errorf("issuefields_requests_total of the 503 = %q, want 1", got)
	}
}
