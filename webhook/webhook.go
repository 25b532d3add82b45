package webhook

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	mathrand "math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/issuefields/issuefields"
)

// The defaults that the zero values of Options fields select.
const (
	DefaultQueueSize   = 1000
	DefaultWorkers     = 4
	DefaultMaxAttempts = 5
	DefaultBackoffBase = 500 * time.Millisecond
	DefaultBackoffMax  = 30 * time.Second
	DefaultTimeout     = 10 * time.Second
	DefaultVendor      = "Service"
)

// HookshotVersion is the version in the default User-Agent,
// <Vendor>-Hookshot/<HookshotVersion>. It changes when the body or the
// headers of deliveries change.
const HookshotVersion = "1"

// gitHubVendor is the vendor whose signature header is GitHub's own name,
// X-Hub-Signature-256.
const gitHubVendor = "GitHub"

// ErrClosed is returned by Notify after Close was called.
var ErrClosed = errors.New("webhook: notifier is closed")

// ErrQueueFull is returned, wrapped, by Notify when the queue holds
// Options.QueueSize events already; the event's deliveries are dropped.
var ErrQueueFull = errors.New("webhook: queue is full, event dropped")

// Options configures a Notifier. Secret is required; every other field has a
// default, given in its comment, that its zero value selects.
type Options struct {
	// Secret is the key of the HMAC-SHA256 signature of every delivery.
	// Required: every delivery is signed. Use a long random string and
	// share it with the receiver only. It is never logged.
	Secret []byte

	// Client sends the requests. The zero value means a client that does
	// not follow redirects, so that a redirect is a failed attempt rather
	// than a request to another address.
	Client *http.Client

	// Timeout bounds each attempt, from sending the request to reading the
	// answer. The zero value means DefaultTimeout.
	Timeout time.Duration

	// QueueSize is how many events may wait for delivery, each with its
	// deliveries (one per changed field); Notify drops an event that finds
	// the queue full. The zero value means DefaultQueueSize.
	QueueSize int

	// Workers is how many deliveries may be under way at once. The zero
	// value means DefaultWorkers.
	Workers int

	// MaxAttempts is how many times a delivery is sent before it counts
	// as failed. The zero value means DefaultMaxAttempts; 1 means no retry.
	MaxAttempts int

	// BackoffBase is the wait before the second attempt; each later wait
	// doubles, up to BackoffMax. A wait is a random duration between half
	// of that and all of it. The zero values mean DefaultBackoffBase and
	// DefaultBackoffMax; BackoffMax may not be less than BackoffBase.
	BackoffBase time.Duration
	BackoffMax  time.Duration

	// Logger receives a line per failed delivery (event, action, delivery
	// id, event id, field id, attempts, and the last status or error), and
	// debug lines per attempt. A dropped event is not logged here: Notify
	// returns ErrQueueFull, and the handler logs a Notifier's error. The
	// zero value means slog.Default().
	Logger *slog.Logger

	// UserAgent is the User-Agent header of deliveries. The zero value
	// means <Vendor>-Hookshot/<HookshotVersion>, as GitHub's
	// GitHub-Hookshot/<version>.
	UserAgent string

	// BaseURL is the public address of the API, such as
	// https://api.example.com or http://127.0.0.1:8080/api/v3, under which
	// the URLs of a delivery's body are written. The zero value means
	// http://127.0.0.1:8080.
	BaseURL string

	// Vendor is the word in the names of the headers: X-<Vendor>-Event,
	// X-<Vendor>-Delivery and X-<Vendor>-Signature-256, as Config.Vendor is
	// in the API's headers. The zero value means DefaultVendor. "GitHub"
	// gives GitHub's names, X-GitHub-Event, X-GitHub-Delivery and
	// X-Hub-Signature-256. It must be letters and digits.
	Vendor string
}

