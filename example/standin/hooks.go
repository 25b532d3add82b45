package standin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/issuefields/issuefields/webhook"
)

// A Hook is a webhook with its recent deliveries, newest first.
type Hook struct {
	ID int64
	// Owner is whose hook it is: an organization's login, or a
	// repository's owner/name.
	Owner string
	// URL is where the hook delivers. The page shows it with its user name
	// and password masked, and the values of the query parameters that can
	// carry a token.
	URL         string
	ContentType string
	Events      []string
	Active      bool
	// Signed says whether the hook has a secret; the page never shows the
	// secret.
	Signed     bool
	Deliveries []Delivery
}

// A Delivery is one delivery of an event to a hook, as its record holds it.
type Delivery struct {
	ID int64
	// GUID is the event's id, the X-<Vendor>-Delivery header.
	GUID          string
	Event, Action string
	Redelivery    bool
	// StatusCode is the status of the receiver's answer, or 0 when none
	// came; Status is the outcome, "OK" or what went wrong.
	StatusCode int
	Status     string
	Time       time.Time
	DurationMS float64
	// Request and Response are what was sent and what came back.
	Request, Response Message
}

// A Message is the headers and body of a delivery's request or response, as
// recorded. The page shows it with the values of the headers that sign or
// authorize masked, and a JSON body indented with every "secret" member
// masked and every "url" member shown as a hook's URL is.
type Message struct {
	Header    http.Header
	Body      []byte
	Truncated bool
}

// cutNote ends a message that its record cut, as webhook.Message.Truncated
// says: the end of a request's body past webhook.MaxRecordedBody, or what
// did not fit of an answer's headers and body, which share
// webhook.MaxRecordedResponse.
var cutNote = fmt.Sprintf("\n… (cut: a record keeps at most %d KiB of a request body, and %d KiB of the headers and body of an answer together)",
	webhook.MaxRecordedBody>>10, webhook.MaxRecordedResponse>>10)

// shownMessage returns m as the page shows it: its headers, one a line,
// sorted, then a blank line and its body.
func shownMessage(m Message) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(m.Header)) {
		for _, v := range m.Header[name] {
			if masksHeader(name) {
				v = mask
			}
			b.WriteString(name + ": " + v + "\n")
		}
	}
	b.WriteString("\n" + shownBody(m))
	if m.Truncated {
		b.WriteString(cutNote)
	}
	return strings.ToValidUTF8(b.String(), "\uFFFD")
}

// masksHeader reports whether the page masks the value of the header name:
// a signature, an Authorization or a cookie.
func masksHeader(name string) bool {
	name = strings.ToLower(name)
	return strings.Contains(name, "signature") || strings.Contains(name, "authorization") || strings.Contains(name, "cookie")
}

// shownBody returns m's body as the page shows it: JSON indented, with its
// secrets masked as maskValue masks them; so too the payload of a form;
// anything else as it is.
func shownBody(m Message) string {
	if strings.HasPrefix(m.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		if form, err := url.ParseQuery(string(m.Body)); err == nil && form.Has("payload") {
			if doc, ok := indentJSON([]byte(form.Get("payload"))); ok {
				return "payload=" + doc
			}
		}
	}
	if doc, ok := indentJSON(m.Body); ok {
		return doc
	}
	return string(m.Body)
}

// indentJSON returns doc, one whole JSON value, indented, with its secrets
// masked as maskValue masks them, and true; or false when doc is not JSON.
// The members keep their order unless one had to be masked.
func indentJSON(doc []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return "", false
	}
	var out bytes.Buffer
	if masked, changed := maskValue(v); changed {
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(masked); err != nil {
			return "", false
		}
		return strings.TrimSuffix(out.String(), "\n"), true
	}
	if err := json.Indent(&out, bytes.TrimSpace(doc), "", "  "); err != nil {
		return "", false
	}
	return out.String(), true
}
