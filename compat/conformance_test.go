package compat

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-github/v92/github"
)

// The paths of GitHub's description of the hook routes, for an organization
// and for a repository.
const (
	orgHooks  = "/orgs/{org}/hooks"
	repoHooks = "/repos/{owner}/{repo}/hooks"
)

// guidPattern is the form of X-GitHub-Delivery: a UUID.
var guidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// A conformanceHook is a hook of the conformance test: its path in the
// description and on the server, and what its deliveries carry.
type conformanceHook struct {
	template, path string // such as /orgs/{org}/hooks/{hook_id} and orgs/octo-org/hooks/1
	id             string
	targetType     string // X-GitHub-Hook-Installation-Target-Type
	contentType    string
}

// TestDeliveriesConformToGitHubSchemas runs the example server with an
// organization hook (JSON) and a repository hook (form, GitHub's default
// content type), both signed, makes a scripted sequence of writes (each data
// type added, changed and removed, a PUT that clears several fields, a
// multi_select change, a write by an app installation, a write in a private
// repository), and validates with kin-openapi every delivery's body against
// its component of GitHub's description (webhook-issues-field-added,
// webhook-issues-field-removed, webhook-ping), and every answer of the hook
// routes against the schema the description gives it.
func TestDeliveriesConformToGitHubSchemas(t *testing.T) {
	doc := loadSpec(t)
	receiver, deliveries := startRawReceiver(t)
	s := startServer(t)

	org := createConformanceHook(t, doc, s, orgHooks, "orgs/octo-org/hooks", "organization", "json",
		`{"name": "web", "events": ["issues"], "config": {"url": "`+receiver+`", "content_type": "json", "secret": "`+webhookSecret+`"}}`)
	repo := createConformanceHook(t, doc, s, repoHooks, "repos/octo-org/hello-world/hooks", "repository", "form",
		`{"events": ["*"], "config": {"url": "`+receiver+`", "secret": "`+webhookSecret+`"}}`)
	pings := collect(t, deliveries, 2)

	writes := runWriteScript(t, s)
	events := collect(t, deliveries, 2*writes.helloWorld+writes.roadmap)
	all := append(pings, events...)

	hooks := map[string]conformanceHook{org.id: org, repo.id: repo}
	byGUID := map[string][]string{} // the hooks each event went to
	actions := map[string]int{}
	for _, d := range all {
		h, ok := hooks[d.header.Get("X-GitHub-Hook-ID")]
		if !ok {
			t.Errorf("a delivery to an unknown X-GitHub-Hook-ID %q", d.header.Get("X-GitHub-Hook-ID"))
			continue
		}
		payload := d.payload(t)
		kind, component := deliveryComponent(payload, d.header.Get("X-GitHub-Event"))
		if component == "" {
			t.Errorf("a delivery of %q, which the test did not cause:\n%s", kind, payload)
			continue
		}
		if err := conforms(schemaOf(t, doc, component), payload); err != nil {
			t.Errorf("a %s delivery to hook %s does not match GitHub's schema: %v\n%s", kind, h.id, err, payload)
		}
		checkDeliveryHeaders(t, h, d)
		if kind != "ping" {
			guid := d.header.Get("X-GitHub-Delivery")
			byGUID[guid] = append(byGUID[guid], h.id)
			actions[strings.TrimPrefix(kind, "issues ")]++
		}
	}
	if want := map[string]int{"field_added": 2 * writes.added, "field_removed": 2*(writes.helloWorld-writes.added) + writes.roadmap}; !maps.Equal(actions, want) {
		t.Errorf("deliveries by action %v, want %v", actions, want)
	}
	for guid, ids := range byGUID {
		slices.Sort(ids)
		if len(ids) == 2 && ids[0] == ids[1] || len(ids) > 2 {
			t.Errorf("event %s went to hooks %v, want each of its hooks once", guid, ids)
		}
	}
	t.Logf("validated %d deliveries: %d pings and %d issues events", len(all), len(pings), len(events))
	if len(byGUID) != writes.helloWorld+writes.roadmap {
		t.Errorf("%d events by X-GitHub-Delivery, want %d: one per changed field", len(byGUID), writes.helloWorld+writes.roadmap)
	}

	waitForRecords(t, s, org, 1+writes.helloWorld+writes.roadmap)
	waitForRecords(t, s, repo, 1+writes.helloWorld)
	for _, h := range []conformanceHook{org, repo} {
		checkHookRoutes(t, doc, s, h, receiver, deliveries)
	}
	checkHookErrors(t, doc, s)
}

