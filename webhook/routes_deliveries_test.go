package webhook_test

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields/webhook"
)

// deliveriesAPI is an api whose organization hook has five deliveries,
// pings that succeeded and failed in turn: ids ok[0] < failed[0] < ok[1] <
// failed[1] < ok[2].
type deliveriesAPI struct {
	*api
	hook       webhook.Hook
	ok, failed []int64
	answers    *receiver // answers 500 on /fail, a long answer on /long, and 200 "ok" otherwise
}

func newDeliveriesAPI(t *testing.T) *deliveriesAPI {
	t.Helper()
	a := &deliveriesAPI{api: newAPI(t)}
	a.answers = newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/fail":
			http.Error(w, "fail", http.StatusInternalServerError)
		case "/long":
			_, _ = io.WriteString(w, strings.Repeat("x", webhook.MaxRecordedBody+1))
		default:
			_, _ = io.WriteString(w, "ok")
		}
	})
	a.hook = a.addHook(t, orgScope("octo-org"), a.answers.URL+"/ok")
	for i := range 5 {
		if i%2 == 0 {
			a.ok = append(a.ok, a.pingTo(t, "/ok"))
		} else {
			a.failed = append(a.failed, a.pingTo(t, "/fail"))
		}
	}
	return a
}

// pingTo points the hook at path of the receiver, pings it, and returns the
// id of the delivery once it is recorded.
func (a *deliveriesAPI) pingTo(t *testing.T, path string) int64 {
	t.Helper()
	h, err := a.hooks.UpdateHook(context.Background(), a.hook.Scope, a.hook.ID, func(h webhook.Hook) (webhook.Hook, error) {
		h.Config.URL = a.answers.URL + path
		return h, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.notifier.Ping(h, nil, "octocat"); err != nil {
		t.Fatal(err)
	}
	return a.hooks.waitRecorded(t, 1)[0].ID
}

var nextLink = regexp.MustCompile(`^<([^>]+)>; rel="next"$`)

// pages lists the deliveries at path, following the Link to each next
// page, and returns the ids of each page.
func (a *deliveriesAPI) pages(t *testing.T, path string) [][]int64 {
	t.Helper()
	var out [][]int64
	for page := 0; path != ""; page++ {
		if page > 10 {
			t.Fatalf("more than 10 pages")
		}
		got := a.mustDo(t, http.StatusOK, "GET", path, "admin", "")
		var items []struct{ ID int64 }
		got.json(t, &items)
		var ids []int64
		for _, d := range items {
			ids = append(ids, d.ID)
		}
		out = append(out, ids)
		path = ""
		if link := got.header.Get("Link"); link != "" {
			m := nextLink.FindStringSubmatch(link)
			if m == nil || !strings.HasPrefix(m[1], apiBase+"/") {
				t.Fatalf("Link %q, want <%s/…>; rel=\"next\"", link, apiBase)
			}
			path = strings.TrimPrefix(m[1], apiBase)
		}
	}
	return out
}

// TestRoutesListDeliveries checks the deliveries list: newest first,
// per_page, the cursor of the Link header, and the status filter.
func TestRoutesListDeliveries(t *testing.T) {
	a := newDeliveriesAPI(t)
	list := orgHooks + "/" + itoa(a.hook.ID) + "/deliveries"
	ok, failed := a.ok, a.failed
	tests := []struct {
		query string
		want  [][]int64
	}{
		{"", [][]int64{{ok[2], failed[1], ok[1], failed[0], ok[0]}}},
		{"?per_page=2", [][]int64{{ok[2], failed[1]}, {ok[1], failed[0]}, {ok[0]}}},
		{"?per_page=5", [][]int64{{ok[2], failed[1], ok[1], failed[0], ok[0]}}},
		{"?status=success", [][]int64{{ok[2], ok[1], ok[0]}}},
		{"?status=failure", [][]int64{{failed[1], failed[0]}}},
		{"?status=success&per_page=2", [][]int64{{ok[2], ok[1]}, {ok[0]}}},
		{"?per_page=1&status=failure", [][]int64{{failed[1]}, {failed[0]}}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, a.pages(t, list+tt.query)); diff != "" {
				t.Errorf("the pages of ids (-want +got):\n%s", diff)
			}
		})
	}
	var failures []map[string]any
	a.mustDo(t, http.StatusOK, "GET", list+"?status=failure", "admin", "").json(t, &failures)
	for _, d := range failures {
		checkMembers(t, d, map[string]any{"status": "Invalid HTTP Response: 500", "status_code": 500.0})
	}
	for _, query := range []string{"?status=bogus", "?cursor=bogus", "?cursor=v1_x"} {
		got := a.do(t, "GET", list+query, "admin", "")
		if got.status != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", query, got.status, got.body)
		}
	}
}

