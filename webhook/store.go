package webhook

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/issuefields/issuefields"
)

// Limits of hooks and deliveries, as GitHub has them.
const (
	// MaxHooks is the most hooks an organization or a repository may have.
	MaxHooks = 20
	// KeptDeliveries is how many deliveries of a hook a Store keeps: the
	// newest ones.
	KeptDeliveries = 1000
	// MaxRecordedBody is the most bytes of a delivery's request or response
	// body that a Delivery records; a longer one is cut and says so.
	MaxRecordedBody = 64 << 10
	// MaxRecordedResponse is the most bytes of a receiver's answer that a
	// Delivery records, its headers (each value counted as its line
	// "Name: value\r\n") and its body together, the body within
	// MaxRecordedBody; what does not fit is left out, and the record says
	// so. The KeptDeliveries records of a hook thus keep at most 80,000 KiB
	// (78 MiB) of answers, beside their payloads (at most 62.5 MiB), their
	// URLs (MaxHookURLBytes each) and the request headers a Notifier sends.
	MaxRecordedResponse = 80 << 10
)

// ErrTooManyHooks is returned, wrapped, by Store.CreateHook for a scope that
// has MaxHooks hooks already.
var ErrTooManyHooks = errors.New("webhook: too many hooks")

// Hook is a webhook: where, and how, the events of an organization or of a
// repository are delivered.
type Hook struct {
	// ID identifies the hook; it is positive and unique in the Store.
	ID int64
	// Scope says whose hook it is.
	Scope Scope
	// Active is false for a hook that gets no deliveries.
	Active bool
	// Events are the events the hook gets: "issues" and "*" get the issue
	// field events; GitHub's other event names are kept, and get nothing
	// here.
	Events []string
	// Config says where and how deliveries are sent.
	Config Config
	// CreatedAt and UpdatedAt are when the hook was created and last
	// changed, in UTC to the second.
	CreatedAt, UpdatedAt time.Time
}

// Wants reports whether h gets the deliveries of event: h is active, and its
// events name event or "*". A ping goes to every hook, active or not.
func (h *Hook) Wants(event string) bool {
	return event == eventPing || h.Active && (slices.Contains(h.Events, event) || slices.Contains(h.Events, "*"))
}

// Scope says whose a hook is: an organization's (Organization is its login)
// or a repository's (RepositoryID is its ID, which stays the same when the
// repository is renamed or transferred). Exactly one of them is set.
type Scope struct {
	Organization string
	RepositoryID int64
}

// Config is the configuration of a hook, GitHub's webhook-config.
type Config struct {
	// URL is where deliveries are sent, an absolute http or https URL.
	URL string
	// ContentType is "json" (the body is the payload) or "form" (the body
	// is the form payload=<the payload>).
	ContentType string
	// Secret, when not empty, signs every delivery. Answers never show it.
	Secret string
	// InsecureSSL is "1" when deliveries skip the verification of the
	// receiver's TLS certificate, and "0" otherwise.
	InsecureSSL string
}

// Delivery is the record of one delivery: one POST of one event to one hook,
// GitHub's hook-delivery.
type Delivery struct {
	// ID identifies the delivery; it is positive, unique in the Store, and
	// grows with each delivery recorded.
	ID int64
	// HookID is the hook the delivery went to.
	HookID int64
	// GUID is the event's id, the X-<Vendor>-Delivery header: the same for
	// every hook an event goes to, and for a redelivery.
	GUID string
	// DeliveredAt is when the delivery was sent, in UTC.
	DeliveredAt time.Time
	// Redelivery is set for a delivery sent again through the API.
	Redelivery bool
	// Duration is how long the receiver took to answer, or until the
	// delivery failed.
	Duration time.Duration
	// Status is "OK" for a receiver that answered 2xx, and otherwise what
	// went wrong, as GitHub words it ("Invalid HTTP Response: 500", "timed
	// out", "failed to connect to host", "Invalid HTTP Response: headers
	// too large" for answer headers longer than MaxResponseHeaderBytes).
	Status string
	// StatusCode is the status of the receiver's answer, or 0 when no answer
	// came.
	StatusCode int
	// Event and Action are the event's name ("issues", "ping") and action
	// ("field_added"; empty for a ping).
	Event, Action string
	// InstallationID is the app installation that made the change, or 0.
	InstallationID int64
	// RepositoryID is the repository of the event, or 0 for an
	// organization's ping.
	RepositoryID int64
	// URL is where the delivery was sent.
	URL string
	// Request and Response are what was sent and what came back. Store
	// methods that list deliveries leave them empty.
	Request, Response Message
}