// Stats counts what happened to the deliveries of the events given to
// Notify, one delivery per changed field. Once Close has returned, every
// delivery of an event that Notify accepted or dropped is counted in exactly
// one of them; an event refused with ErrClosed is not counted.
type Stats struct {
	// Delivered counts deliveries that a receiver accepted with a 2xx
	// answer.
	Delivered uint64
	// Failed counts deliveries that were refused or unreachable on every
	// one of Options.MaxAttempts attempts.
	Failed uint64
	// Dropped counts deliveries of events that Notify refused because the
	// queue was full.
	Dropped uint64
	// Abandoned counts deliveries that Close gave up on when its context
	// ended.
	Abandoned uint64
}

// A Notifier delivers events to one URL. It is an issuefields.Notifier, safe
// for concurrent use, created with New and stopped with Close.
type Notifier struct {
	url         string
	baseURL     string
	secret      []byte
	client      *http.Client
	timeout     time.Duration
	maxAttempts int
	backoffBase time.Duration
	backoffMax  time.Duration
	log         *slog.Logger
	userAgent   string
	header      headerNames

	// sleep waits for d, or returns ctx.Err() when ctx ends first.
	sleep func(ctx context.Context, d time.Duration) error

	// mu guards closed and sending on queue, so that no send follows
	// close(queue).
	mu     sync.RWMutex
	closed bool
	queue  chan []*delivery // the deliveries of one event

	// ctx is the context of every attempt; abandon cancels it.
	ctx     context.Context
	abandon context.CancelFunc

	closeOnce sync.Once
	done      chan struct{} // closed when every worker has returned

	delivered, failed, dropped, abandoned atomic.Uint64
}

var _ issuefields.Notifier = (*Notifier)(nil)

// headerNames are the vendor-specific header names.
type headerNames struct {
	event, delivery, signature string
}

// delivery is the change of one field, ready to be sent.
type delivery struct {
	id        string // X-<Vendor>-Delivery, the same on every attempt
	eventID   string // issuefields.Event.ID
	fieldID   int64
	action    string // ActionFieldAdded or ActionFieldRemoved
	body      []byte
	signature string
}

var vendorPattern = regexp.MustCompile(`^[A-Za-z0-9]+$`)

// New returns a Notifier that delivers to rawURL, an absolute http or https
// URL, and starts its workers. It returns an error that names what is wrong
// in rawURL or opts.
func New(rawURL string, opts Options) (*Notifier, error) {
	return newNotifier(rawURL, opts, sleepContext)
}

