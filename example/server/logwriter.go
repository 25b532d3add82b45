package server

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/issuefields/issuefields"
)

// The log is written off the requests' path. A record below Warn (a request's
// line, an event) is only queued; a goroutine of the log formats the queued
// records and writes them out in one write every logFlushInterval, or sooner
// once logFlushRecords are queued. A record of level Warn or above is written
// at once, after every record queued before it, so that failures show
// without delay. Closing the log writes out what is queued, so a graceful
// stop loses no line.
const (
	logFlushInterval = 100 * time.Millisecond
	logFlushRecords  = 256
	// logMaxRecords bounds the queue: a record that would go past it
	// waits until the queue is written out.
	logMaxRecords = 4096
)

// asyncLog is the queue between the log's handlers and the log's
// destination. It is safe for concurrent use.
type asyncLog struct {
	dst io.Writer

	mu sync.Mutex
	// queue holds the records not yet formatted, and spare the slice the
	// next queue reuses; drained is signalled whenever a queue was taken.
	queue, spare []queuedRecord
	drained      *sync.Cond
	closed       bool

	// outMu is held while records are formatted into out and out is
	// written to dst, which keeps the lines in order.
	outMu sync.Mutex
	out   bytes.Buffer
	text  textFormatter

	kick chan struct{} // asks the goroutine to write out now
	stop chan struct{} // ends the goroutine
	done chan struct{} // closed when the goroutine has ended
}

// queuedRecord is a record and the handler that formats it, or a request's
// line. plainText says that the handler is a slog.TextHandler with no options
// but a level, no attributes and no group, whose lines appendTextRecord
// writes too; a request's line is queued only for such a handler, and
// appendRequestLine writes it.
type queuedRecord struct {
	h         slog.Handler
	r         slog.Record
	plainText bool
	isLine    bool
	line      issuefields.RequestLine
}

