package webhook_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/ids"
	"github.com/issuefields/issuefields/webhook"
)

// bodiesOf delivers the events that events returns for a fresh world
// through a Notifier of opts, and returns the bodies of the deliveries in
// their order. Every organization of the world and the user's repository
// have one hook, so that each change is one delivery.
func bodiesOf(t *testing.T, opts webhook.Options, events func(*world) []issuefields.Event) [][]byte {
	t.Helper()
	w := newWorld(t)
	rc := newReceiver(t, nil)
	w.addHook(t, orgScope("octo-org"), rc.URL)
	w.addHook(t, orgScope("other-org"), rc.URL)
	w.addHook(t, repoScope(w.spoonKnife), rc.URL)
	opts.Store, opts.Workers = w.hooks, 1
	n := newNotifier(t, opts)
	for _, e := range events(w) {
		notify(t, n, e)
	}
	closeNotifier(t, n)
	var bodies [][]byte
	for _, r := range rc.received() {
		bodies = append(bodies, r.body)
	}
	return bodies
}

// TestFieldValueBodies checks issue_field, issue_field_value and changes for
// each data type: a field that gets its first value, one whose value
// changes, and one whose value is removed, all of one issue.
func TestFieldValueBodies(t *testing.T) {
	type shown = map[string]any
	tests := []struct {
		field         issuefields.Field
		before, after issuefields.Value
		// wantBefore and wantAfter are the values as bodies show them,
		// without their id.
		wantBefore, wantAfter shown
	}{
		{
			field:  notesField,
			before: issuefields.Value{Text: "first thoughts"}, after: issuefields.Value{Text: "needs triage"},
			wantBefore: shown{"value": "first thoughts"}, wantAfter: shown{"value": "needs triage"},
		},
		{
			field:  estimateField,
			before: issuefields.Value{Number: 0}, after: issuefields.Value{Number: 5.5},
			wantBefore: shown{"value": 0.0}, wantAfter: shown{"value": 5.5},
		},
		{
			field:  dueField,
			before: issuefields.Value{Date: "2026-03-31"}, after: issuefields.Value{Date: "2026-04-01"},
			wantBefore: shown{"value": "2026-03-31"}, wantAfter: shown{"value": "2026-04-01"},
		},
		{
			field:  priorityField,
			before: issuefields.Value{OptionIDs: []int64{11}}, after: issuefields.Value{OptionIDs: []int64{12}},
			wantBefore: shown{"value_id": 11.0,
				"option": shown{"id": 11.0, "name": "High", "color": "red", "description": nil}},
			wantAfter: shown{"value_id": 12.0,
				"option": shown{"id": 12.0, "name": "Medium", "color": "yellow", "description": "Within the month"}},
		},
		{
			field:  areasField,
			before: issuefields.Value{OptionIDs: []int64{22}}, after: issuefields.Value{OptionIDs: []int64{21, 23}},
			wantBefore: shown{"value_ids": []any{22.0},
				"options": []any{shown{"id": 22.0, "name": "Docs", "color": "gray", "description": "The manuals"}}},
			wantAfter: shown{"value_ids": []any{21.0, 23.0}, "options": []any{
				shown{"id": 21.0, "name": "API", "color": "blue", "description": nil},
				shown{"id": 23.0, "name": "UI", "color": "pink", "description": nil}}},
		},
	}
	for _, tt := range tests {
		t.Run(string(tt.field.DataType), func(t *testing.T) {
			before, after := tt.before, tt.after
			before.FieldID, after.FieldID = tt.field.ID, tt.field.ID
			var repo issuefields.Repository
			bodies := bodiesOf(t, webhook.Options{}, func(w *world) []issuefields.Event {
				repo = w.helloWorld
				return []issuefields.Event{
					newEvent(w.helloWorld, 7, octocat, issuefields.FieldChange{Field: tt.field, After: &before}),
					newEvent(w.helloWorld, 7, octocat, issuefields.FieldChange{Field: tt.field, Before: &before, After: &after}),
					newEvent(w.helloWorld, 7, octocat, issuefields.FieldChange{Field: tt.field, Before: &after}),
				}
			})
			if len(bodies) != 3 {
				t.Fatalf("got %d deliveries, want 3", len(bodies))
			}
			added, changed, removed := object(t, bodies[0]), object(t, bodies[1]), object(t, bodies[2])
			wantField := map[string]any{"id": float64(tt.field.ID), "name": tt.field.Name, "field_type": string(tt.field.DataType)}
			for _, c := range []struct {
				name       string
				body       map[string]any
				wantAction string
				wantValue  shown
				wantFrom   shown // nil: no changes
			}{
				{"a first value", added, webhook.ActionFieldAdded, tt.wantBefore, nil},
				{"a changed value", changed, webhook.ActionFieldAdded, tt.wantAfter, tt.wantBefore},
				{"a removed value", removed, webhook.ActionFieldRemoved, tt.wantAfter, nil},
			} {
				if got := c.body["action"]; got != c.wantAction {
					t.Errorf("%s: action %v, want %s", c.name, got, c.wantAction)
				}
				if diff := cmp.Diff(wantField, c.body["issue_field"]); diff != "" {
					t.Errorf("%s: issue_field (-want +got):\n%s", c.name, diff)
				}
				if diff := cmp.Diff(c.wantValue, withoutID(c.body["issue_field_value"])); diff != "" {
					t.Errorf("%s: issue_field_value (-want +got):\n%s", c.name, diff)
				}
				changes, hasChanges := c.body["changes"]
				switch {
				case c.wantFrom == nil && hasChanges:
					t.Errorf("%s: changes %v, want none", c.name, changes)
				case c.wantFrom != nil:
					if diff := cmp.Diff(c.wantFrom, withoutID(member(changes, "issue_field_value", "from"))); diff != "" {
						t.Errorf("%s: changes.issue_field_value.from (-want +got):\n%s", c.name, diff)
					}
				}
			}
			// The value's id and node_id name the value of this field on
			// this issue: the same before and after a change, and when it
			// is removed; the node_id decodes to the issue and the field.
			id := member(added, "issue_field_value", "id")
			if f, ok := id.(float64); !ok || f <= 0 {
				t.Fatalf("issue_field_value.id %v, want a positive integer", id)
			}
			nodeID, _ := member(added, "issue_field_value", "node_id").(string)
			want := ids.ID{Kind: ids.KindValue, Issue: issueID(repo, 7), Field: tt.field.ID, DataType: string(tt.field.DataType)}
			if got, err := ids.Decode(nodeID); err != nil || got != want {
				t.Errorf("issue_field_value.node_id %q decodes to %+v, %v; want %+v", nodeID, got, err, want)
			}
			for _, key := range []string{"id", "node_id"} {
				first := member(added, "issue_field_value", key)
				for name, got := range map[string]any{
					"the changed value":                     member(changed, "issue_field_value", key),
					"changes.issue_field_value.from":        member(changed, "changes", "issue_field_value", "from", key),
					"the removed value (issue_field_value)": member(removed, "issue_field_value", key),
				} {
					if got != first {
						t.Errorf("the %s of %s is %v, want %v, that of the first value", key, name, got, first)
					}
				}
			}
		})
	}
}

