package compat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v92/github"
)

// webhookSecret signs the deliveries of the example server in these tests.
const webhookSecret = "a webhook secret for the compat tests"

// deliveryBound is how long the test waits for the deliveries of its writes.
// It guards against deliveries that never come; nothing depends on speed.
const deliveryBound = 30 * time.Second

// A hookDelivery is one delivery as a receiver written for GitHub sees it:
// go-github's parsed event, and what go-github's IssuesEvent leaves out of
// the body (v92 has no issue_field or issue_field_value), read from the raw
// body as GitHub's schema of the event describes them.
type hookDelivery struct {
	id        string // X-GitHub-Delivery
	userAgent string
	signature string // X-Hub-Signature-256
	body      []byte
	event     *github.IssuesEvent
	field     struct {
		IssueField struct {
			ID        int64  `json:"id"`
			Name      string `json:"name"`
			FieldType string `json:"field_type"`
		} `json:"issue_field"`
		IssueFieldValue *deliveredValue `json:"issue_field_value"`
		Changes         *struct {
			IssueFieldValue *struct {
				From *deliveredValue `json:"from"`
			} `json:"issue_field_value"`
		} `json:"changes"`
	}
}

// deliveredValue is a value of a delivery: its id, then value for text, date
// and number fields, value_id and option for single_select fields.
type deliveredValue struct {
	ID      int64 `json:"id"`
	Value   any   `json:"value"`
	ValueID int64 `json:"value_id"`
	Option  *struct {
		ID    int64  `json:"id"`
		Name  string `json:"name"`
		Color string `json:"color"`
	} `json:"option"`
}

// shown returns what v holds: the value, or the selected option's id.
func (v *deliveredValue) shown() any {
	if v.Option != nil {
		return float64(v.ValueID)
	}
	return v.Value
}

// startGoGitHubReceiver starts a webhook receiver that does what a receiver
// written for GitHub with go-github does: ValidatePayload with the secret,
// WebHookType and ParseWebHook. It sends each delivery it accepts on the
// returned channel, and fails the test for any it cannot read.
func startGoGitHubReceiver(t *testing.T) (url string, deliveries <-chan hookDelivery) {
	t.Helper()
	ch := make(chan hookDelivery, 100)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := github.ValidatePayload(r, []byte(webhookSecret))
		if err != nil {
			t.Errorf("receiver: ValidatePayload: %v", err)
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		parsed, err := github.ParseWebHook(github.WebHookType(r), body)
		if err != nil {
			t.Errorf("receiver: ParseWebHook(%q): %v", github.WebHookType(r), err)
			http.Error(w, "unknown event", http.StatusBadRequest)
			return
		}
		event, ok := parsed.(*github.IssuesEvent)
		if !ok {
			t.Errorf("receiver: ParseWebHook gave a %T, want *github.IssuesEvent", parsed)
			http.Error(w, "not an issues event", http.StatusBadRequest)
			return
		}
		d := hookDelivery{
			id:        github.DeliveryID(r),
			userAgent: r.Header.Get("User-Agent"),
			signature: r.Header.Get(github.SHA256SignatureHeader),
			body:      body,
			event:     event,
		}
		if err := json.Unmarshal(body, &d.field); err != nil {
			t.Errorf("receiver: the body's issue field does not decode: %v\n%s", err, body)
		}
		ch <- d
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rc.Close)
	return rc.URL, ch
}

// wantDelivery is what the test expects of the delivery of one field's change.
type wantDelivery struct {
	action     string
	repo       string // name in octo-org
	private    bool
	issue      int
	fieldID    int64
	fieldName  string
	dataType   string
	value      any // the value of issue_field_value: a field's new value, or the one removed
	from       any // nil: no changes.issue_field_value.from
	hasChanges bool
}

