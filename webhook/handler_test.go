package webhook_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/ids"
	"github.com/issuefields/issuefields/webhook"
)

// TestHandlerWrites checks the deliveries of writes through the API's
// handler: one per changed field, field_added with the value before when it
// changed, field_removed for a PUT that leaves a field out and for a
// DELETE, and nothing for a write that changes nothing; and that a
// delivery's ids are those of the API: its value's node_id the values
// list's, its issue's id and node_id the store's issue's.
func TestHandlerWrites(t *testing.T) {
	w := newWorld(t)
	for _, f := range []issuefields.Field{notesField, priorityField} {
		if err := w.data.AddField("octo-org", f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.data.AddIssue("octo-org", "hello-world", 1); err != nil {
		t.Fatal(err)
	}
	rc := newReceiver(t, nil)
	w.addHook(t, orgScope("octo-org"), rc.URL)
	n := newNotifier(t, webhook.Options{Store: w.hooks, Workers: 1})
	h, err := issuefields.New(issuefields.Config{Store: w.data, Verifier: verifier{}, Notifier: n,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	values := "/repos/octo-org/hello-world/issues/1/issue-field-values"
	writes := []struct {
		method, path, body string
	}{
		{"POST", values, `{"issue_field_values":[{"field_id":1,"value":"first"},{"field_id":4,"value":"High"}]}`},
		{"POST", values, `{"issue_field_values":[{"field_id":4,"value":"Medium"}]}`},
		{"PUT", values, `{"issue_field_values":[{"field_id":4,"value":"Medium"}]}`},
		{"PUT", values, `{"issue_field_values":[{"field_id":4,"value":"Medium"}]}`},
		{"DELETE", values + "/4", ""},
	}
	listed := map[float64]string{} // the values list's node_ids, by field
	for _, wr := range writes {
		req, err := http.NewRequest(wr.method, srv.URL+wr.path, strings.NewReader(wr.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer admin")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %s", wr.method, wr.path, resp.StatusCode, answer)
		}
		var items []struct {
			FieldID float64 `json:"issue_field_id"`
			NodeID  string  `json:"node_id"`
		}
		if wr.method != "DELETE" {
			if err := json.Unmarshal(answer, &items); err != nil {
				t.Fatalf("%s %s: %v", wr.method, wr.path, err)
			}
		}
		for _, it := range items {
			listed[it.FieldID] = it.NodeID
		}
	}
	snap, err := w.data.Snapshot(t.Context(), "octo-org", "hello-world", 1)
	if err != nil {
		t.Fatal(err)
	}
	closeNotifier(t, n)

	var got []string
	for _, r := range rc.received() {
		body := r.payload(t)
		line := fmt.Sprintf("%v %v %v", body["action"], member(body, "issue_field", "name"), shownValue(body["issue_field_value"]))
		if from := member(body, "changes", "issue_field_value", "from"); from != nil {
			line += " from " + shownValue(from)
		}
		got = append(got, line)
		field, _ := member(body, "issue_field", "id").(float64)
		if nodeID := member(body, "issue_field_value", "node_id"); nodeID != listed[field] || listed[field] == "" {
			t.Errorf("%s: issue_field_value.node_id %v, want the values list's %q", line, nodeID, listed[field])
		}
		if id, nodeID := member(body, "issue", "id"), member(body, "issue", "node_id"); id != float64(snap.Issue.ID) || nodeID != ids.Issue(snap.Issue.ID) {
			t.Errorf("%s: issue id %v and node_id %v, want the store's issue %d's", line, id, nodeID, snap.Issue.ID)
		}
	}
	want := []string{
		"field_added Notes first",
		"field_added Priority High",
		"field_added Priority Medium from High",
		"field_removed Notes first",
		"field_removed Priority Medium",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the deliveries (-want +got):\n%s", diff)
	}
}

// shownValue returns a value of a delivery in brief: its value, or the name
// of its option.
func shownValue(v any) string {
	if name := member(v, "option", "name"); name != nil {
		return fmt.Sprint(name)
	}
	return fmt.Sprint(member(v, "value"))
}
