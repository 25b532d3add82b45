package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/memstore"
)

// bigIssues is how many issues bigData's repository has: enough that
// loading them takes a while, during which the racing requests of the tests
// come.
const bigIssues = 2000

// bigData returns a data file with the organization octo-org and its ten
// text fields, the repository octo-org/big with bigIssues issues, each with
// the values of fields 1 to 3, and big-token, which may write values,
// fields and hooks there.
func bigData(t *testing.T) string {
	t.Helper()
	var fields, issues []string
	for id := 1; id <= 10; id++ {
		fields = append(fields, fmt.Sprintf(`{"id": %d, "name": "Field %d", "data_type": "text"}`, id, id))
	}
	for n := 1; n <= bigIssues; n++ {
		issues = append(issues, fmt.Sprintf(`{"number": %d, "values": [
			{"field_id": 1, "value": "one of %[1]d"}, {"field_id": 2, "value": "two of %[1]d"}, {"field_id": 3, "value": "three of %[1]d"}]}`, n))
	}
	data := `{
  "organizations": [{"login": "octo-org", "fields": [` + strings.Join(fields, ",") + `]}],
  "repositories": [{"owner": "octo-org", "name": "big", "private": false, "issues": [` + strings.Join(issues, ",") + `]}],
  "tokens": [{"token": "big-token", "kind": "fine_grained_pat", "login": "octocat",
    "repositories": {"octo-org/big": {"issues": "write", "push": true, "repository_hooks": "write"}},
    "organizations": {"octo-org": {"organization_hooks": "write", "issue_fields": "write"}}}]
}`
	file := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(file, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// bigState returns what the server at base serves of bigData's state: the
// values of the first and the last issue, octo-org's fields, and where its
// hooks deliver.
func bigState(t *testing.T, base string) string {
	t.Helper()
	var parts []string
	for _, path := range []string{"repos/octo-org/big/issues/1/issue-field-values",
		"repos/octo-org/big/issues/" + strconv.Itoa(bigIssues) + "/issue-field-values",
		"orgs/octo-org/issue-fields"} {
		status, body := do(t, http.MethodGet, base+path, "big-token", "")
		parts = append(parts, fmt.Sprintf("GET %s: %d %s", path, status, body))
	}
	_, body := do(t, http.MethodGet, base+"orgs/octo-org/hooks", "big-token", "")
	var hooks []listedHook
	if err := json.Unmarshal([]byte(body), &hooks); err != nil {
		t.Fatalf("GET orgs/octo-org/hooks = %s: %v", body, err)
	}
	for _, h := range hooks {
		parts = append(parts, "hook to "+h.Config.URL)
	}
	return strings.Join(parts, "\n")
}

// hammer sends the writes and reads of bigData's token to the servers at
// bases, each from a goroutine of its own, until stop is closed: value
// writes, field and hook creations and deletions, and reads of the last
// issue, which every state has. It reports every answer that a reset should
// never cause: a 5xx, and the last issue not found.
func hammer(t *testing.T, stop <-chan struct{}, bases ...string) (done func()) {
	t.Helper()
	last := "repos/octo-org/big/issues/" + strconv.Itoa(bigIssues) + "/issue-field-values"
	type request struct {
		method, path, body string
		ok                 func(status int) bool
	}
	notServerError := func(status int) bool { return status < 500 }
	requests := []request{
		{http.MethodPost, "repos/octo-org/big/issues/7/issue-field-values",
			`{"issue_field_values": [{"field_id": 4, "value": "written"}]}`, notServerError},
		{http.MethodPost, "orgs/octo-org/issue-fields", `{"name": "Extra", "data_type": "text"}`, notServerError},
		{http.MethodPost, "orgs/octo-org/hooks",
			`{"name": "web", "events": ["issues"], "config": {"url": "http://127.0.0.1:1/hook", "content_type": "json"}}`, notServerError},
		{http.MethodDelete, "orgs/octo-org/hooks/1", "", notServerError},
		{http.MethodGet, last, "", func(status int) bool { return status == http.StatusOK }},
	}
	var wg sync.WaitGroup
	for i, base := range bases {
		for j, r := range requests {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := 0; ; n++ {
					select {
					case <-stop:
						return
					default:
					}
					body := strings.ReplaceAll(r.body, `"Extra"`, fmt.Sprintf(`"Extra %d-%d-%d"`, i, j, n))
					if status, answer := do(t, r.method, base+r.path, "big-token", body); !r.ok(status) {
						t.Errorf("%s %s during resets = %d %s", r.method, r.path, status, answer)
						return
					}
				}
			}()
		}
	}
	return wg.Wait
}

// TestResetIsOneStep resets the server, from two clients at once, while
// values, fields and hooks are written and the last issue of the data file
// is read: no request and no reset answers 500, every read finds the issue,
// and after the last reset the server serves the state it started with.
func TestResetIsOneStep(t *testing.T) {
	s := startServer(t, "-data", bigData(t), "-webhook", "http://127.0.0.1:1/hook", "-webhook-secret", "s", "-write-limit", "0", "-write-limit-hourly", "0")
	started := bigState(t, s.base)
	stop := make(chan struct{})
	writesDone := hammer(t, stop, s.base)
	var resets sync.WaitGroup
	for range 2 {
		resets.Add(1)
		go func() {
			defer resets.Done()
			for range 10 {
				if a := tool(t, http.MethodPost, s.base, "reset", nil); a.status != http.StatusNoContent {
					t.Errorf("POST /_issuefields/reset during writes = %d %s, want 204", a.status, a.body)
				}
			}
		}()
	}
	resets.Wait()
	close(stop)
	writesDone()
	if a := tool(t, http.MethodPost, s.base, "reset", nil); a.status != http.StatusNoContent {
		t.Fatalf("the last POST /_issuefields/reset = %d %s, want 204", a.status, a.body)
	}
	if after := bigState(t, s.base); after != started {
		t.Errorf("after the last reset, the server serves\n%s\nwant the state it started with:\n%s", after, started)
	}
}

// TestAWriteRacingAResetLandsBeforeOrAfterIt writes a value to an issue
// while the server resets, many times: the write's answer shows either the
// state before the reset, and then the reset took the write away, or the
// state after it, and then the issue keeps the write.
func TestAWriteRacingAResetLandsBeforeOrAfterIt(t *testing.T) {
	s := startServer(t, "-data", bigData(t), "-write-limit", "0", "-write-limit-hourly", "0")
	issue := s.base + "repos/octo-org/big/issues/" + strconv.Itoa(bigIssues) + "/issue-field-values"
	_, fresh := do(t, http.MethodGet, issue, "big-token", "")
	for i := range 20 {
		if status, body := do(t, http.MethodPost, issue, "big-token", `{"issue_field_values": [{"field_id": 4, "value": "before the reset"}]}`); status != http.StatusOK {
			t.Fatalf("POST = %d %s", status, body)
		}
		racing := fmt.Sprintf("racing %d", i)
		var wg sync.WaitGroup
		var status int
		var written string
		wg.Add(2)
		go func() {
			defer wg.Done()
			if a := tool(t, http.MethodPost, s.base, "reset", nil); a.status != http.StatusNoContent {
				t.Errorf("POST /_issuefields/reset = %d %s, want 204", a.status, a.body)
			}
		}()
		go func() {
			defer wg.Done()
			status, written = do(t, http.MethodPost, issue, "big-token", `{"issue_field_values": [{"field_id": 5, "value": "`+racing+`"}]}`)
		}()
		wg.Wait()
		_, after := do(t, http.MethodGet, issue, "big-token", "")
		switch {
		case status != http.StatusOK || !strings.Contains(written, racing):
			t.Fatalf("trial %d: the write during the reset = %d %s, want 200 with its value", i, status, written)
		case strings.Contains(written, "before the reset"):
			if after != fresh {
				t.Errorf("trial %d: the write landed before the reset (%s), but after it the issue holds %s, want %s", i, written, after, fresh)
			}
		case after != written:
			t.Errorf("trial %d: the write landed after the reset (%s), but the issue holds %s", i, written, after)
		case !strings.HasPrefix(after, strings.TrimSuffix(fresh, "]\n")):
			t.Errorf("trial %d: the write landed after the reset on %s, want the state of the start, %s, with it", i, after, fresh)
		}
	}
}

// holdingReceiver is a webhook receiver that holds each issues delivery
// until the test releases it, and counts the deliveries that it got and
// those whose sender gave up while it held them.
type holdingReceiver struct {
	url                 string
	release             chan struct{}
	held, got, given    atomic.Int32
	cancelled, answered chan string
}

// startHoldingReceiver starts a holdingReceiver, which the end of the test
// releases.
func startHoldingReceiver(t *testing.T) *holdingReceiver {
	t.Helper()
	rc := &holdingReceiver{release: make(chan struct{}), cancelled: make(chan string, 1000), answered: make(chan string, 1000)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("X-Service-Event") != "issues" {
			return
		}
		rc.got.Add(1)
		value, _ := member(jsonBody(body), "issue_field_value", "value").(string)
		rc.held.Add(1)
		defer rc.held.Add(-1)
		select {
		case <-rc.release:
			rc.answered <- value
		case <-r.Context().Done():
			rc.cancelled <- value
		}
	}))
	t.Cleanup(func() {
		rc.free()
		srv.Close()
	})
	rc.url = srv.URL
	return rc
}

