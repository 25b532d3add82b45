package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// get makes a GET request with token, and the If-None-Match header etag
// unless it is "", and returns the response's status, body and ETag.
func get(t *testing.T, url, token, etag string) (status int, body, tag string) {
	t.Helper()
	header := make(http.Header)
	if etag != "" {
		header.Set("If-None-Match", etag)
	}
	status, body, header = exchange(t, http.MethodGet, url, token, "", header)
	return status, body, header.Get("ETag")
}

// hookIDs returns the IDs of the hooks of octo-org that r lists, and the
// URL that each delivers to.
func hookIDs(t *testing.T, r *running) map[int64]string {
	t.Helper()
	status, body := do(t, http.MethodGet, r.base+"orgs/octo-org/hooks", "demo-writer-token", "")
	var hooks []struct {
		ID     int64 `json:"id"`
		Config struct {
			URL string `json:"url"`
		} `json:"config"`
	}
	if err := json.Unmarshal([]byte(body), &hooks); status != http.StatusOK || err != nil {
		t.Fatalf("GET orgs/octo-org/hooks = %d %s", status, body)
	}
	ids := make(map[int64]string)
	for _, h := range hooks {
		ids[h.ID] = h.Config.URL
	}
	return ids
}

// TestResetAcrossServers starts three servers on one database, the first
// without -allow-reset, and writes through the first: its reset is refused
// with 501, naming the flag. Resets through the other two at once then
// leave the demo data loaded once, which every server serves, with one
// -webhook hook, under a new ID; no ETag from before the reset matches
// after it, and a write through the first server after it is seen by the
// others.
func TestResetAcrossServers(t *testing.T) {
	dsn := newDatabase(t)
	const hookURL = "http://127.0.0.1:1/hook"
	args := []string{"-postgres", dsn, "-webhook", hookURL, "-webhook-secret", "s"}
	servers := []*running{start(t, args...), start(t, append(args, "-allow-reset")...), start(t, append(args, "-allow-reset")...)}
	hello1 := func(r *running) string { return valuesURL(r, "octo-org/hello-world", 1) }

	status, loaded, etag := get(t, hello1(servers[0]), "demo-reader-token", "")
	if status != http.StatusOK || etag == "" {
		t.Fatalf("GET octo-org/hello-world#1 = %d %s with ETag %q", status, loaded, etag)
	}
	etags := []string{etag}
	for i, r := range servers[1:] {
		if _, _, tag := get(t, hello1(r), "demo-reader-token", ""); tag != etag {
			t.Errorf("server %d gives the ETag %s, server 1 %s", i+2, tag, etag)
		}
	}
	write := `{"issue_field_values": [{"field_id": 4, "value": "Written before the reset"}]}`
	if status, body := do(t, http.MethodPost, hello1(servers[0]), "demo-writer-token", write); status != http.StatusOK {
		t.Fatalf("POST octo-org/hello-world#1 = %d %s", status, body)
	}
	_, _, etag = get(t, hello1(servers[0]), "demo-reader-token", "")
	etags = append(etags, etag)
	status, body := do(t, http.MethodPost, servers[0].base+"orgs/octo-org/hooks", "demo-writer-token",
		`{"name": "web", "events": ["issues"], "config": {"url": "http://127.0.0.1:1/other", "content_type": "json"}}`)
	if status != http.StatusCreated {
		t.Fatalf("POST orgs/octo-org/hooks = %d %s", status, body)
	}
	before := hookIDs(t, servers[0])
	if len(before) != 2 {
		t.Fatalf("before the reset, octo-org has the hooks %v, want the -webhook one and another", before)
	}

	status, body = do(t, http.MethodPost, servers[0].base+"_issuefields/reset", "", "")
	if status != http.StatusNotImplemented || !strings.Contains(body, "-allow-reset") {
		t.Errorf("POST /_issuefields/reset to a server without -allow-reset = %d %s, want 501 naming the flag", status, body)
	}
	if _, body, _ := get(t, hello1(servers[1]), "demo-reader-token", ""); !strings.Contains(body, "Written before the reset") {
		t.Errorf("after a refused reset, GET octo-org/hello-world#1 = %s, want the write kept", body)
	}

	var wg sync.WaitGroup
	for _, r := range servers[1:] {
		wg.Go(func() {
			if status, body := do(t, http.MethodPost, r.base+"_issuefields/reset", "", ""); status != http.StatusNoContent {
				t.Errorf("POST /_issuefields/reset = %d %s, want 204", status, body)
			}
		})
	}
	wg.Wait()

	for i, r := range servers {
		if status, body, _ := get(t, hello1(r), "demo-reader-token", ""); status != http.StatusOK || body != loaded {
			t.Errorf("server %d: after the resets, GET octo-org/hello-world#1 = %d %s, want the demo data's %s", i+1, status, body, loaded)
		}
		for _, etag := range etags {
			if status, _, _ := get(t, hello1(r), "demo-reader-token", etag); status != http.StatusOK {
				t.Errorf("server %d: after the resets, GET with If-None-Match %s from before them = %d, want 200", i+1, etag, status)
			}
		}
		after := hookIDs(t, r)
		if len(after) != 1 {
			t.Errorf("server %d: after the resets, octo-org has the hooks %v, want the -webhook one alone", i+1, after)
		}
		for id, url := range after {
			if _, old := before[id]; old || url != hookURL {
				t.Errorf("server %d: after the resets, octo-org has hook %d to %s, want a new ID (not one of %v) to %s", i+1, id, url, before, hookURL)
			}
		}
	}

	write = `{"issue_field_values": [{"field_id": 4, "value": "Written after the reset"}]}`
	if status, body := do(t, http.MethodPost, hello1(servers[0]), "demo-writer-token", write); status != http.StatusOK {
		t.Fatalf("POST octo-org/hello-world#1 after the resets = %d %s", status, body)
	}
	for i, r := range servers {
		if _, body, _ := get(t, hello1(r), "demo-reader-token", ""); !strings.Contains(body, "Written after the reset") || strings.Count(body, `"issue_field_id"`) != 5 {
			t.Errorf("server %d: GET octo-org/hello-world#1 after a write = %s, want the demo data's five values with the write", i+1, body)
		}
	}
}