// createConformanceHook creates a hook with body at path (template in the
// description), checks the answer, and returns the hook.
func createConformanceHook(t *testing.T, doc *openapi3.T, s *server, template, path, targetType, contentType, body string) conformanceHook {
	t.Helper()
	a := call(t, s, hooksToken, http.MethodPost, path, body)
	if a.status != http.StatusCreated {
		t.Fatalf("POST %s = %d %s, want 201", path, a.status, a.body)
	}
	checkAnswer(t, doc, http.MethodPost, template, a)
	var h struct {
		ID  int64  `json:"id"`
		URL string `json:"url"`
	}
	if err := json.Unmarshal(a.body, &h); err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatInt(h.ID, 10)
	if loc := a.header.Get("Location"); loc != s.base+path+"/"+id || h.URL != loc {
		t.Errorf("POST %s: Location %q and url %q, want %s%s/%s", path, loc, h.URL, s.base, path, id)
	}
	return conformanceHook{template: template + "/{hook_id}", path: path + "/" + id, id: id, targetType: targetType, contentType: contentType}
}

// writeCounts are the events of the write script: those of hello-world
// (added is how many are field_added) and those of the private roadmap.
type writeCounts struct {
	helloWorld, added, roadmap int
}

// runWriteScript makes the writes of the conformance test with go-github and
// returns how many events they cause.
func runWriteScript(t *testing.T, s *server) writeCounts {
	t.Helper()
	ctx := context.Background()
	writer := s.client(t, writerToken)
	step := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	// hello-world#3 has no values: each data type gets one, then another.
	_, _, err := addValues(ctx, writer, "octo-org", "hello-world", 3, []*github.IssueRequestFieldValue{
		{FieldID: 1, Value: "High"}, {FieldID: 2, Value: 8}, {FieldID: 3, Value: "2026-05-01"},
		{FieldID: 4, Value: "Document the webhooks"}, {FieldID: 5, Value: []string{"Linux"}},
	})
	step("adding a value of each type", err)
	_, _, err = addValues(ctx, writer, "octo-org", "hello-world", 3, []*github.IssueRequestFieldValue{
		{FieldID: 1, Value: "Low"}, {FieldID: 2, Value: 13.5}, {FieldID: 3, Value: "2026-06-01"},
		{FieldID: 4, Value: "Document the webhooks, with examples"}, {FieldID: 5, Value: []string{"Linux", "macOS"}},
	})
	step("changing the value of each type", err)
	_, err = deleteValue(ctx, writer, "octo-org", "hello-world", 3, 4)
	step("removing the text", err)
	// A PUT that keeps the number as it is and clears the date and both
	// selects.
	_, _, err = setValues(ctx, writer, "octo-org", "hello-world", 3, []*github.IssueRequestFieldValue{{FieldID: 2, Value: 13.5}})
	step("a PUT that clears three fields", err)
	_, err = deleteValue(ctx, writer, "octo-org", "hello-world", 3, 2)
	step("removing the number", err)
	_, _, err = addValues(ctx, s.client(t, appWriterToken), "octo-org", "hello-world", 2, []*github.IssueRequestFieldValue{{FieldID: 2, Value: 1}})
	step("a change by an app installation", err)
	_, err = deleteValue(ctx, writer, "octo-org", "roadmap", 1, 3)
	step("removing a value in the private repository", err)
	return writeCounts{helloWorld: 5 + 5 + 1 + 3 + 1 + 1, added: 5 + 5 + 1, roadmap: 1}
}