// withoutID returns the value v, an object, without its id and node_id.
func withoutID(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		if k != "id" && k != "node_id" {
			out[k] = x
		}
	}
	return out
}

// TestBodyDefaults checks the issue, repository, organization and sender of
// a delivery without a Directory: what the store does not hold is the
// documented default.
func TestBodyDefaults(t *testing.T) {
	when := eventTime.Format(time.RFC3339)
	tests := []struct {
		name string
		repo func(*world) issuefields.Repository
		want map[string]any
	}{
		{
			name: "an organization's repository",
			repo: func(w *world) issuefields.Repository { return w.helloWorld },
			want: map[string]any{
				"issue.number":                7.0,
				"issue.title":                 "Issue #7",
				"issue.state":                 "open",
				"issue.locked":                false,
				"issue.body":                  nil,
				"issue.closed_at":             nil,
				"issue.created_at":            when,
				"issue.updated_at":            when,
				"issue.user.login":            "octo-org",
				"issue.user.type":             "Organization",
				"issue.author_association":    "OWNER",
				"issue.labels":                []any{},
				"issue.assignees":             []any{},
				"issue.milestone":             nil,
				"issue.comments":              0.0,
				"issue.reactions.total_count": 0.0,
				"repository.name":             "hello-world",
				"repository.full_name":        "octo-org/hello-world",
				"repository.private":          false,
				"repository.visibility":       "public",
				"repository.description":      nil,
				"repository.default_branch":   "main",
				"repository.created_at":       nil,
				"repository.owner.login":      "octo-org",
				"repository.owner.type":       "Organization",
				"organization.login":          "octo-org",
				"sender.login":                "octocat",
				"sender.type":                 "User",
				"sender.site_admin":           false,
				"installation":                absent,
			},
		},
		{
			name: "a private repository",
			repo: func(w *world) issuefields.Repository { return w.secretPlans },
			want: map[string]any{
				"repository.private":    true,
				"repository.visibility": "private",
			},
		},
		{
			name: "a user's repository",
			repo: func(w *world) issuefields.Repository { return w.spoonKnife },
			want: map[string]any{
				"issue.user.login":         "octocat",
				"issue.user.type":          "User",
				"issue.author_association": "OWNER",
				"repository.full_name":     "octocat/spoon-knife",
				"repository.owner.login":   "octocat",
				"repository.owner.type":    "User",
				"organization":             absent,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var repo issuefields.Repository
			bodies := bodiesOf(t, webhook.Options{}, func(w *world) []issuefields.Event {
				repo = tt.repo(w)
				return []issuefields.Event{newEvent(repo, 7, octocat, setNotes("needs triage"))}
			})
			if len(bodies) != 1 {
				t.Fatalf("got %d deliveries, want 1", len(bodies))
			}
			body := object(t, bodies[0])
			checkMembers(t, body, tt.want)
			checkMembers(t, body, map[string]any{"repository.id": float64(repo.ID)})
		})
	}
}

