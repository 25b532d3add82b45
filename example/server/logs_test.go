package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestJSONLogs runs the server with -log-format json and checks that every
// line of its log is a JSON object, and that each request has one line with
// its request id, method, route, status, duration and principal's login,
// and no token.
func TestJSONLogs(t *testing.T) {
	s := startServer(t, "-log-format", "json")
	const values = "/repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"
	requests := []struct {
		method, path, token string
		status              int
		route, login        string
	}{
		{"GET", "repos/octo-org/hello-world/issues/1/issue-field-values", "demo-reader-token", http.StatusOK, values, "reader"},
		{"POST", "repos/octo-org/hello-world/issues/3/issue-field-values", "demo-writer-token", http.StatusUnprocessableEntity, values, "octocat"},
		{"DELETE", "repos/octo-org/roadmap/issues/1/issue-field-values/1", "demo-outsider-token", http.StatusNotFound, values + "/{issue_field_id}", "outsider"},
		{"GET", "repos/octo-org/hello-world/issues/1/issue-field-values", "demo-expired-token", http.StatusUnauthorized, values, ""},
		{"GET", "no/such/path", "demo-writer-token", http.StatusNotFound, "/", ""},
	}
	ids := make(map[string]int) // request id → index in requests
	for i, r := range requests {
		req, err := http.NewRequest(r.method, s.base+r.path, strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+r.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != r.status {
			t.Errorf("%s %s = %d, want %d", r.method, r.path, resp.StatusCode, r.status)
		}
		ids[resp.Header.Get("X-Service-Request-Id")] = i
	}
	if err := s.stop(); err != nil {
		t.Fatalf("graceful stop: %v", err)
	}

	logs := s.logs.String()
	logged := make(map[int]bool)
	for _, line := range strings.Split(strings.TrimSuffix(logs, "\n"), "\n") {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Errorf("a log line is not a JSON object: %v\n%s", err, line)
			continue
		}
		if entry["msg"] != "request" {
			continue
		}
		id, _ := entry["request_id"].(string)
		i, ok := ids[id]
		if !ok {
			t.Errorf("a request line with an unknown request_id: %s", line)
			continue
		}
		if logged[i] {
			t.Errorf("request %d has two log lines; the second: %s", i, line)
		}
		logged[i] = true
		r := requests[i]
		_, hasDuration := entry["duration"].(float64)
		if entry["method"] != r.method || entry["route"] != r.route || entry["status"] != float64(r.status) || entry["login"] != r.login || !hasDuration {
			t.Errorf("log line of %s %s with %s:\n%s\nwant method %s, route %q, status %d, login %q and a duration",
				r.method, r.path, r.token, line, r.method, r.route, r.status, r.login)
		}
	}
	if len(logged) != len(requests) {
		t.Errorf("%d of %d requests have a log line:\n%s", len(logged), len(requests), logs)
	}
	for _, r := range requests {
		if strings.Contains(logs, r.token) {
			t.Errorf("the log shows the token %s:\n%s", r.token, logs)
		}
	}
}
