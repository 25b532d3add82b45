package metrics

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/issuefields/issuefields/memstore"
	"github.com/issuefields/issuefields/webhook"
)

// valuesRoute is the route label of the list and the writes of an issue's
// values.
const valuesRoute = "/repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"

// requestBound bounds each request of the tests.
const requestBound = 10 * time.Second

// newHooks returns a notifier over an empty store, closed when the test
// ends.
func newHooks(t *testing.T) *webhook.Notifier {
	t.Helper()
	hooks, err := webhook.New(webhook.Options{Store: memstore.New().Hooks()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), requestBound)
		defer cancel()
		hooks.Close(ctx)
	})
	return hooks
}

// newTestMetrics returns Metrics of an API mounted at prefix, with the
// deliveries of newHooks, and the URL of their debug listener, which is
// closed when the test ends.
func newTestMetrics(t *testing.T, prefix string) (*Metrics, string) {
	t.Helper()
	m := New(prefix, newHooks(t))
	url, closeFn, err := Serve("127.0.0.1:0", m, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeFn)
	return m, url
}

// get answers a GET of url, and returns its status, Content-Type and body.
func get(t *testing.T, url string) (status int, contentType, body string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), requestBound)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// serveCounted serves a request of method and path with h, counted by m.
func serveCounted(m *Metrics, h http.Handler, method, path string) {
	m.Count(h).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(method, path, nil))
}

// scrape returns the metrics at /metrics of the debug listener at url, by
// name.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	status, contentType, body := get(t, url+"/metrics")
	if status != http.StatusOK || !strings.HasPrefix(contentType, "text/plain") {
		t.Fatalf("GET /metrics = %d %s, want 200 and Prometheus's text format", status, contentType)
	}
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v\n%s", err, body)
	}
	return families
}

// sample returns the value of the sample of the metric name whose labels
// include labels, given as name and value pairs: a counter's or a gauge's
// value, or a histogram's count. It returns 0 when there is none.
func sample(families map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	for _, m := range families[name].GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		matches := true
		for i := 0; i < len(labels); i += 2 {
			matches = matches && have[labels[i]] == labels[i+1]
		}
		if matches {
			return m.GetCounter().GetValue() + m.GetGauge().GetValue() + float64(m.GetHistogram().GetSampleCount())
		}
	}
	return 0
}

// TestCountNamesRequestsByRoute checks that requests count under their
// route, without the mount prefix or the path's own names, with their
// status and duration: the API's routes below the prefix, the issue
// routes, the hooks' routes, the health checks and the tools; any other path
// is "other".
func TestCountNamesRequestsByRoute(t *testing.T) {
	m, url := newTestMetrics(t, "/api/v3")
	for _, r := range []struct {
		method, path string
		status       int
		route        string
	}{
		{http.MethodGet, "/api/v3/repos/octo-org/hello-world/issues/3/issue-field-values", http.StatusOK, valuesRoute},
		{http.MethodPost, "/api/v3/repos/octo-org/hello-world/issues/3/issue-field-values", http.StatusOK, valuesRoute},
		{http.MethodDelete, "/api/v3/repos/octo-org/hello-world/issues/3/issue-field-values/2", http.StatusNoContent, valuesRoute + "/{issue_field_id}"},
		{http.MethodGet, "/api/v3/orgs/octo-org/issue-fields", http.StatusOK, "/orgs/{org}/issue-fields"},
		{http.MethodPost, "/api/v3/orgs/octo-org/hooks/1/deliveries/2/attempts", http.StatusAccepted, "/orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}/attempts"},
		{http.MethodGet, "/api/v3/repos/octo-org/hello-world/hooks", http.StatusOK, "/repos/{owner}/{repo}/hooks"},
		{http.MethodPatch, "/api/v3/repos/octo-org/hello-world/issues/3", http.StatusOK, "/repos/{owner}/{repo}/issues/{issue_number}"},
		{http.MethodGet, "/api/v3/search/issues", http.StatusOK, "/search/issues"},
		{http.MethodGet, "/healthz", http.StatusOK, "/healthz"},
		{http.MethodGet, "/_issuefields/requests", http.StatusOK, "/_issuefields/"},
		{http.MethodGet, "/repos/octo-org/hello-world/issues/3/issue-field-values", http.StatusNotFound, "other"},
		{http.MethodGet, "/api/v3/repos/octo-org/hello-world/issues/3/nope", http.StatusNotFound, "other"},
	} {
		serveCounted(m, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(r.status)
		}), r.method, r.path)
	}

	f := scrape(t, url)
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"issuefields_requests_total", []string{"route", valuesRoute, "status", "200"}, 2},
		{"issuefields_requests_total", []string{"route", valuesRoute + "/{issue_field_id}", "status", "204"}, 1},
		{"issuefields_requests_total", []string{"route", "/orgs/{org}/issue-fields", "status", "200"}, 1},
		{"issuefields_requests_total", []string{"route", "/orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}/attempts", "status", "202"}, 1},
		{"issuefields_requests_total", []string{"route", "/repos/{owner}/{repo}/hooks", "status", "200"}, 1},
		{"issuefields_requests_total", []string{"route", "/repos/{owner}/{repo}/issues/{issue_number}", "status", "200"}, 1},
		{"issuefields_requests_total", []string{"route", "/search/issues", "status", "200"}, 1},
		{"issuefields_requests_total", []string{"route", "/healthz", "status", "200"}, 1},
		{"issuefields_requests_total", []string{"route", "/_issuefields/", "status", "200"}, 1},
		{"issuefields_requests_total", []string{"route", "other", "status", "404"}, 2},
		{"issuefields_request_duration_seconds", []string{"route", valuesRoute}, 2},
		{"issuefields_requests_in_flight", nil, 0},
		{"issuefields_write_limit_refusals_total", nil, 0},
		{"issuefields_server_errors_total", nil, 0},
	} {
		if got := sample(f, c.name, c.labels...); got != c.want {
			t.Errorf("%s%q = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	for _, family := range f {
		for _, metric := range family.GetMetric() {
			for _, l := range metric.GetLabel() {
				if strings.Contains(l.GetValue(), "octo-org") || strings.Contains(l.GetValue(), "/api/v3") {
					t.Errorf("%s has the label %s=%q, which names a path rather than its route", family.GetName(), l.GetName(), l.GetValue())
				}
			}
		}
	}
}

// TestCountRefusalsAndServerErrors checks that a 422 with Retry-After
// counts as a refusal of the write limit and a 500 or a 503 as a server
// error, and that an answer without a status written counts as a 200.
func TestCountRefusalsAndServerErrors(t *testing.T) {
	m, url := newTestMetrics(t, "")
	for _, h := range []http.HandlerFunc{
		func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Retry-After", "60")
			w.WriteHeader(http.StatusUnprocessableEntity)
		},
		func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusUnprocessableEntity) },
		func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) },
		func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) },
		func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "[]") },
	} {
		serveCounted(m, h, http.MethodPost, "/repos/octo-org/hello-world/issues/3/issue-field-values")
	}
	f := scrape(t, url)
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"issuefields_write_limit_refusals_total", nil, 1},
		{"issuefields_server_errors_total", nil, 2},
		{"issuefields_requests_total", []string{"route", valuesRoute, "status", "422"}, 2},
		{"issuefields_requests_total", []string{"route", valuesRoute, "status", "500"}, 1},
		{"issuefields_requests_total", []string{"route", valuesRoute, "status", "503"}, 1},
		{"issuefields_requests_total", []string{"route", valuesRoute, "status", "200"}, 1},
	} {
		if got := sample(f, c.name, c.labels...); got != c.want {
			t.Errorf("%s%q = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
}

// inFlightWhileServed serves a GET of path, counted by m, and returns the
// requests in flight that the debug listener at url shows while it is
// served.
func inFlightWhileServed(t *testing.T, m *Metrics, url, path string) float64 {
	t.Helper()
	var during float64
	serveCounted(m, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		during = sample(scrape(t, url), "issuefields_requests_in_flight")
	}), http.MethodGet, path)
	return during
}