// TestBodyRecordAndDirectoryDetails checks that a delivery shows what the
// issue's record holds, and what the Directory knows of the repository and
// the accounts.
func TestBodyRecordAndDirectoryDetails(t *testing.T) {
	opened := time.Date(2025, 12, 1, 9, 0, 0, 0, time.UTC)
	closed := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	records := map[int64]issuefields.Issue{
		1: {Title: "Ship the webhooks", Body: "As GitHub sends them.", Author: "hubot", CreatedAt: opened},
		2: {Title: "Old bug", State: "closed", CreatedAt: opened, ClosedAt: closed},
		3: {State: "closed"},
	}
	dir := &directory{
		repo: webhook.RepositoryDetails{Description: "The first repository", DefaultBranch: "trunk", CreatedAt: opened},
		accounts: map[string]webhook.AccountDetails{
			"hubot":    {ID: 4242, Name: "Hubot"},
			"octocat":  {ID: 583231, Name: "The Octocat"},
			"octo-org": {ID: 9919},
		},
	}
	tests := []struct {
		number int64
		want   map[string]any
	}{
		{1, map[string]any{
			"issue.title":               "Ship the webhooks",
			"issue.body":                "As GitHub sends them.",
			"issue.state":               "open",
			"issue.closed_at":           nil,
			"issue.created_at":          opened.Format(time.RFC3339),
			"issue.updated_at":          eventTime.Format(time.RFC3339),
			"issue.user.login":          "hubot",
			"issue.user.id":             4242.0,
			"issue.user.name":           "Hubot",
			"issue.user.type":           "User",
			"issue.author_association":  "NONE",
			"repository.description":    "The first repository",
			"repository.default_branch": "trunk",
			"repository.created_at":     opened.Format(time.RFC3339),
			"repository.owner.id":       9919.0,
			"organization.id":           9919.0,
			"sender.id":                 583231.0,
			"sender.name":               "The Octocat",
		}},
		{2, map[string]any{
			"issue.title":      "Old bug",
			"issue.state":      "closed",
			"issue.closed_at":  closed.Format(time.RFC3339),
			"issue.user.login": "octo-org",
		}},
		// A closed issue whose closing time is unknown closed at the change.
		{3, map[string]any{
			"issue.title":     "Issue #3",
			"issue.state":     "closed",
			"issue.closed_at": eventTime.Format(time.RFC3339),
		}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("issue #%d", tt.number), func(t *testing.T) {
			bodies := bodiesOf(t, webhook.Options{Directory: dir}, func(w *world) []issuefields.Event {
				e := newEvent(w.helloWorld, tt.number, octocat, setNotes("needs triage"))
				record := records[tt.number]
				record.Repository, record.Number, record.ID = e.Issue.Repository, e.Issue.Number, e.Issue.ID
				e.Issue = record
				return []issuefields.Event{e}
			})
			if len(bodies) != 1 {
				t.Fatalf("got %d deliveries, want 1", len(bodies))
			}
			checkMembers(t, object(t, bodies[0]), tt.want)
		})
	}
}

