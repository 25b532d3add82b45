package webhooktest

import (
	"bytes"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// The repositories of the suite, as the handler gives them to HooksFor. A
// Store keeps hooks of any scope, and takes a repository as it is given, so
// the suite makes them up.
var (
	helloWorld      = issuefields.Repository{ID: 1296269, Owner: "octo-org", Name: "hello-world", OwnedByOrganization: true}
	octoOther       = issuefields.Repository{ID: 1296270, Owner: "octo-org", Name: "other", Private: true, OwnedByOrganization: true}
	otherHelloWorld = issuefields.Repository{ID: 1296271, Owner: "other-org", Name: "hello-world", OwnedByOrganization: true}
	userHelloWorld  = issuefields.Repository{ID: 1296272, Owner: "octocat", Name: "hello-world"}
	octoNew         = issuefields.Repository{ID: 1296273, Owner: "octo-org", Name: "new", OwnedByOrganization: true}
)

// hookTime is when the hooks of the suite are created, in UTC to the second.
var hookTime = time.Date(2026, 3, 10, 12, 30, 45, 0, time.UTC)

// aHook returns a hook of scope that sends to url, with every attribute set.
// Each call returns new slices.
func aHook(scope webhook.Scope, url string) webhook.Hook {
	return webhook.Hook{
		Scope:     scope,
		Active:    true,
		Events:    []string{"issues", "push", "*"},
		Config:    webhook.Config{URL: url, ContentType: "json", Secret: "s3cr3t ☕", InsecureSSL: "0"},
		CreatedAt: hookTime,
		UpdatedAt: hookTime.Add(time.Minute),
	}
}

// aDelivery returns a delivery to hook hookID whose receiver answered code
// (0 for none), with every attribute set: headers with several values,
// bodies that are not text. Each call returns new slices and maps.
func aDelivery(hookID int64, code int) webhook.Delivery {
	status := "OK"
	switch {
	case code == 0:
		status = "failed to connect to host"
	case code < 200 || code > 299:
		status = fmt.Sprint("Invalid HTTP Response: ", code)
	}
	return webhook.Delivery{
		HookID:         hookID,
		GUID:           "0b989ba4-242f-11e5-81e1-c7b6966d2516",
		DeliveredAt:    time.Date(2026, 3, 10, 12, 31, 2, 123_000_000, time.UTC),
		Redelivery:     true,
		Duration:       312*time.Millisecond + 7,
		Status:         status,
		StatusCode:     code,
		Event:          "issues",
		Action:         "field_added",
		InstallationID: 42,
		RepositoryID:   1296269,
		URL:            "https://hooks.example.com/issue-fields?team=a&b=c",
		Request: webhook.Message{
			Header: http.Header{
				"Content-Type":      {"application/json"},
				"X-Github-Event":    {"issues"},
				"X-Hub-Signature-2": {"sha256=0123", "sha256=4567"},
			},
			Body: []byte("{\"action\":\"field_added\",\"text\":\"naïve ☕\"}\x00\xff\xfe"),
		},
		Response: webhook.Message{
			Header:    http.Header{"Set-Cookie": {"a=1", "b=2"}, "Empty": {""}},
			Body:      []byte{0, 1, 2, 0xc3, 0x28, 0x80, '\n', 0},
			Truncated: true,
		},
	}
}

// recordAtTheBound returns the record of an answer as large as a record
// keeps: 60 headers of 1 KiB each, some with several values, and a body
// that fills the rest of MaxRecordedResponse, marked as cut.
func recordAtTheBound() webhook.Message {
	m := webhook.Message{Header: http.Header{}, Truncated: true}
	size := 0
	for i := range 60 {
		name := fmt.Sprintf("X-Filler-%02d", i)
		value := strings.Repeat(string(rune('a'+i%26)), 1<<10-len(name)-len(": \r\n")) // a line of 1 KiB
		m.Header[name] = []string{value}
		if i%10 == 0 {
			m.Header[name] = append(m.Header[name], "ü"+value[len("ü"):]) // as long, not ASCII
		}
		size += len(m.Header[name]) << 10
	}
	m.Body = bytes.Repeat([]byte{0xff, 'x', 0}, (webhook.MaxRecordedResponse-size)/3+1)[:webhook.MaxRecordedResponse-size]
	return m
}

// equalHooks reports whether a and b hold the same hooks in the same order.
// It tells nil Events from empty ones no more than a route does.
func equalHooks(a, b []webhook.Hook) bool {
	return slices.EqualFunc(a, b, func(x, y webhook.Hook) bool {
		return x.ID == y.ID && x.Scope == y.Scope && x.Active == y.Active && slices.Equal(x.Events, y.Events) &&
			x.Config == y.Config && x.CreatedAt.Equal(y.CreatedAt) && x.UpdatedAt.Equal(y.UpdatedAt)
	})
}

// equalDeliveries reports whether a and b hold the same deliveries, whole,
// in the same order. It tells nil headers and bodies from empty ones no more
// than a route does.
func equalDeliveries(a, b []webhook.Delivery) bool {
	return slices.EqualFunc(a, b, func(x, y webhook.Delivery) bool {
		return x.ID == y.ID && x.HookID == y.HookID && x.GUID == y.GUID && x.DeliveredAt.Equal(y.DeliveredAt) &&
			x.Redelivery == y.Redelivery && x.Duration == y.Duration && x.Status == y.Status &&
			x.StatusCode == y.StatusCode && x.Event == y.Event && x.Action == y.Action &&
			x.InstallationID == y.InstallationID && x.RepositoryID == y.RepositoryID && x.URL == y.URL &&
			equalMessages(x.Request, y.Request) && equalMessages(x.Response, y.Response)
	})
}

// equalMessages reports whether a and b hold the same headers, with the same
// values in the same order, and the same body.
func equalMessages(a, b webhook.Message) bool {
	return maps.EqualFunc(a.Header, b.Header, slices.Equal) && bytes.Equal(a.Body, b.Body) && a.Truncated == b.Truncated
}

// listed returns d as a list of deliveries shows it: without its Request
// and Response.
func listed(d webhook.Delivery) webhook.Delivery {
	d.Request, d.Response = webhook.Message{}, webhook.Message{}
	return d
}

// idsOfHooks returns the IDs of hooks, in their order.
func idsOfHooks(hooks []webhook.Hook) []int64 {
	ids := make([]int64, len(hooks))
	for i, h := range hooks {
		ids[i] = h.ID
	}
	return ids
}

// idsOfDeliveries returns the IDs of deliveries, in their order.
func idsOfDeliveries(ds []webhook.Delivery) []int64 {
	ids := make([]int64, len(ds))
	for i, d := range ds {
		ids[i] = d.ID
	}
	return ids
}