// checkDeliveryHeaders checks the headers of d, a delivery to h, as GitHub
// sends them.
func checkDeliveryHeaders(t *testing.T, h conformanceHook, d rawDelivery) {
	t.Helper()
	wantType := map[string]string{"json": "application/json", "form": "application/x-www-form-urlencoded"}[h.contentType]
	if got := d.header.Get("Content-Type"); got != wantType {
		t.Errorf("hook %s: Content-Type %q, want %q", h.id, got, wantType)
	}
	if got := d.header.Get("X-GitHub-Hook-Installation-Target-Type"); got != h.targetType {
		t.Errorf("hook %s: X-GitHub-Hook-Installation-Target-Type %q, want %q", h.id, got, h.targetType)
	}
	if id, err := strconv.ParseInt(d.header.Get("X-GitHub-Hook-Installation-Target-ID"), 10, 64); err != nil || id <= 0 {
		t.Errorf("hook %s: X-GitHub-Hook-Installation-Target-ID %q, want an id", h.id, d.header.Get("X-GitHub-Hook-Installation-Target-ID"))
	}
	if !guidPattern.MatchString(d.header.Get("X-GitHub-Delivery")) {
		t.Errorf("hook %s: X-GitHub-Delivery %q, want a GUID", h.id, d.header.Get("X-GitHub-Delivery"))
	}
	if !strings.HasPrefix(d.header.Get("User-Agent"), "GitHub-Hookshot/") {
		t.Errorf("hook %s: User-Agent %q, want GitHub-Hookshot/<version>", h.id, d.header.Get("User-Agent"))
	}
	if !d.signedWith(webhookSecret) {
		t.Errorf("hook %s: the signatures are not those of the body under the hook's secret: %q, %q",
			h.id, d.header.Get("X-Hub-Signature-256"), d.header.Get("X-Hub-Signature"))
	}
}

// waitForRecords waits until h's deliveries list has n deliveries: a
// delivery is recorded after its receiver answered.
func waitForRecords(t *testing.T, s *server, h conformanceHook, n int) {
	t.Helper()
	var list []json.RawMessage
	for deadline := time.Now().Add(deliveryBound); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		a := call(t, s, hooksToken, http.MethodGet, h.path+"/deliveries?per_page=100", "")
		if err := json.Unmarshal(a.body, &list); a.status != http.StatusOK || err != nil {
			t.Fatalf("GET %s/deliveries = %d %s", h.path, a.status, a.body)
		}
		if len(list) >= n {
			return
		}
	}
	t.Fatalf("hook %s lists %d deliveries after %v, want %d", h.id, len(list), deliveryBound, n)
}