// TestBodyInstallation checks that only the deliveries of an app
// installation's writes carry the installation.
func TestBodyInstallation(t *testing.T) {
	tests := []struct {
		name  string
		actor issuefields.Principal
		dir   webhook.Directory
		want  map[string]any
	}{
		{
			name:  "an app installation",
			actor: issuefields.Principal{Login: "octo-app[bot]", Kind: issuefields.AppInstallationToken},
			want:  map[string]any{"sender.login": "octo-app[bot]", "sender.type": "Bot"},
		},
		{
			name:  "an app installation the Directory knows",
			actor: issuefields.Principal{Login: "octo-app[bot]", Kind: issuefields.AppInstallationToken},
			dir: &directory{accounts: map[string]webhook.AccountDetails{
				"octo-app[bot]": {ID: 77, InstallationID: 123456}}},
			want: map[string]any{"sender.id": 77.0, "installation.id": 123456.0},
		},
		{
			name:  "an app acting for a user",
			actor: issuefields.Principal{Login: "octocat", Kind: issuefields.AppUserToken},
			want:  map[string]any{"installation": absent, "sender.type": "User"},
		},
		{
			name:  "a fine-grained token",
			actor: issuefields.Principal{Login: "octocat", Kind: issuefields.FineGrainedPersonalAccessToken},
			want:  map[string]any{"installation": absent},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bodies := bodiesOf(t, webhook.Options{Directory: tt.dir}, func(w *world) []issuefields.Event {
				return []issuefields.Event{newEvent(w.helloWorld, 1, &tt.actor, setNotes("needs triage"))}
			})
			if len(bodies) != 1 {
				t.Fatalf("got %d deliveries, want 1", len(bodies))
			}
			body := object(t, bodies[0])
			checkMembers(t, body, tt.want)
			if tt.actor.Kind != issuefields.AppInstallationToken {
				return
			}
			id, _ := member(body, "installation", "id").(float64)
			nodeID, _ := member(body, "installation", "node_id").(string)
			if id <= 0 || nodeID == "" {
				t.Errorf("installation %v, want a positive id and a node_id", body["installation"])
			}
		})
	}
}

// TestBodyIDsAreStable checks that the same data gives the same body in a
// fresh Notifier over a fresh store, as on another server or after a
// restart, and that ids tell issues, fields and accounts apart.
func TestBodyIDsAreStable(t *testing.T) {
	events := func(w *world) []issuefields.Event {
		return []issuefields.Event{
			newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")),
			newEvent(w.helloWorld, 2, octocat, setNotes("needs triage")),
			newEvent(w.helloWorld, 1, &issuefields.Principal{Login: "hubot"}, issuefields.FieldChange{
				Field: estimateField, After: &issuefields.Value{FieldID: estimateField.ID, Number: 3}}),
		}
	}
	first := bodiesOf(t, webhook.Options{}, events)
	second := bodiesOf(t, webhook.Options{}, events)
	if len(first) != 3 || len(second) != 3 {
		t.Fatalf("got %d and %d deliveries, want 3 and 3", len(first), len(second))
	}
	for i := range first {
		if !bytes.Equal(first[i], second[i]) {
			t.Errorf("delivery %d differs between two Notifiers of the same data:\n%s\n%s", i, first[i], second[i])
		}
	}
	issue1, issue2, other := object(t, first[0]), object(t, first[1]), object(t, first[2])
	for _, c := range []struct {
		what string
		a, b any
	}{
		{"issue.id of two issues", member(issue1, "issue", "id"), member(issue2, "issue", "id")},
		{"issue.node_id of two issues", member(issue1, "issue", "node_id"), member(issue2, "issue", "node_id")},
		{"issue_field_value.id of two issues", member(issue1, "issue_field_value", "id"), member(issue2, "issue_field_value", "id")},
		{"issue_field_value.id of two fields", member(issue1, "issue_field_value", "id"), member(other, "issue_field_value", "id")},
		{"sender.id of two accounts", member(issue1, "sender", "id"), member(other, "sender", "id")},
		{"sender.id and organization.id", member(issue1, "sender", "id"), member(issue1, "organization", "id")},
	} {
		if c.a == c.b {
			t.Errorf("%s are both %v, want them different", c.what, c.a)
		}
	}
	if a, b := member(issue1, "issue", "id"), member(other, "issue", "id"); a != b {
		t.Errorf("issue.id of one issue is %v and %v, want it the same", a, b)
	}
}
