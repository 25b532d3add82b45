package main

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestServersShareIssues changes an issue through one server's PATCH and
// reads it through another's GET: the title and the values are the other
// server's, with the same ETag, and an If-Match from before the change
// fails there too; creates through the two servers get consecutive numbers.
func TestServersShareIssues(t *testing.T) {
	dsn := newDatabase(t)
	a := start(t, "-postgres", dsn)
	b := start(t, "-postgres", dsn)
	issue := "repos/octo-org/hello-world/issues/1"
	_, _, before := exchange(t, http.MethodGet, b.base+issue, "demo-reader-token", "", nil)
	status, body, patched := exchange(t, http.MethodPatch, a.base+issue, "demo-writer-token",
		`{"title": "Changed on one server", "issue_field_values": [{"field_id": 4, "value": "Seen on the other"}]}`, nil)
	if status != http.StatusOK {
		t.Fatalf("PATCH through the first server = %d %s, want 200", status, body)
	}
	status, body, got := exchange(t, http.MethodGet, b.base+issue, "demo-reader-token", "", nil)
	var read struct {
		Title       string `json:"title"`
		FieldValues []struct {
			ID    int64 `json:"issue_field_id"`
			Value any   `json:"value"`
		} `json:"issue_field_values"`
	}
	if err := json.Unmarshal([]byte(body), &read); err != nil || status != http.StatusOK {
		t.Fatalf("GET through the second server = %d %s", status, body)
	}
	if read.Title != "Changed on one server" || len(read.FieldValues) != 1 || read.FieldValues[0].Value != "Seen on the other" {
		t.Errorf("the second server shows %+v; want the first server's title and values", read)
	}
	if got.Get("ETag") != patched.Get("ETag") || got.Get("ETag") == before.Get("ETag") {
		t.Errorf("ETags: before %q, PATCH %q, other server %q; want the PATCH's on the other server",
			before.Get("ETag"), patched.Get("ETag"), got.Get("ETag"))
	}
	status, body, _ = exchange(t, http.MethodPatch, b.base+issue, "demo-writer-token", `{"title": "Stale"}`,
		http.Header{"If-Match": {before.Get("ETag")}})
	if status != http.StatusPreconditionFailed {
		t.Errorf("PATCH through the second server with the ETag from before = %d %s, want 412", status, body)
	}

	var numbers []int64
	for _, r := range []*running{a, b, a} {
		status, body := do(t, http.MethodPost, r.base+"repos/octo-org/hello-world/issues", "demo-writer-token", `{"title": "New"}`)
		if status != http.StatusCreated {
			t.Fatalf("POST = %d %s, want 201", status, body)
		}
		var created struct{ Number int64 }
		if err := json.Unmarshal([]byte(body), &created); err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, created.Number)
	}
	if n := numbers[0]; n < 1 || numbers[1] != n+1 || numbers[2] != n+2 {
		t.Errorf("creates through the two servers got numbers %v; want consecutive ones", numbers)
	}
}