// TestCountRequestsInFlight checks that a request counts in flight while it
// is served.
func TestCountRequestsInFlight(t *testing.T) {
	m, url := newTestMetrics(t, "")
	if during := inFlightWhileServed(t, m, url, "/healthz"); during != 1 {
		t.Errorf("issuefields_requests_in_flight while a request is served = %v, want 1", during)
	}
	if after := sample(scrape(t, url), "issuefields_requests_in_flight"); after != 0 {
		t.Errorf("issuefields_requests_in_flight once it is answered = %v, want 0", after)
	}
}

// TestCountLeavesOutTheEventStream checks that the page's event stream,
// which stays open as long as the page, is neither in flight while it is
// open nor counted or timed once it ends, while the tools' other routes are.
func TestCountLeavesOutTheEventStream(t *testing.T) {
	m, url := newTestMetrics(t, "")
	if during := inFlightWhileServed(t, m, url, "/_issuefields/events"); during != 0 {
		t.Errorf("issuefields_requests_in_flight while an event stream is open = %v, want 0", during)
	}
	serveCounted(m, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), http.MethodGet, "/_issuefields/requests")
	f := scrape(t, url)
	for _, name := range []string{"issuefields_requests_total", "issuefields_request_duration_seconds"} {
		if got := sample(f, name, "route", "/_issuefields/"); got != 1 {
			t.Errorf("%s{route=\"/_issuefields/\"} = %v, want 1: GET /_issuefields/requests and not the event stream", name, got)
		}
	}
}

// TestMetricsShowDeliveriesAndTheRuntime checks that the metrics include
// the webhook deliveries by outcome and the queue, none yet, and the Go
// runtime's.
func TestMetricsShowDeliveriesAndTheRuntime(t *testing.T) {
	_, url := newTestMetrics(t, "")
	f := scrape(t, url)
	for _, outcome := range []string{"delivered", "failed", "dropped", "abandoned"} {
		if len(f["issuefields_webhook_deliveries_total"].GetMetric()) != 4 || sample(f, "issuefields_webhook_deliveries_total", "outcome", outcome) != 0 {
			t.Errorf("issuefields_webhook_deliveries_total = %v, want 0 for each of delivered, failed, dropped and abandoned", f["issuefields_webhook_deliveries_total"])
		}
	}
	for _, name := range []string{"go_goroutines", "issuefields_webhook_queued"} {
		if f[name] == nil {
			t.Errorf("/metrics lacks %s", name)
		}
	}
}