// newAsyncLog returns an asyncLog to dst, with its goroutine started. Close
// must be called to end the goroutine and write out what is queued.
func newAsyncLog(dst io.Writer) *asyncLog {
	l := &asyncLog{dst: dst, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	l.drained = sync.NewCond(&l.mu)
	go l.run()
	return l
}

// enqueue queues *r for h, after waiting for room if the queue is full. Once
// the log is closed, it writes *r at once.
//
// It takes r by pointer and copies it straight into the queue, because a
// record is large: copies of it on the stack grew the requests' goroutines'
// stacks at every request, and the garbage collector shrank them again. For
// the same reason it keeps the record itself rather than a Record.Clone:
// the log only reads it, and a record's attributes cannot be changed, only
// added to, which a clone guards against only for a holder that adds.
func (l *asyncLog) enqueue(h slog.Handler, r *slog.Record, plainText bool) error {
	q := l.reserve()
	if q == nil {
		return l.writeNow(h, r)
	}
	q.h, q.r, q.plainText = h, *r, plainText
	l.commit()
	return nil
}

// enqueueLine queues a request's line for h, a plain slog.TextHandler, as
// enqueue queues a record.
func (l *asyncLog) enqueueLine(h slog.Handler, line *issuefields.RequestLine) error {
	q := l.reserve()
	if q == nil {
		r := line.Record()
		return l.writeNow(h, &r)
	}
	q.isLine, q.line = true, *line
	l.commit()
	return nil
}

// reserve returns a slot at the end of the queue, with l.mu held, after
// waiting for room if the queue is full; commit releases it once filled.
// Once the log is closed, it returns nil, with l.mu released.
func (l *asyncLog) reserve() *queuedRecord {
	l.mu.Lock()
	for !l.closed && len(l.queue) >= logMaxRecords {
		l.signal()
		l.drained.Wait()
	}
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	if len(l.queue) == cap(l.queue) {
		l.queue = slices.Grow(l.queue, 1)
	}
	l.queue = l.queue[:len(l.queue)+1]
	return &l.queue[len(l.queue)-1]
}

// commit ends what reserve began: it asks for a write-out once enough is
// queued, and releases l.mu.
func (l *asyncLog) commit() {
	if len(l.queue) >= logFlushRecords {
		l.signal()
	}
	l.mu.Unlock()
}

// writeNow writes out the queue and then *r formatted by h, before it
// returns.
func (l *asyncLog) writeNow(h slog.Handler, r *slog.Record) error {
	l.outMu.Lock()
	defer l.outMu.Unlock()
	l.formatQueue()
	err := h.Handle(context.Background(), *r)
	if werr := l.writeOut(); err == nil {
		err = werr
	}
	return err
}

// flush formats the queue and writes it out.
func (l *asyncLog) flush() {
	l.outMu.Lock()
	defer l.outMu.Unlock()
	l.formatQueue()
	_ = l.writeOut() // the log has nowhere to report its own failure
}

// formatQueue takes the queue and formats its records into out. l.outMu is
// held.
func (l *asyncLog) formatQueue() {
	l.mu.Lock()
	queue := l.queue
	l.queue, l.spare = l.spare[:0], nil
	l.drained.Broadcast()
	l.mu.Unlock()
	for i := range queue {
		q := &queue[i]
		switch {
		case q.isLine:
			l.out.Write(l.text.appendRequestLine(l.out.AvailableBuffer(), &q.line))
		case !q.plainText || !l.appendText(&q.r):
			_ = q.h.Handle(context.Background(), q.r)
		}
		*q = queuedRecord{} // let the record's values go
	}
	l.mu.Lock()
	l.spare = queue[:0]
	l.mu.Unlock()
}

// appendText appends *r to out as its plain text handler would, when
// appendTextRecord can, and reports whether it did. l.outMu is held.
func (l *asyncLog) appendText(r *slog.Record) bool {
	b, ok := l.text.appendTextRecord(l.out.AvailableBuffer(), r)
	if ok {
		l.out.Write(b)
	}
	return ok
}

// writeOut writes out to dst. l.outMu is held.
func (l *asyncLog) writeOut() error {
	if l.out.Len() == 0 {
		return nil
	}
	_, err := l.dst.Write(l.out.Bytes())
	l.out.Reset()
	return err
}

// signal asks the goroutine to write out, unless it was asked already.
func (l *asyncLog) signal() {
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// run writes out every logFlushInterval and when asked, until stop is
// closed.
func (l *asyncLog) run() {
	defer close(l.done)
	tick := time.NewTicker(logFlushInterval)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
		case <-l.kick:
		case <-l.stop:
			return
		}
		l.flush()
	}
}

// Close ends the goroutine and writes out what is queued; later records are
// written at once.
func (l *asyncLog) Close() {
	close(l.stop)
	<-l.done
	l.mu.Lock()
	l.closed = true
	l.drained.Broadcast()
	l.mu.Unlock()
	l.flush()
}

// asyncHandler is a slog.Handler that formats records with inner, whose
// output is the log's out, from the log's goroutine for records below Warn
// and at once for the others. plainText says that inner is a
// slog.TextHandler with no options but a level, no attributes and no group:
// the log's goroutine then writes what inner would with appendTextRecord,
// which is faster, when the record allows.
type asyncHandler struct {
	log       *asyncLog
	inner     slog.Handler
	plainText bool
}

func (h asyncHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.inner.Enabled(ctx, level)
}

func (h asyncHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		return h.log.writeNow(h.inner, &r)
	}
	return h.log.enqueue(h.inner, &r, h.plainText)
}

// LogRequest queues a request's line, which the log's goroutine writes
// without making a slog.Record of it when inner is a plain text handler.
func (h asyncHandler) LogRequest(ctx context.Context, line issuefields.RequestLine) error {
	if !h.plainText {
		return h.Handle(ctx, line.Record())
	}
	return h.log.enqueueLine(h.inner, &line)
}

func (h asyncHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return asyncHandler{log: h.log, inner: h.inner.WithAttrs(attrs)}
}

func (h asyncHandler) WithGroup(name string) slog.Handler {
	return asyncHandler{log: h.log, inner: h.inner.WithGroup(name)}
}