// newNotifier is New with the function that waits between attempts.
func newNotifier(rawURL string, opts Options, sleep func(context.Context, time.Duration) error) (*Notifier, error) {
	var errs []error
	if u, err := url.Parse(rawURL); err != nil {
		// The error's text would repeat the URL, and with it a password.
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		errs = append(errs, fmt.Errorf("the URL does not parse: %w", err))
	} else if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		errs = append(errs, fmt.Errorf("the URL %q is not an absolute http or https URL", u.Redacted()))
	}
	if len(opts.Secret) == 0 {
		errs = append(errs, errors.New("Options.Secret is empty: every delivery is signed"))
	}
	if opts.Vendor == "" {
		opts.Vendor = DefaultVendor
	}
	if !vendorPattern.MatchString(opts.Vendor) {
		errs = append(errs, fmt.Errorf("Options.Vendor %q is not letters and digits", opts.Vendor))
	}
	for _, v := range []struct {
		name string
		n    int64
	}{
		{"Timeout", int64(opts.Timeout)},
		{"QueueSize", int64(opts.QueueSize)},
		{"Workers", int64(opts.Workers)},
		{"MaxAttempts", int64(opts.MaxAttempts)},
		{"BackoffBase", int64(opts.BackoffBase)},
		{"BackoffMax", int64(opts.BackoffMax)},
	} {
		if v.n < 0 {
			errs = append(errs, fmt.Errorf("Options.%s is negative", v.name))
		}
	}
	if opts.BackoffBase == 0 {
		opts.BackoffBase = DefaultBackoffBase
	}
	if opts.BackoffMax == 0 {
		opts.BackoffMax = DefaultBackoffMax
	}
	if opts.BackoffBase > 0 && opts.BackoffMax > 0 && opts.BackoffMax < opts.BackoffBase {
		errs = append(errs, fmt.Errorf("Options.BackoffMax (%v) is less than Options.BackoffBase (%v)", opts.BackoffMax, opts.BackoffBase))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("webhook.New: %w", errors.Join(errs...))
	}
	if opts.Client == nil {
		opts.Client = &http.Client{
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.QueueSize == 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.Workers == 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.MaxAttempts == 0 {
		opts.MaxAttempts = DefaultMaxAttempts
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.UserAgent == "" {
		opts.UserAgent = opts.Vendor + "-Hookshot/" + HookshotVersion
	}
	signatureHeader := "X-" + opts.Vendor + "-Signature-256"
	if strings.EqualFold(opts.Vendor, gitHubVendor) {
		signatureHeader = "X-Hub-Signature-256"
	}
	ctx, abandon := context.WithCancel(context.Background())
	n := &Notifier{
		url:         rawURL,
		secret:      bytes.Clone(opts.Secret),
		baseURL:     cmp.Or(strings.TrimSuffix(opts.BaseURL, "/"), "http://127.0.0.1:8080"),
		client:      opts.Client,
		timeout:     opts.Timeout,
		maxAttempts: opts.MaxAttempts,
		backoffBase: opts.BackoffBase,
		backoffMax:  opts.BackoffMax,
		log:         opts.Logger,
		userAgent:   opts.UserAgent,
		header: headerNames{
			event:     "X-" + opts.Vendor + "-Event",
			delivery:  "X-" + opts.Vendor + "-Delivery",
			signature: signatureHeader,
		},
		sleep:   sleep,
		queue:   make(chan []*delivery, opts.QueueSize),
		ctx:     ctx,
		abandon: abandon,
		done:    make(chan struct{}),
	}
	var wg sync.WaitGroup
	for range opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n.work()
		}()
	}
	go func() {
		wg.Wait()
		close(n.done)
	}()
	return n, nil
}

// Notify queues the deliveries of e, one per changed field, and returns
// without waiting for the network, so it does not use ctx, and the
// deliveries do not carry ctx's values or deadline. When the queue is full,
// it drops the event, counts its deliveries in Stats.Dropped and returns an
// error wrapping ErrQueueFull that names the event, for the caller to log;
// after Close it returns ErrClosed.
func (n *Notifier) Notify(ctx context.Context, e issuefields.Event) error {
	bodies, err := payloads(e, n.baseURL)
	if err != nil {
		return fmt.Errorf("webhook: encoding event %s: %w", e.ID, err)
	}
	if len(bodies) == 0 {
		return nil
	}
	batch := make([]*delivery, len(bodies))
	for i, body := range bodies {
		c := e.Changes[i]
		batch[i] = &delivery{
			id:        newGUID(),
			eventID:   e.ID,
			fieldID:   c.Field.ID,
			action:    actionOf(c),
			body:      body,
			signature: Sign(n.secret, body),
		}
	}
	n.mu.RLock()
	defer n.mu.RUnlock()
	if n.closed {
		return ErrClosed
	}
	select {
	case n.queue <- batch:
		return nil
	default:
	}
	n.dropped.Add(uint64(len(batch)))
	return fmt.Errorf("webhook: event %s (%d deliveries) dropped, %d events already queued: %w",
		e.ID, len(batch), cap(n.queue), ErrQueueFull)
}

// Close stops accepting events and delivers those that are queued, with
// their retries. It returns nil once they are all delivered or failed. If
// ctx ends first, Close cancels the attempts under way, gives up on the
// events left, counting them in Stats.Abandoned, and returns ctx.Err() once
// the workers have stopped. Close may be called more than once; a call after
// the queue is done returns nil.
func (n *Notifier) Close(ctx context.Context) error {
	n.closeOnce.Do(func() {
		n.mu.Lock()
		n.closed = true
		close(n.queue)
		n.mu.Unlock()
	})
	select {
	case <-n.done:
		n.abandon() // releases the context of the attempts
		return nil
	case <-ctx.Done():
	}
	before := n.abandoned.Load()
	n.abandon()
	<-n.done
	if k := n.abandoned.Load() - before; k > 0 {
		n.log.Warn("webhook: closed before the queue was delivered", "abandoned", k)
	}
	return ctx.Err()
}

