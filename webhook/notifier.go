package webhook

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/lazyctx"
)

// The defaults that the zero values of Options fields select.
const (
	DefaultQueueSize = 1000
	DefaultWorkers   = 4
	DefaultTimeout   = 10 * time.Second
	DefaultVendor    = "Service"
)

// storeTimeout bounds each call a worker makes to the Store, and
// floodLogInterval is the least time between two log lines about dropped
// events, and between two about failed deliveries.
const (
	storeTimeout     = 5 * time.Second
	floodLogInterval = 10 * time.Second
)

// ErrClosed is returned by the methods that queue deliveries after Close was
// called.
var ErrClosed = errors.New("webhook: notifier is closed")

// Options configures a Notifier. Store is required; every other field has a
// default, given in its comment, that its zero value selects.
type Options struct {
	// Store keeps the hooks that deliveries go to, and records every
	// delivery: memstore's or pgstore's Hooks, say. Required.
	Store Store

	// Directory supplies what the bodies show but the Store does not hold.
	// The zero value means the defaults of RepositoryDetails and
	// AccountDetails.
	Directory Directory

	// BaseURL is the public address of the API, such as
	// https://api.example.com or http://127.0.0.1:8080/api/v3, under which
	// the bodies' url and *_url members are written; WebURL is that of
	// html_url. They are configured, never taken from a request: a
	// delivery goes to a third party. The zero values mean
	// http://127.0.0.1:8080 for both.
	BaseURL, WebURL string

	// Vendor is the word in the names of the headers, X-<Vendor>-Event and
	// the others, as Config.Vendor is in the API's. It must be letters and
	// digits. The zero value means DefaultVendor. With "GitHub" the
	// signatures are GitHub's X-Hub-Signature-256 and X-Hub-Signature;
	// otherwise X-<Vendor>-Signature-256 and X-<Vendor>-Signature.
	Vendor string

	// Client sends the deliveries. The zero value means a client that does
	// not follow redirects, so that a delivery never goes to another address
	// than the hook's, that keeps a connection to a receiver open for each
	// worker, and that reads at most MaxResponseHeaderBytes of an answer's
	// headers. A client given here reads what its transport reads (an
	// http.Transport whose MaxResponseHeaderBytes is 0 reads up to 10 MiB of
	// headers); what a Delivery records of an answer stays within
	// MaxRecordedResponse whatever the client.
	Client *http.Client

	// Timeout bounds each delivery, from sending the request to reading the
	// answer, as GitHub gives a receiver 10 seconds. The zero value means
	// DefaultTimeout.
	Timeout time.Duration

	// MaxAttempts is how many times a failed delivery is sent, each attempt
	// recorded as a delivery. The zero value means 1: like GitHub, a failed
	// delivery is recorded and not retried, and may be redelivered through
	// the API.
	MaxAttempts int

	// RetryWait is the wait before a second attempt; each later wait
	// doubles. The zero value means a second.
	RetryWait time.Duration

	// QueueSize is how many events and single deliveries (pings,
	// redeliveries) may wait for a worker; one that finds the queue full is
	// dropped, counted in Stats and logged (once per interval, with a count,
	// however many are dropped). The zero value means DefaultQueueSize.
	QueueSize int

	// Workers is how many deliveries may be under way at once. The zero
	// value means DefaultWorkers.
	Workers int

	// Logger receives, at most once per interval each, a line with the
	// count of failed deliveries and one with the count of dropped events,
	// and a debug line per delivery. The zero value means slog.Default().
	Logger *slog.Logger

	// Epochs, if not nil, tells the epoch of Store's data, for a Store that
	// several servers share: before each delivery the Notifier asks it, and
	// drops the delivery when a reset through any server has replaced the
	// data that the event's write was made in, so that nothing of the old
	// data reaches the hooks of the new one (see Reset and WithEpochMark).
	// While deliveries are under way it asks once a second too, and cancels
	// them after such a reset. nil means that only Reset, in this process,
	// ends an epoch.
	Epochs Epochs
}

// Stats counts what happened to the events given to Notify and the pings and
// redeliveries queued: deliveries sent and answered 2xx (Delivered) or not
// (Failed), events or single deliveries dropped because the queue was full
// or a reset replaced the data they belong to, and deliveries that a reset
// cancelled (Dropped), and those not sent before Close gave up (Abandoned).
// Once Close has returned, every one that was queued is counted.
type Stats struct {
	Delivered, Failed, Dropped, Abandoned uint64
}

