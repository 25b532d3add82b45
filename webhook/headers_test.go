package webhook_test

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

var (
	guidPattern      = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	userAgentPattern = regexp.MustCompile(`^GitHub-Hookshot/[0-9a-f]+$`)
)

// TestHeaders checks the headers of a delivery to an organization's hook
// and to a repository's, for each vendor word, content type, and with and
// without a secret; and that the signatures verify over the body as sent.
func TestHeaders(t *testing.T) {
	tests := []struct {
		name, vendor, contentType, secret string
		// prefix starts the names of the vendor's headers; sig256 and
		// sig1 are the names of the signatures.
		prefix, sig256, sig1 string
		wantContentType      string
	}{
		{
			name: "default vendor", contentType: "json", secret: "s3cret",
			prefix: "X-Service-", sig256: "X-Service-Signature-256", sig1: "X-Service-Signature",
			wantContentType: "application/json",
		},
		{
			name: "GitHub", vendor: "GitHub", contentType: "json", secret: "s3cret",
			prefix: "X-GitHub-", sig256: "X-Hub-Signature-256", sig1: "X-Hub-Signature",
			wantContentType: "application/json",
		},
		{
			name: "another vendor, form", vendor: "Acme", contentType: "form", secret: "s3cret",
			prefix: "X-Acme-", sig256: "X-Acme-Signature-256", sig1: "X-Acme-Signature",
			wantContentType: "application/x-www-form-urlencoded",
		},
		{
			name: "GitHub, form, no secret", vendor: "GitHub", contentType: "form",
			prefix: "X-GitHub-", sig256: "X-Hub-Signature-256", sig1: "X-Hub-Signature",
			wantContentType: "application/x-www-form-urlencoded",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			rc := newReceiver(t, nil)
			config := func(h *webhook.Hook) { h.Config.ContentType, h.Config.Secret = tt.contentType, tt.secret }
			orgHook := w.addHook(t, orgScope("octo-org"), rc.URL+"/org", config)
			repoHook := w.addHook(t, repoScope(w.helloWorld), rc.URL+"/repo", config)
			n := newNotifier(t, webhook.Options{Store: w.hooks, Vendor: tt.vendor})
			notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")))
			closeNotifier(t, n)
			got := rc.received()
			if len(got) != 2 {
				t.Fatalf("got %d deliveries, want 2: one per hook", len(got))
			}
			var guids []string
			for _, r := range got {
				h := r.header
				body := r.payload(t)
				hook, targetType, targetID := orgHook, "organization", itoa(int64(member(body, "organization", "id").(float64)))
				if r.path == "/repo" {
					hook, targetType, targetID = repoHook, "repository", itoa(w.helloWorld.ID)
				}
				for name, want := range map[string]string{
					tt.prefix + "Event":                         "issues",
					tt.prefix + "Hook-ID":                       itoa(hook.ID),
					tt.prefix + "Hook-Installation-Target-Type": targetType,
					tt.prefix + "Hook-Installation-Target-ID":   targetID,
					"Content-Type":                              tt.wantContentType,
				} {
					if got := h.Get(name); got != want {
						t.Errorf("%s: %s %q, want %q", r.path, name, got, want)
					}
				}
				guid := h.Get(tt.prefix + "Delivery")
				if !guidPattern.MatchString(guid) {
					t.Errorf("%s: %sDelivery %q, want a GUID", r.path, tt.prefix, guid)
				}
				guids = append(guids, guid)
				if ua := h.Get("User-Agent"); !userAgentPattern.MatchString(ua) {
					t.Errorf("%s: User-Agent %q, want GitHub-Hookshot/<hex>", r.path, ua)
				}
				if tt.contentType == "form" {
					if form, err := url.ParseQuery(string(r.body)); err != nil || len(form) != 1 || form.Get("payload") == "" {
						t.Errorf("%s: the form %.100q is not payload=<the JSON> alone", r.path, r.body)
					}
				}
				checkSignatures(t, r, tt.secret, tt.prefix, tt.sig256, tt.sig1)
			}
			if guids[0] != guids[1] {
				t.Errorf("the two hooks got the delivery GUIDs %q and %q, want one for the event's change", guids[0], guids[1])
			}
		})
	}
}