// TestRoutesGetDelivery checks one delivery whole: its request with the
// payload as an object, and its response with the body as a string, cut
// when it was long, or null when no answer came.
func TestRoutesGetDelivery(t *testing.T) {
	a := newDeliveriesAPI(t)
	long := a.pingTo(t, "/long")
	ctx := context.Background()
	unanswered, err := a.hooks.AddDelivery(ctx, webhook.Delivery{HookID: a.hook.ID, GUID: "0b989ba4-242f-11e5-81e1-c7b6966d2516",
		Event: "ping", Status: "failed to connect to host",
		Request: webhook.Message{Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"zen":"Hi"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	cut, err := a.hooks.AddDelivery(ctx, webhook.Delivery{HookID: a.hook.ID, GUID: "1c989ba4-242f-11e5-81e1-c7b6966d2516",
		Event: "issues", Action: "field_added", Status: "OK", StatusCode: 200,
		Request:  webhook.Message{Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"action":"fi`), Truncated: true},
		Response: webhook.Message{Header: http.Header{}, Body: []byte("ok")}})
	if err != nil {
		t.Fatal(err)
	}
	a.hooks.waitRecorded(t, 2)
	marker := "\n[cut: a record keeps 65536 bytes of an answer's body, and 81920 of its headers and body together]"
	tests := []struct {
		name string
		id   int64
		want map[string]any
	}{
		{"a success", a.ok[0], map[string]any{
			"status": "OK", "status_code": 200.0, "event": "ping", "action": nil,
			"url":                             a.answers.URL + "/ok",
			"request.headers.X-Service-Event": "ping",
			"request.headers.Content-Type":    "application/json",
			"request.payload.hook_id":         float64(a.hook.ID),
			"response.payload":                "ok",
		}},
		{"a failure", a.failed[0], map[string]any{
			"status": "Invalid HTTP Response: 500", "status_code": 500.0,
			"url":              a.answers.URL + "/fail",
			"response.payload": "fail\n",
			"response.headers.X-Content-Type-Options": "nosniff",
		}},
		{"a long answer", long, map[string]any{
			"response.payload": strings.Repeat("x", webhook.MaxRecordedBody) + marker,
		}},
		{"no answer", unanswered.ID, map[string]any{
			"status": "failed to connect to host", "status_code": 0.0, "response.payload": nil,
			"request.payload": map[string]any{"zen": "Hi"},
		}},
		{"a cut request", cut.ID, map[string]any{
			"request.payload": nil, "action": "field_added",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := a.mustDo(t, http.StatusOK, "GET", orgHooks+"/"+itoa(a.hook.ID)+"/deliveries/"+itoa(tt.id), "admin", "").object(t)
			checkMembers(t, got, tt.want)
			checkMembers(t, got, map[string]any{"id": float64(tt.id), "redelivery": false,
				"installation_id": nil, "repository_id": nil})
		})
	}

	// A delivery whose payload was cut cannot be sent again as it was.
	got := a.do(t, "POST", orgHooks+"/"+itoa(a.hook.ID)+"/deliveries/"+itoa(cut.ID)+"/attempts", "admin", "")
	if got.status != http.StatusUnprocessableEntity {
		t.Errorf("redelivering a delivery whose payload was cut: %d %s, want 422", got.status, got.body)
	}
}

// TestRoutesRedeliver checks that the redelivery route sends the recorded
// payload, with its GUID, to the hook's current URL signed with its current
// secret, and that the list shows the redelivery first.
func TestRoutesRedeliver(t *testing.T) {
	a := newAPI(t)
	created := a.mustDo(t, http.StatusCreated, "POST", repoHooks, "admin",
		`{"events":["issues"],"config":{"url":"`+a.rc.URL+`","content_type":"json","secret":"first"}}`).object(t)
	path := repoHooks + "/" + itoa(int64(created["id"].(float64)))
	first := a.rc.next(t)
	d := a.hooks.waitRecorded(t, 1)[0]
	moved := newReceiver(t, nil)
	a.mustDo(t, http.StatusOK, "PATCH", path+"/config", "admin", `{"url":"`+moved.URL+`","secret":"second"}`)

	a.mustDo(t, http.StatusAccepted, "POST", path+"/deliveries/"+itoa(d.ID)+"/attempts", "admin", "")
	again := moved.next(t)
	redelivery := a.hooks.waitRecorded(t, 1)[0]
	if string(again.body) != string(first.body) || again.header.Get("X-Service-Delivery") != first.header.Get("X-Service-Delivery") {
		t.Errorf("the redelivery differs from the delivery: GUID %q and %q, bodies equal: %v",
			again.header.Get("X-Service-Delivery"), first.header.Get("X-Service-Delivery"), string(again.body) == string(first.body))
	}
	again.path = "the redelivery"
	checkSignatures(t, again, "second", "X-Service-", "X-Service-Signature-256", "X-Service-Signature")
	var list []map[string]any
	a.mustDo(t, http.StatusOK, "GET", path+"/deliveries", "admin", "").json(t, &list)
	if len(list) != 2 || list[0]["id"] != float64(redelivery.ID) || list[0]["redelivery"] != true ||
		list[0]["guid"] != list[1]["guid"] || list[1]["redelivery"] != false {
		t.Errorf("the deliveries are %v, want the redelivery, then the delivery, with one GUID", list)
	}
}