// jsonBody decodes body, a JSON object, or returns nil.
func jsonBody(body []byte) any {
	var v any
	_ = json.Unmarshal(body, &v)
	return v
}

// free answers the deliveries held and those to come.
func (rc *holdingReceiver) free() {
	select {
	case <-rc.release:
	default:
		close(rc.release)
	}
}

// awaitHeld waits until the receiver holds n deliveries, or fails the test.
func (rc *holdingReceiver) awaitHeld(t *testing.T, n int32) {
	t.Helper()
	for deadline := time.Now().Add(deliveryBound); rc.held.Load() < n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after %v, the receiver holds %d deliveries, want %d", deliveryBound, rc.held.Load(), n)
		}
	}
}

// awaitCancelled waits until the sender has given up n of the deliveries
// held, or fails the test.
func (rc *holdingReceiver) awaitCancelled(t *testing.T, n int) {
	t.Helper()
	timeout := time.After(deliveryBound)
	for i := range n {
		select {
		case <-rc.cancelled:
		case <-timeout:
			t.Fatalf("after %v, the sender had given up %d of the %d deliveries under way, want all", deliveryBound, i, n)
		}
	}
}

// awaitAnswered waits until the receiver has answered the delivery of
// value, and returns the values of the deliveries it answered before, or
// fails the test.
func (rc *holdingReceiver) awaitAnswered(t *testing.T, value string) (before []string) {
	t.Helper()
	timeout := time.After(deliveryBound)
	for {
		select {
		case v := <-rc.answered:
			if v == value {
				return before
			}
			before = append(before, v)
		case <-timeout:
			t.Fatalf("no delivery of %q within %v; answered before: %q", value, deliveryBound, before)
		}
	}
}