// Stats returns the counts so far. It is safe to call at any time.
func (n *Notifier) Stats() Stats {
	return Stats{
		Delivered: n.delivered.Load(),
		Failed:    n.failed.Load(),
		Dropped:   n.dropped.Load(),
		Abandoned: n.abandoned.Load(),
	}
}

// Queued returns how many events wait in the queue for a worker now, not
// counting those whose deliveries are under way. It is safe to call at any
// time, and 0 once Close has returned.
func (n *Notifier) Queued() int { return len(n.queue) }

// work delivers queued events until the queue is closed and empty, the
// deliveries of one event in order. Once the notifier is abandoned, it
// counts the deliveries left without sending them.
func (n *Notifier) work() {
	for batch := range n.queue {
		for _, d := range batch {
			if n.ctx.Err() != nil {
				n.abandoned.Add(1)
				continue
			}
			n.deliver(d)
		}
	}
}

// deliver sends d until an attempt succeeds, the attempts are used up or
// the notifier is abandoned, and counts the outcome.
func (n *Notifier) deliver(d *delivery) {
	for attempt := 1; ; attempt++ {
		err := n.post(d)
		if err == nil {
			n.delivered.Add(1)
			n.log.Debug("webhook: delivered", n.logAttrs(d, "attempt", attempt)...)
			return
		}
		if n.ctx.Err() != nil {
			n.abandoned.Add(1)
			return
		}
		if attempt >= n.maxAttempts {
			n.failed.Add(1)
			n.log.Error("webhook: delivery failed", n.logAttrs(d, "attempts", attempt, "err", err)...)
			return
		}
		wait := n.backoff(attempt)
		n.log.Debug("webhook: attempt failed, retrying",
			n.logAttrs(d, "attempt", attempt, "retry_in", wait, "err", err)...)
		if n.sleep(n.ctx, wait) != nil {
			n.abandoned.Add(1)
			return
		}
	}
}

// logAttrs returns the attributes that name d in a log line, followed by
// more: the event and action, the delivery id, the event id and the field.
// The secret and the signature are not among them.
func (n *Notifier) logAttrs(d *delivery, more ...any) []any {
	return append([]any{"event", EventName, "action", d.action, "delivery", d.id,
		"event_id", d.eventID, "field_id", d.fieldID}, more...)
}

// post makes one attempt to deliver d. It returns nil for a 2xx answer.
func (n *Notifier) post(d *delivery) error {
	ctx, cancel := context.WithTimeout(n.ctx, n.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.url, bytes.NewReader(d.body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", n.userAgent)
	req.Header.Set(n.header.event, EventName)
	req.Header.Set(n.header.delivery, d.id)
	req.Header.Set(n.header.signature, d.signature)
	resp, err := n.client.Do(req)
	if err != nil {
		return err
	}
	// Reading some of the answer lets the connection be reused.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("receiver answered %s", resp.Status)
	}
	return nil
}

// backoff returns the wait after the given number of failed attempts: a
// random duration between half of BackoffBase·2^(attempts-1), capped at
// BackoffMax, and all of it.
func (n *Notifier) backoff(attempts int) time.Duration {
	d := n.backoffBase
	for i := 1; i < attempts && d < n.backoffMax; i++ {
		if d > n.backoffMax/2 {
			d = n.backoffMax
			break
		}
		d *= 2
	}
	d = min(d, n.backoffMax)
	half := d / 2
	return half + mathrand.N(d-half+1)
}

// sleepContext waits for d, or returns ctx.Err() when ctx ends first.
func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