// A Notifier delivers the events of the API's writes to the hooks of a
// Store, as GitHub delivers its issues event for issue fields: one delivery
// per changed field and per hook that wants it. It is an
// issuefields.Notifier: give it to the handler's Config, and close it after
// the HTTP server has shut down, so that the events of the last writes are
// delivered. It is safe for concurrent use.
type Notifier struct {
	store     Store
	objects   Objects
	client    *http.Client
	insecure  *http.Client // for hooks with insecure_ssl "1"
	timeout   time.Duration
	attempts  int
	retryWait time.Duration
	header    headerNames
	userAgent string
	log       *slog.Logger

	// mu guards closed and sending on queue, so that no send follows
	// close(queue), and no job is queued while Reset empties the queue.
	mu     sync.RWMutex
	closed bool
	queue  chan *job

	// eras is the era that jobs are queued in now; epochs is
	// Options.Epochs. Each job under way holds underway's read lock, which
	// Reset takes to wait for them, and counts itself in running.
	eras     eras
	epochs   Epochs
	underway sync.RWMutex
	running  atomic.Int64

	// ctx is the context of every delivery; abandon cancels it.
	ctx       context.Context
	abandon   context.CancelFunc
	closeOnce sync.Once
	done      chan struct{} // closed when every worker has returned

	delivered, failed, dropped, abandoned atomic.Uint64
	drops, resetDrops, failures           floodLog
}

var _ issuefields.Notifier = (*Notifier)(nil)

// A job is one queued piece of work: the deliveries of an event to the hooks
// that want it, or one delivery to one hook, queued at at.
type job struct {
	event issuefields.Event
	one   *outgoing
	at    stamp
}

var vendorPattern = regexp.MustCompile(`^[A-Za-z0-9]+$`)