// webhookOutcomes returns the webhook deliveries by outcome that the
// metrics of s count, once they count total.
func webhookOutcomes(t *testing.T, s *running, total int) map[string]int {
	t.Helper()
	var got map[string]int
	for deadline := time.Now().Add(deliveryBound); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		m := scrape(t, s)
		got = map[string]int{}
		sum := 0
		for _, outcome := range []string{"delivered", "failed", "dropped", "abandoned"} {
			n, _ := strconv.Atoi(sample(m, `issuefields_webhook_deliveries_total{outcome="`+outcome+`"}`))
			got[outcome] = n
			sum += n
		}
		if sum >= total {
			return got
		}
	}
	t.Fatalf("after %v, the webhook deliveries by outcome are %v, want %d in all", deliveryBound, got, total)
	return nil
}

// TestResetDropsTheOldStatesDeliveries writes 30 values to a receiver that
// holds what it gets, and resets: after the reset's 204, the deliveries
// under way have been cancelled, none of those queued is sent, and none is
// recorded under the hook that the reset creates again; a write after the
// reset is delivered and recorded.
func TestResetDropsTheOldStatesDeliveries(t *testing.T) {
	const writes = 30
	rc := startHoldingReceiver(t)
	s := startServer(t, "-webhook", rc.url, "-webhook-secret", "s", "-write-limit", "0", "-write-limit-hourly", "0", "-debug-addr", "127.0.0.1:0")
	values := s.base + "repos/octo-org/hello-world/issues/3/issue-field-values"
	for i := range writes {
		body := fmt.Sprintf(`{"issue_field_values": [{"field_id": 4, "value": "before the reset %d"}]}`, i)
		if status, answer := do(t, http.MethodPost, values, "demo-writer-token", body); status != http.StatusOK {
			t.Fatalf("POST = %d %s", status, answer)
		}
	}
	rc.awaitHeld(t, 4) // the server's four workers; the other deliveries are queued
	if a := tool(t, http.MethodPost, s.base, "reset", nil); a.status != http.StatusNoContent {
		t.Fatalf("POST /_issuefields/reset = %d %s, want 204", a.status, a.body)
	}
	rc.awaitCancelled(t, 4)
	gotBefore := rc.got.Load()
	rc.free()

	if status, answer := do(t, http.MethodPost, values, "demo-writer-token", `{"issue_field_values": [{"field_id": 4, "value": "after the reset"}]}`); status != http.StatusOK {
		t.Fatalf("POST after the reset = %d %s", status, answer)
	}
	if before := rc.awaitAnswered(t, "after the reset"); len(before) != 0 {
		t.Errorf("after the reset, the receiver got the deliveries %q of writes before it", before)
	}
	outcomes := webhookOutcomes(t, s, writes+1)
	if want := map[string]int{"delivered": 1, "failed": 0, "dropped": writes, "abandoned": 0}; !maps.Equal(outcomes, want) {
		t.Errorf("the webhook deliveries by outcome are %v, want %v", outcomes, want)
	}
	if got := rc.got.Load() - gotBefore; got != 1 {
		t.Errorf("after the reset, the receiver got %d deliveries, want 1", got)
	}
	hooks := listHooks(t, s.base+"orgs/octo-org/hooks")
	if len(hooks) != 1 {
		t.Fatalf("after the reset, octo-org has the hooks %+v, want the -webhook hook", hooks)
	}
	list := waitForDeliveries(t, s.base+"orgs/octo-org/hooks/"+strconv.FormatInt(hooks[0].ID, 10)+"/deliveries", 1)
	if len(list) != 1 {
		t.Errorf("after the reset, the hook lists %d deliveries, want the one of the write after it", len(list))
	}
}