// checkSignatures checks that r carries the signatures under secret with
// the names sig256 and sig1, and no other; none at all without a secret.
func checkSignatures(t *testing.T, r request, secret, prefix, sig256, sig1 string) {
	t.Helper()
	if secret == "" {
		for _, name := range []string{"X-Hub-Signature-256", "X-Hub-Signature", prefix + "Signature-256", prefix + "Signature"} {
			if v := r.header.Get(name); v != "" {
				t.Errorf("%s: %s %q without a secret, want none", r.path, name, v)
			}
		}
		return
	}
	if got := r.header.Get(sig256); !webhook.Verify([]byte(secret), r.body, got) {
		t.Errorf("%s: %s %q does not verify over the body as sent", r.path, sig256, got)
	}
	mac := hmac.New(sha1.New, []byte(secret))
	mac.Write(r.body)
	if got, want := r.header.Get(sig1), "sha1="+hex.EncodeToString(mac.Sum(nil)); got != want {
		t.Errorf("%s: %s %q, want %q, the HMAC-SHA1 of the body as sent", r.path, sig1, got, want)
	}
	if !strings.HasPrefix(sig256, prefix) {
		for _, name := range []string{prefix + "Signature-256", prefix + "Signature"} {
			if v := r.header.Get(name); v != "" {
				t.Errorf("%s: %s %q besides %s, want one name for each signature", r.path, name, v, sig256)
			}
		}
	}
}

// TestDeliveryGUIDs checks that each changed field is one event, whose GUID
// every hook it goes to gets, and that each change has its own.
func TestDeliveryGUIDs(t *testing.T) {
	w := newWorld(t)
	rc := newReceiver(t, nil)
	w.addHook(t, orgScope("octo-org"), rc.URL+"/org")
	w.addHook(t, repoScope(w.helloWorld), rc.URL+"/repo")
	n := newNotifier(t, webhook.Options{Store: w.hooks})
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage"),
		issuefields.FieldChange{Field: estimateField, After: &issuefields.Value{FieldID: estimateField.ID, Number: 3}}))
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("triaged")))
	closeNotifier(t, n)

	hooksOf := map[string][]string{} // the paths of the hooks each GUID went to
	for _, r := range rc.received() {
		guid := r.header.Get("X-Service-Delivery")
		hooksOf[guid] = append(hooksOf[guid], r.path)
	}
	if len(hooksOf) != 3 {
		t.Errorf("got %d GUIDs, want 3: one per changed field of each event", len(hooksOf))
	}
	for guid, paths := range hooksOf {
		if len(paths) != 2 || paths[0] == paths[1] {
			t.Errorf("the GUID %s went to %v, want each of the two hooks once", guid, paths)
		}
	}
}

// TestVerify checks Verify against signatures in and out of Sign's form.
func TestVerify(t *testing.T) {
	secret, body := []byte("It's a Secret to Everybody"), []byte("Hello, World!")
	good := webhook.Sign(secret, body)
	tests := []struct {
		name      string
		secret    []byte
		signature string
		want      bool
	}{
		{"Sign's signature", secret, good, true},
		{"upper-case hex", secret, "sha256=" + strings.ToUpper(strings.TrimPrefix(good, "sha256=")), true},
		{"another secret", []byte("a guess"), good, false},
		{"no secret", nil, good, false},
		{"no prefix", secret, strings.TrimPrefix(good, "sha256="), false},
		{"a sha1 prefix", secret, "sha1=" + strings.TrimPrefix(good, "sha256="), false},
		{"cut short", secret, good[:len(good)-2], false},
		{"not hex", secret, good[:len(good)-1] + "g", false},
		{"empty", secret, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := webhook.Verify(tt.secret, body, tt.signature); got != tt.want {
				t.Errorf("Verify(%q, body, %q) = %v, want %v", tt.secret, tt.signature, got, tt.want)
			}
		})
	}
}