// checkHookRoutes calls every route of hook h and checks each answer against
// the schema of GitHub's description: the hook, its config, its deliveries
// page by page through the cursor, each delivery, a redelivery and a ping,
// which must reach receiver and match their schemas too; then it deletes h.
func checkHookRoutes(t *testing.T, doc *openapi3.T, s *server, h conformanceHook, receiver string, deliveries <-chan rawDelivery) {
	t.Helper()
	collection, collectionPath := strings.TrimSuffix(h.template, "/{hook_id}"), strings.TrimSuffix(h.path, "/"+h.id)
	get := func(template, path string) apiAnswer {
		t.Helper()
		a := call(t, s, hooksToken, http.MethodGet, path, "")
		if a.status != http.StatusOK {
			t.Fatalf("GET %s = %d %s", path, a.status, a.body)
		}
		checkAnswer(t, doc, http.MethodGet, template, a)
		return a
	}
	get(collection, collectionPath)
	fetched := get(h.template, h.path)
	get(h.template+"/config", h.path+"/config")

	// The hook sent back as it was fetched, read-only keys and the masked
	// secret included, as go-github's EditHook does.
	a := call(t, s, hooksToken, http.MethodPatch, h.path, string(fetched.body))
	checkAnswer(t, doc, http.MethodPatch, h.template, a)
	if a.status != http.StatusOK {
		t.Errorf("PATCH %s with the hook as fetched = %d %s", h.path, a.status, a.body)
	}
	a = call(t, s, hooksToken, http.MethodPatch, h.path+"/config", `{"insecure_ssl": "0"}`)
	checkAnswer(t, doc, http.MethodPatch, h.template+"/config", a)

	var ids []int64
	next := h.path + "/deliveries?per_page=5"
	for pages := 0; next != ""; pages++ {
		if pages > 100 {
			t.Fatalf("the deliveries of hook %s have more than 100 pages", h.id)
		}
		a := get(h.template+"/deliveries", next)
		var page []struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal(a.body, &page); err != nil {
			t.Fatal(err)
		}
		for _, d := range page {
			ids = append(ids, d.ID)
		}
		next = nextPage(t, s, a.header.Get("Link"))
	}
	if !slices.IsSortedFunc(ids, func(a, b int64) int { return int(b - a) }) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Errorf("hook %s: the pages list the deliveries %v, want each once, newest first", h.id, ids)
	}
	for _, id := range ids {
		get(h.template+"/deliveries/{delivery_id}", h.path+"/deliveries/"+strconv.FormatInt(id, 10))
	}

	a = call(t, s, hooksToken, http.MethodPost, h.path+"/deliveries/"+strconv.FormatInt(ids[0], 10)+"/attempts", "")
	if a.status != http.StatusAccepted {
		t.Errorf("redelivery = %d %s, want 202", a.status, a.body)
	}
	checkAnswer(t, doc, http.MethodPost, h.template+"/deliveries/{delivery_id}/attempts", a)
	a = call(t, s, hooksToken, http.MethodPost, h.path+"/pings", "")
	if a.status != http.StatusNoContent {
		t.Errorf("ping = %d %s, want 204", a.status, a.body)
	}
	checkAnswer(t, doc, http.MethodPost, h.template+"/pings", a)
	for _, d := range collect(t, deliveries, 2) {
		kind, component := deliveryComponent(d.payload(t), d.header.Get("X-GitHub-Event"))
		if component == "" {
			t.Errorf("hook %s: a %q delivery after a redelivery and a ping", h.id, kind)
			continue
		}
		if err := conforms(schemaOf(t, doc, component), d.payload(t)); err != nil {
			t.Errorf("hook %s: the %s delivery does not match %s: %v", h.id, kind, component, err)
		}
		checkDeliveryHeaders(t, h, d)
	}

	a = call(t, s, hooksToken, http.MethodDelete, h.path, "")
	if a.status != http.StatusNoContent {
		t.Errorf("DELETE %s = %d %s, want 204", h.path, a.status, a.body)
	}
	checkAnswer(t, doc, http.MethodDelete, h.template, a)
	a = call(t, s, hooksToken, http.MethodGet, h.path, "")
	if a.status != http.StatusNotFound {
		t.Errorf("GET %s after DELETE = %d, want 404", h.path, a.status)
	}
	checkAnswer(t, doc, http.MethodGet, h.template, a)
}

// nextPage returns the path below the server's base of the rel="next" link
// of a Link header, or "".
func nextPage(t *testing.T, s *server, link string) string {
	t.Helper()
	for _, part := range strings.Split(link, ",") {
		target, rel, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(rel) != `rel="next"` {
			continue
		}
		target = strings.Trim(target, "<>")
		path, ok := strings.CutPrefix(target, s.base)
		if !ok {
			t.Fatalf("Link %q is not under %s", link, s.base)
		}
		return path
	}
	return ""
}

// checkHookErrors checks the error answers of the hook routes against the
// schemas of GitHub's description: a create without a URL (422, GitHub's
// validation-error) and a hook that does not exist (404).
func checkHookErrors(t *testing.T, doc *openapi3.T, s *server) {
	t.Helper()
	a := call(t, s, hooksToken, http.MethodPost, "orgs/octo-org/hooks", `{"name": "web", "config": {"content_type": "json"}}`)
	if a.status != http.StatusUnprocessableEntity {
		t.Errorf("a hook without a URL = %d %s, want 422", a.status, a.body)
	}
	checkAnswer(t, doc, http.MethodPost, orgHooks, a)
	a = call(t, s, hooksToken, http.MethodGet, "repos/octo-org/hello-world/hooks/999", "")
	if a.status != http.StatusNotFound {
		t.Errorf("a hook that does not exist = %d %s, want 404", a.status, a.body)
	}
	checkAnswer(t, doc, http.MethodGet, repoHooks+"/{hook_id}", a)
}

// deliveryComponent returns the event and action of a delivery's payload,
// such as "issues field_added" or "ping", and the component of GitHub's
// description that its payload must match, or "" for another event.
func deliveryComponent(payload []byte, event string) (kind, component string) {
	var head struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal(payload, &head)
	kind = strings.TrimSpace(event + " " + head.Action)
	return kind, map[string]string{
		"ping":                 "webhook-ping",
		"issues field_added":   "webhook-issues-field-added",
		"issues field_removed": "webhook-issues-field-removed",
	}[kind]
}