// TestResetRestoresCreatedIssues checks that a reset restores created
// issues and the number counters to the start-up state: an issue created
// after start is gone after the reset, and the next create gets the number
// and the ID that the first create after start got.
func TestResetRestoresCreatedIssues(t *testing.T) {
	mem := memstore.New()
	s := startCommand(t, Command{Open: func(context.Context, *slog.Logger) (Store, func(), error) {
		return memoryStore(mem), func() {}, nil
	}})
	create := func() issuefields.Issue {
		t.Helper()
		snap, err := mem.Snapshot(t.Context(), "octo-org", "hello-world", 0)
		if err != nil {
			t.Fatal(err)
		}
		created, err := mem.CreateIssue(t.Context(), snap, issuefields.Issue{Title: "Created", State: "open"})
		if err != nil {
			t.Fatal(err)
		}
		return created
	}
	values := func(number int64) int {
		status, _ := do(t, http.MethodGet, s.base+"repos/octo-org/hello-world/issues/"+strconv.FormatInt(number, 10)+"/issue-field-values", "demo-reader-token", "")
		return status
	}
	first := create()
	if got := values(first.Number); got != http.StatusOK {
		t.Fatalf("the values of the created issue %d: %d, want 200", first.Number, got)
	}
	if a := tool(t, http.MethodPost, s.base, "reset", nil); a.status != http.StatusNoContent {
		t.Fatalf("POST /_issuefields/reset = %d %s, want 204", a.status, a.body)
	}
	if got := values(first.Number); got != http.StatusNotFound {
		t.Errorf("after the reset, the values of the created issue %d: %d, want 404", first.Number, got)
	}
	if again := create(); again.Number != first.Number || again.ID != first.ID {
		t.Errorf("after the reset, a create got number %d and ID %d; want %d and %d, those of the first create after start",
			again.Number, again.ID, first.Number, first.ID)
	}
}