// Message is the headers and body of a delivery's request or response as a
// Delivery records them: a request's body within MaxRecordedBody bytes, an
// answer's headers and body together within MaxRecordedResponse. The
// Notifier records header values as valid UTF-8 (an invalid byte becomes
// U+FFFD), so that a Store may keep headers as JSON text.
type Message struct {
	Header http.Header
	Body   []byte
	// Truncated is set when the record left part of the message out: the
	// end of its body, or an answer's headers that did not fit.
	Truncated bool
}

// DeliveryQuery selects deliveries of a hook for Store.Deliveries.
type DeliveryQuery struct {
	// Before, when not zero, selects deliveries whose ID is less than
	// Before.
	Before int64
	// Limit is the most deliveries to return; it is positive.
	Limit int
	// Status is "success" for deliveries whose StatusCode is 200 to 399,
	// "failure" for the others, and "" for all.
	Status string
}

// Store keeps hooks and their deliveries: in memory with memstore, in
// PostgreSQL with pgstore, so that every server that shares a store delivers
// to the same hooks and lists the same deliveries. It is safe for concurrent
// use. Slices passed in belong to the caller and those returned to it: a
// Store copies what it keeps and what it hands out.
//
// A Store keeps hooks of any scope it is given, and takes a repository as
// HooksFor is given it: the routes check that an organization or a
// repository exists before they create its hooks, and the Notifier passes
// the repository of each event as it is now. memstore's and pgstore's are
// the Hooks of their stores, beside the API's data.
//
// Errors: ErrNotFound (from the issuefields package, wrapped) for a hook or
// a delivery that does not exist in the scope asked for, ErrTooManyHooks, an
// error that wraps issuefields.ErrUnavailable when the store cannot serve
// now, and any other error for a fault.
//
// The webhooktest package checks a Store against this contract.
type Store interface {
	// Hooks returns the hooks of scope, by ID.
	Hooks(ctx context.Context, scope Scope) ([]Hook, error)

	// CreateHook stores hook, gives it an ID that no hook had before, and
	// returns it as stored. It returns ErrTooManyHooks, storing nothing,
	// when hook's scope has max hooks already; the check and the creation
	// are one atomic step.
	CreateHook(ctx context.Context, hook Hook, max int) (Hook, error)

	// UpdateHook replaces hook id of scope with what change returns, given
	// the hook as stored, and returns it as stored, as one atomic step;
	// change must not alter the ID or the scope. When change returns an
	// error, UpdateHook changes nothing and returns an error that wraps it.
	UpdateHook(ctx context.Context, scope Scope, id int64, change func(Hook) (Hook, error)) (Hook, error)

	// DeleteHook deletes hook id of scope, and its deliveries.
	DeleteHook(ctx context.Context, scope Scope, id int64) error

	// HooksFor returns the hooks that get the events of repo: the hooks of
	// repo itself and, for a repository owned by an organization, the hooks
	// of that organization (matched case-insensitively). The Notifier calls
	// it for every event, so a store that several servers share may answer
	// from what it read a moment before (pgstore: up to a second), so that a
	// change of a hook through another server takes effect after that
	// moment; a change through the store itself takes effect at once.
	HooksFor(ctx context.Context, repo issuefields.Repository) ([]Hook, error)

	// AddDelivery records d as the newest delivery of hook d.HookID, gives
	// it an ID greater than every delivery ID before it, and returns it. It
	// keeps the newest KeptDeliveries deliveries of each hook, and forgets
	// the older ones. A delivery of a hook that no longer exists is not
	// recorded, and is no error.
	AddDelivery(ctx context.Context, d Delivery) (Delivery, error)

	// Deliveries returns the deliveries of hook hookID that q selects,
	// newest first, without their Request and Response.
	Deliveries(ctx context.Context, hookID int64, q DeliveryQuery) ([]Delivery, error)

	// Delivery returns delivery id of hook hookID, whole.
	Delivery(ctx context.Context, hookID, id int64) (Delivery, error)
}