// TestWebhooksWithGoGitHub runs the example server with -vendor GitHub and a
// webhook, writes values with go-github, and reads the deliveries with
// go-github's webhook functions: one issues delivery per changed field,
// field_added or field_removed, with the issue, repository, organization,
// sender and the field as GitHub sends them.
func TestWebhooksWithGoGitHub(t *testing.T) {
	hookURL, deliveries := startGoGitHubReceiver(t)
	s := startServer(t, "-webhook", hookURL, "-webhook-secret", webhookSecret)
	c := s.client(t, writerToken)
	ctx := context.Background()

	// A first value: field_added without changes.
	if _, _, err := addValues(ctx, c, "octo-org", "hello-world", 3, []*github.IssueRequestFieldValue{
		{FieldID: 4, Value: "Document the webhooks"},
	}); err != nil {
		t.Fatalf("POST hello-world#3: %v", err)
	}
	// A PUT that changes Priority (Low to High) and leaves Estimate out.
	if _, _, err := setValues(ctx, c, "octo-org", "hello-world", 2, []*github.IssueRequestFieldValue{
		{FieldID: 1, Value: "High"},
	}); err != nil {
		t.Fatalf("PUT hello-world#2: %v", err)
	}
	// A DELETE in a private repository.
	if _, err := deleteValue(ctx, c, "octo-org", "roadmap", 1, 3); err != nil {
		t.Fatalf("DELETE roadmap#1 field 3: %v", err)
	}
	want := []wantDelivery{
		{action: "field_added", repo: "hello-world", issue: 3, fieldID: 4, fieldName: "Summary", dataType: "text",
			value: "Document the webhooks"},
		{action: "field_added", repo: "hello-world", issue: 2, fieldID: 1, fieldName: "Priority", dataType: "single_select",
			value: float64(11), from: float64(13), hasChanges: true},
		{action: "field_removed", repo: "hello-world", issue: 2, fieldID: 2, fieldName: "Estimate", dataType: "number",
			value: 0.5},
		{action: "field_removed", repo: "roadmap", private: true, issue: 1, fieldID: 3, fieldName: "Due date", dataType: "date",
			value: "2026-06-30"},
	}

	got := map[[2]int64]hookDelivery{} // by issue number and field id; the issues differ by repository too
	timeout := time.After(deliveryBound)
	for len(got) < len(want) {
		select {
		case d := <-deliveries:
			key := [2]int64{int64(d.event.GetIssue().GetNumber()), d.field.IssueField.ID}
			if d.event.GetRepo().GetName() == "roadmap" {
				key[0] = -key[0]
			}
			if _, dup := got[key]; dup {
				t.Errorf("a second delivery for issue %d field %d", key[0], key[1])
			}
			got[key] = d
		case <-timeout:
			t.Fatalf("got %d deliveries within %v, want %d", len(got), deliveryBound, len(want))
		}
	}

	ids := map[string]bool{}
	for _, w := range want {
		key := [2]int64{int64(w.issue), w.fieldID}
		if w.repo == "roadmap" {
			key[0] = -key[0]
		}
		d, ok := got[key]
		if !ok {
			t.Errorf("no delivery for %s#%d field %d", w.repo, w.issue, w.fieldID)
			continue
		}
		checkDelivery(t, s, w, d)
		ids[d.id] = true
	}
	if len(ids) != len(want) {
		t.Errorf("%d distinct X-GitHub-Delivery ids for %d deliveries, want one each", len(ids), len(want))
	}

	// A delivery's option is the option the API lists for that field, as
	// go-github decodes it.
	values, _, err := listValues(ctx, c, "octo-org", "hello-world", 2, nil)
	if err != nil {
		t.Fatalf("GET hello-world#2: %v", err)
	}
	if len(values) != 1 || values[0].SingleSelectOption == nil {
		t.Fatalf("hello-world#2 lists %+v after the PUT, want one single_select value", values)
	}
	listed := values[0].SingleSelectOption
	if o := got[[2]int64{2, 1}].field.IssueFieldValue.Option; o == nil || o.ID != listed.ID || o.Name != listed.Name || o.Color != listed.Color {
		t.Errorf("delivered option %+v, want the listed %+v", o, listed)
	}
}

// checkDelivery checks one delivery against w.
func checkDelivery(t *testing.T, s *server, w wantDelivery, d hookDelivery) {
	t.Helper()
	e := d.event
	name := fmt.Sprintf("%s#%d field %d", w.repo, w.issue, w.fieldID)
	if e.GetAction() != w.action {
		t.Errorf("%s: action %q, want %q", name, e.GetAction(), w.action)
	}
	if got, want := e.GetIssue().GetNumber(), w.issue; got != want {
		t.Errorf("%s: issue number %d, want %d", name, got, want)
	}
	wantURL := s.base + "repos/octo-org/" + w.repo + "/issues/" + strconv.Itoa(w.issue)
	if got := e.GetIssue().GetURL(); got != wantURL {
		t.Errorf("%s: issue url %q, want %q", name, got, wantURL)
	}
	repo := e.GetRepo()
	if repo.GetName() != w.repo || repo.GetFullName() != "octo-org/"+w.repo || repo.GetPrivate() != w.private ||
		repo.GetOwner().GetLogin() != "octo-org" {
		t.Errorf("%s: repository %s (private %v, owner %s), want octo-org/%s (private %v)",
			name, repo.GetFullName(), repo.GetPrivate(), repo.GetOwner().GetLogin(), w.repo, w.private)
	}
	if got := e.GetOrg().GetLogin(); got != "octo-org" {
		t.Errorf("%s: organization %q, want octo-org", name, got)
	}
	if got := e.GetSender().GetLogin(); got != "octocat" {
		t.Errorf("%s: sender %q, want octocat", name, got)
	}
	f := d.field.IssueField
	if f.ID != w.fieldID || f.Name != w.fieldName || f.FieldType != w.dataType {
		t.Errorf("%s: issue_field %+v, want id %d, name %q, field_type %q", name, f, w.fieldID, w.fieldName, w.dataType)
	}
	if v := d.field.IssueFieldValue; v == nil || v.shown() != w.value || v.ID <= 0 {
		t.Errorf("%s: issue_field_value %+v, want the value %v with an id", name, v, w.value)
	}
	changes := d.field.Changes
	switch {
	case !w.hasChanges && changes != nil:
		t.Errorf("%s: changes %+v, want none", name, changes)
	case w.hasChanges && (changes == nil || changes.IssueFieldValue == nil || changes.IssueFieldValue.From == nil ||
		changes.IssueFieldValue.From.shown() != w.from || changes.IssueFieldValue.From.ID != d.field.IssueFieldValue.ID):
		t.Errorf("%s: changes.issue_field_value.from does not hold %v under the value's id: %s", name, w.from, d.body)
	}
	if !strings.HasPrefix(d.userAgent, "GitHub-Hookshot/") {
		t.Errorf("%s: User-Agent %q, want GitHub-Hookshot/<version>", name, d.userAgent)
	}
	// The signature is of this secret: another one is refused.
	if _, err := github.ValidatePayloadFromBody("application/json", bytes.NewReader(d.body), d.signature, []byte("another secret")); err == nil {
		t.Errorf("%s: ValidatePayload accepted the delivery with another secret", name)
	}
}