// New returns a Notifier configured by opts and starts its workers. It returns
// an error that names what is wrong in opts.
func New(opts Options) (*Notifier, error) {
	var errs []error
	if opts.Store == nil {
		errs = append(errs, errors.New("Options.Store is nil: the Notifier needs a Store that holds the hooks"))
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
		{"Timeout", int64(opts.Timeout)}, {"QueueSize", int64(opts.QueueSize)}, {"Workers", int64(opts.Workers)},
		{"MaxAttempts", int64(opts.MaxAttempts)}, {"RetryWait", int64(opts.RetryWait)},
	} {
		if v.n < 0 {
			errs = append(errs, fmt.Errorf("Options.%s is negative", v.name))
		}
	}
	for name, u := range map[string]string{"BaseURL": opts.BaseURL, "WebURL": opts.WebURL} {
		if err := checkURL(u); u != "" && err != nil {
			errs = append(errs, fmt.Errorf("Options.%s: %w", name, err))
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("webhook.New: %w", errors.Join(errs...))
	}
	opts.setDefaults()
	ctx, abandon := context.WithCancel(context.Background())
	n := &Notifier{
		store:     opts.Store,
		objects:   Objects{BaseURL: opts.BaseURL, WebURL: opts.WebURL, Directory: opts.Directory},
		client:    opts.Client,
		insecure:  insecureClient(opts.Client),
		timeout:   opts.Timeout,
		attempts:  opts.MaxAttempts,
		retryWait: opts.RetryWait,
		header:    newHeaderNames(opts.Vendor),
		userAgent: "GitHub-Hookshot/" + hookshotVersion,
		log:       opts.Logger,
		queue:     make(chan *job, opts.QueueSize),
		eras:      eras{parent: ctx},
		epochs:    opts.Epochs,
		ctx:       ctx,
		abandon:   abandon,
		done:      make(chan struct{}),
	}
	epoch, _ := n.epochNow()
	n.eras.begin(epoch)
	n.drops = floodLog{log: opts.Logger, message: "webhook: dropped events"}
	n.resetDrops = floodLog{log: opts.Logger, message: "webhook: dropped events"}
	n.failures = floodLog{log: opts.Logger, message: "webhook: deliveries failed"}
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
	if n.epochs != nil {
		go n.watchEpochs()
	}
	return n, nil
}

// setDefaults gives every field of opts that has a zero value its default.
func (opts *Options) setDefaults() {
	if opts.Directory == nil {
		opts.Directory = noDirectory{}
	}
	if opts.BaseURL == "" {
		opts.BaseURL = "http://127.0.0.1:8080"
	}
	if opts.WebURL == "" {
		opts.WebURL = "http://127.0.0.1:8080"
	}
	if opts.Workers == 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.Client == nil {
		opts.Client = defaultClient(opts.Workers)
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxAttempts == 0 {
		opts.MaxAttempts = 1
	}
	if opts.RetryWait == 0 {
		opts.RetryWait = time.Second
	}
	if opts.QueueSize == 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
}

// defaultClient returns the client of Options.Client's zero value, for that
// many workers: one that does not follow redirects, keeps a connection to a
// receiver open for each worker, so that a delivery seldom dials, writes a
// request up to 64 KiB with one system call, and reads at most
// MaxResponseHeaderBytes of an answer's headers.
func defaultClient(workers int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = workers
	t.WriteBufferSize = 64 << 10
	t.MaxResponseHeaderBytes = MaxResponseHeaderBytes
	return &http.Client{
		Transport:     t,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// insecureClient returns c with the verification of TLS certificates off,
// for the hooks whose insecure_ssl is "1".
func insecureClient(c *http.Client) *http.Client {
	insecure := *c
	base, ok := c.Transport.(*http.Transport)
	if c.Transport == nil || !ok {
		base = http.DefaultTransport.(*http.Transport)
	}
	t := base.Clone()
	if t.TLSClientConfig == nil {
		t.TLSClientConfig = new(tls.Config)
	}
	t.TLSClientConfig.InsecureSkipVerify = true
	insecure.Transport = t
	return &insecure
}

// Notify queues the deliveries of e and returns without waiting for the
// store or the network, so the writer never waits for a receiver. A worker
// then finds the hooks that want the event and delivers each changed field
// to each. When the queue is full, the event is dropped: counted in Stats
// and logged, once per interval with a count. After Close it returns
// ErrClosed. The event belongs to the epoch that the Store recorded in
// ctx's mark (WithEpochMark), or else to the latest one the Notifier knows.
func (n *Notifier) Notify(ctx context.Context, e issuefields.Event) error {
	if len(e.Changes) == 0 {
		return nil
	}
	return n.enqueue(&job{event: e}, n.eras.stamp(markedEpoch(ctx)))
}

// Ping queues a ping delivery to hook, whose repository is repo (nil for an
// organization's hook), on behalf of sender.
func (n *Notifier) Ping(hook Hook, repo *issuefields.Repository, sender string) error {
	body, err := json.Marshal(n.objects.ping(&hook, repo, sender))
	if err != nil {
		return err
	}
	o := &outgoing{hook: hook, guid: newGUID(), event: eventPing, payload: body}
	if repo != nil {
		o.repositoryID = repo.ID
	}
	return n.enqueue(&job{one: o}, n.stampNow())
}

// Redeliver queues delivery d again to hook, its hook as it is now: the same
// payload, event and GUID, to the hook's current URL, signed with its current
// secret, recorded as a redelivery. It returns an error for a delivery whose
// recorded payload was cut, which cannot be sent again as it was.
func (n *Notifier) Redeliver(hook Hook, d Delivery) error {
	payload, err := recordedPayload(d.Request)
	if err != nil {
		return err
	}
	return n.enqueue(&job{one: &outgoing{hook: hook, guid: d.GUID, event: d.Event, action: d.Action,
		payload: payload, redelivery: true, repositoryID: d.RepositoryID, installationID: d.InstallationID}}, n.stampNow())
}

// stampNow returns the stamp of a single delivery to a hook as the Store
// holds it now: in the Store's epoch as it reads it (Options.Epochs), which
// no write carries to a ping or a redelivery.
func (n *Notifier) stampNow() stamp {
	return n.eras.stamp(n.epochNow())
}

// epochNow returns the Store's epoch as Options.Epochs reads it now, and
// false when there is no Epochs, or it cannot tell, which it logs.
func (n *Notifier) epochNow() (int64, bool) {
	if n.epochs == nil {
		return 0, false
	}
	ctx, cancel := context.WithTimeout(n.ctx, storeTimeout)
	defer cancel()
	epoch, err := n.epochs.Epoch(ctx)
	if err != nil {
		n.log.Warn("webhook: cannot read the store's epoch", "err", err)
		return 0, false
	}
	return epoch, true
}

// enqueue puts j, queued at at, on the queue, or drops it when the queue is
// full.
func (n *Notifier) enqueue(j *job, at stamp) error {
	n.mu.RLock()
	defer n.mu.RUnlock()
	if n.closed {
		return ErrClosed
	}
	j.at = at
	if j.one != nil {
		j.one.at = at
	}
	select {
	case n.queue <- j:
	default:
		n.dropped.Add(1)
		n.drops.add("the queue is full")
	}
	return nil
}

// Close stops accepting work and delivers what is queued. It returns nil once
// it is all delivered or failed. If ctx ends first, Close cancels the
// deliveries under way, gives up on those left (counted in Stats.Abandoned
// and logged with a count), and returns ctx.Err() once the workers have
// stopped. Close may be called more than once.
func (n *Notifier) Close(ctx context.Context) error {
	n.closeOnce.Do(func() {
		n.mu.Lock()
		n.closed = true
		close(n.queue)
		n.mu.Unlock()
	})
	select {
	case <-n.done:
		n.flushLogs()
		return nil
	case <-ctx.Done():
	}
	n.abandon()
	<-n.done
	if a := n.abandoned.Load(); a > 0 {
		n.log.Warn("webhook: not sent before the server stopped", "abandoned", a)
	}
	n.flushLogs()
	return ctx.Err()
}

// flushLogs logs what the flood logs counted and did not log yet.
func (n *Notifier) flushLogs() {
	n.drops.flush()
	n.resetDrops.flush()
	n.failures.flush()
}

// Stats returns the counts so far.
func (n *Notifier) Stats() Stats {
	return Stats{Delivered: n.delivered.Load(), Failed: n.failed.Load(),
		Dropped: n.dropped.Load(), Abandoned: n.abandoned.Load()}
}

// Queued returns how many events and single deliveries wait for a worker.
func (n *Notifier) Queued() int { return len(n.queue) }

// work runs queued jobs until the queue is closed and empty. Once the
// Notifier is abandoned, it counts the jobs left without running them; a job
// of an era that a reset ended it drops.
func (n *Notifier) work() {
	for j := range n.queue {
		n.run(j)
	}
}

// run runs j, holding underway's read lock, so that Reset waits for it.
func (n *Notifier) run(j *job) {
	n.underway.RLock()
	defer n.underway.RUnlock()
	n.running.Add(1)
	defer n.running.Add(-1)
	switch {
	case n.ctx.Err() != nil:
		n.abandoned.Add(1)
	case !n.eras.current(j.at):
		n.droppedAtReset()
	case j.one != nil:
		n.send(j.one)
	default:
		n.deliverEvent(&j.event, j.at)
	}
}

// deliverEvent delivers each change of e, queued at at, to each hook that
// wants the issues event of e's repository. The deliveries of one change
// share a GUID.
func (n *Notifier) deliverEvent(e *issuefields.Event, at stamp) {
	ctx, cancel := lazyctx.WithTimeout(at.era.ctx, storeTimeout)
	hooks, err := n.store.HooksFor(ctx, e.Issue.Repository)
	cancel()
	switch {
	case !at.live() && n.ctx.Err() == nil:
		n.droppedAtReset()
		return
	case err != nil:
		n.failed.Add(1)
		n.log.Error("webhook: cannot read the hooks of the event's repository", "event_id", e.ID,
			"repository", e.Issue.Repository.Owner+"/"+e.Issue.Repository.Name, "err", err)
		return
	}
	hooks = wanting(hooks, EventName)
	if len(hooks) == 0 {
		return
	}
	var installation int64
	for i := range e.Changes {
		body := n.objects.fieldEvent(e, &e.Changes[i])
		payload, err := json.Marshal(body)
		if err != nil {
			n.failed.Add(1)
			n.log.Error("webhook: cannot encode a delivery", "event_id", e.ID, "err", err)
			continue
		}
		if body.Installation != nil {
			installation = body.Installation.ID
		}
		guid := newGUID()
		for _, h := range hooks {
			n.send(&outgoing{hook: h, guid: guid, event: EventName, action: body.Action, payload: payload,
				repositoryID: e.Issue.Repository.ID, installationID: installation, at: at})
		}
	}
}

// wanting returns the hooks of hooks that want event.
func wanting(hooks []Hook, event string) []Hook {
	var out []Hook
	for i := range hooks {
		if hooks[i].Wants(event) {
			out = append(out, hooks[i])
		}
	}
	return out
}

// floodLog logs a kind of trouble (dropped events, failed deliveries) at most
// once per floodLogInterval, with the count since the last line and the last
// reason, so that a flood is a line per interval, not a line per event.
type floodLog struct {
	log     *slog.Logger
	message string
	mu      sync.Mutex
	last    time.Time
	count   int
	reason  string
}

// add counts one more for reason, and logs the count when the last line is
// older than the interval.
func (f *floodLog) add(reason string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.count++
	f.reason = reason
	if time.Since(f.last) >= floodLogInterval {
		f.logLocked()
	}
}

// flush logs what was counted and not logged yet.
func (f *floodLog) flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.count > 0 {
		f.logLocked()
	}
}

func (f *floodLog) logLocked() {
	f.log.Error(f.message, "count", f.count, "reason", f.reason)
	f.count, f.last = 0, time.Now()
}

// checkURL returns an error that says what is wrong when s is not an
// absolute http or https URL. The error never repeats a password in s.
func checkURL(s string) error {
	u, err := parseURL(s)
	if err != nil {
		return err
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http or https URL", u.Redacted())
	}
	return nil
}
