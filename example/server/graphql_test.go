package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestGraphQLBesideTheAPI checks that GitHub Enterprise Server's
// /api/graphql, beside the API at /api/v3, is the API's POST /graphql, with
// what every API route gets: CORS, nosniff, the request id, the journal
// (with the operation name and the query) and the metrics.
func TestGraphQLBesideTheAPI(t *testing.T) {
	s := startServer(t, "-prefix", "/api/v3", "-debug-addr", "127.0.0.1:0")
	o := origin(s.base)
	const body = `{"operationName":"Who","query":"query Who { viewer { login } }"}`
	for _, url := range []string{o + "/api/graphql", s.base + "graphql"} {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer demo-reader-token")
		req.Header.Set("Origin", "http://app.example")
		req.Header.Set("GraphQL-Features", "issue_fields")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
			resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("X-Service-Request-Id") == "" {
			t.Errorf("POST %s: %d %v, headers %v", url, resp.StatusCode, got, resp.Header)
		}
		if data, _ := got["data"].(map[string]any); data == nil || data["viewer"].(map[string]any)["login"] != "reader" {
			t.Errorf("POST %s: %v", url, got)
		}
	}
	if a := send(t, http.MethodPost, o+"/api/graphql", "", body); a.status != http.StatusUnauthorized {
		t.Errorf("without a token: %d %s", a.status, a.body)
	}
	if a := preflight(t, o+"/api/graphql"); a.status != http.StatusNoContent || a.header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("a preflight: %d %v", a.status, a.header)
	}

	journal := send(t, http.MethodGet, o+"/_issuefields/requests", "", "")
	var records []struct {
		Path    string
		Status  int
		GraphQL *struct {
			OperationName string `json:"operation_name"`
			Query         string
		}
	}
	if err := json.Unmarshal([]byte(journal.body), &records); err != nil {
		t.Fatalf("%v: %s", err, journal.body)
	}
	var paths []string
	for _, r := range records {
		if r.Status != http.StatusOK {
			// The 401, refused before its body was read, is recorded
			// once it is read to its end, after the client has its
			// answer.
			continue
		}
		paths = append(paths, r.Path)
		if r.GraphQL == nil || r.GraphQL.OperationName != "Who" || r.GraphQL.Query != "query Who { viewer { login } }" {
			t.Errorf("the record of %s: %+v", r.Path, r.GraphQL)
		}
	}
	if strings.Join(paths, " ") != "/api/v3/graphql /api/graphql" {
		t.Errorf("recorded paths %v, want the two answered requests, newest first, as sent", paths)
	}
	scrapeUntil(t, s, map[string]string{
		`issuefields_requests_total{route="/graphql",status="200"}`: "2",
		`issuefields_requests_total{route="/graphql",status="401"}`: "1",
	})
}

// TestGraphQLAtTheRoot checks that without the Enterprise prefix GraphQL is
// at /graphql alone.
func TestGraphQLAtTheRoot(t *testing.T) {
	s := startServer(t)
	if a := send(t, http.MethodPost, s.base+"graphql", "demo-reader-token", `{"query":"{ viewer { login } }"}`); a.status != http.StatusOK ||
		a.body != `{"data":{"viewer":{"login":"reader"}}}`+"\n" {
		t.Errorf("POST /graphql: %d %s", a.status, a.body)
	}
	if a := send(t, http.MethodPost, s.base+"api/graphql", "demo-reader-token", `{"query":"{ viewer { login } }"}`); a.status != http.StatusNotFound {
		t.Errorf("POST /api/graphql without the prefix: %d, want 404", a.status)
	}
}

// TestGraphQLSpendsItsOwnBudget checks that GraphQL, at /api/graphql and
// under the prefix, counts against the caller's graphql budget, which
// rateLimit reads, and that a spent budget is answered as GitHub answers
// it: 200, an error of type RATE_LIMITED, x-ratelimit-remaining 0.
func TestGraphQLSpendsItsOwnBudget(t *testing.T) {
	s := startServer(t, "-prefix", "/api/v3", "-rate-limit", "3")
	o := origin(s.base)
	const body = `{"query":"{ rateLimit { limit used remaining } }"}`
	first := send(t, http.MethodPost, o+"/api/graphql", "demo-writer-token", body)
	wantBudget(t, "the first query", first, 3, 1, "graphql")
	if want := `{"data":{"rateLimit":{"limit":3,"used":1,"remaining":2}}}`; strings.TrimSpace(first.body) != want {
		t.Errorf("rateLimit: %s, want %s", first.body, want)
	}
	wantBudget(t, "REST beside it", send(t, http.MethodGet, s.base+"repos/octo-org/hello-world/issues/1", "demo-writer-token", ""), 3, 1, "core")
	wantBudget(t, "the second query", send(t, http.MethodPost, s.base+"graphql", "demo-writer-token", body), 3, 2, "graphql")
	send(t, http.MethodPost, o+"/api/graphql", "demo-writer-token", body)
	spent := send(t, http.MethodPost, o+"/api/graphql", "demo-writer-token", body)
	var got struct {
		Data   any
		Errors []struct{ Type, Message string }
	}
	if err := json.Unmarshal([]byte(spent.body), &got); err != nil {
		t.Fatalf("%v: %s", err, spent.body)
	}
	if spent.status != http.StatusOK || len(got.Errors) != 1 || got.Errors[0].Type != "RATE_LIMITED" ||
		!strings.HasPrefix(got.Errors[0].Message, "API rate limit exceeded for user ID ") {
		t.Errorf("a spent budget: %d %s, want 200 and one RATE_LIMITED error", spent.status, spent.body)
	}
	if r := spent.header.Get("x-ratelimit-remaining"); r != "0" || spent.header.Get("x-ratelimit-resource") != "graphql" {
		t.Errorf("a spent budget: x-ratelimit-remaining %q, resource %q", r, spent.header.Get("x-ratelimit-resource"))
	}
}
