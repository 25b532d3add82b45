package server

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// The log is written off the requests' path: a request's line goes into a
// buffer, and a goroutine of the log writes the buffer out every
// logFlushInterval, or sooner once it holds logFlushBytes, in one write. A line
// of level Warn or above goes out at once, with every line before it, so that
// failures show without delay. Closing the log writes out what is left, so a
// graceful stop loses no line.
const (
	logFlushInterval = 100 * time.Millisecond
	logFlushBytes    = 32 << 10
	// logMaxBytes bounds the buffer: a line that would take it past this
	// waits until the buffer is written out.
	logMaxBytes = 1 << 20
)

// logWriter is the buffer between the log's handlers and the log's
// destination. It is safe for concurrent use.
type logWriter struct {
	dst io.Writer

	mu sync.Mutex
	// buf holds what is written and not yet out. While the goroutine
	// writes out a buffer, writing is set and spare is nil; drained is
	// signalled whenever a buffer was written out.
	buf, spare []byte
	writing    bool
	drained    *sync.Cond
	closed     bool

	kick chan struct{} // asks the goroutine to write out now
	stop chan struct{} // ends the goroutine
	done chan struct{} // closed when the goroutine has ended
}

// newLogWriter returns a logWriter to dst, with its goroutine started. Close
// must be called to end the goroutine and write out what is left.
func newLogWriter(dst io.Writer) *logWriter {
	w := &logWriter{dst: dst, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	w.drained = sync.NewCond(&w.mu)
	go w.run()
	return w
}

// Write adds p, one or more whole lines, to the buffer, after waiting for
// room if the buffer is full. Once the writer is closed, it writes p at once.
func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for !w.closed && len(w.buf) > 0 && len(w.buf)+len(p) > logMaxBytes {
		w.signal()
		w.drained.Wait()
	}
	if w.closed {
		return w.writeOutLocked(p)
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) >= logFlushBytes {
		w.signal()
	}
	return len(p), nil
}

// WriteNow writes out the buffer and then p, before it returns.
func (w *logWriter) WriteNow(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writeOutLocked(p)
}

// writeOutLocked writes out the buffer and then p, after the buffer that
// the goroutine may be writing. w.mu is held.
func (w *logWriter) writeOutLocked(p []byte) (int, error) {
	for w.writing {
		w.drained.Wait()
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) == 0 {
		return 0, nil
	}
	_, err := w.dst.Write(w.buf)
	w.buf = w.buf[:0]
	w.drained.Broadcast()
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// signal asks the goroutine to write the buffer out, unless it was asked
// already. w.mu is held.
func (w *logWriter) signal() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// run writes the buffer out every logFlushInterval and when asked, until
// stop is closed.
func (w *logWriter) run() {
	defer close(w.done)
	tick := time.NewTicker(logFlushInterval)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
		case <-w.kick:
		case <-w.stop:
			return
		}
		w.flush()
	}
}

// flush writes the buffer out, without holding w.mu while it writes, so that
// requests go on filling the spare buffer meanwhile.
func (w *logWriter) flush() {
	w.mu.Lock()
	out := w.buf
	if len(out) == 0 {
		w.mu.Unlock()
		return
	}
	w.buf, w.spare, w.writing = w.spare[:0], nil, true
	w.mu.Unlock()
	_, _ = w.dst.Write(out) // the log has nowhere to report its own failure
	w.mu.Lock()
	w.spare, w.writing = out, false
	w.drained.Broadcast()
	w.mu.Unlock()
}

// Close ends the goroutine and writes out what is left; later lines are
// written at once.
func (w *logWriter) Close() {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	_, _ = w.writeOutLocked(nil)
}

// splitHandler sends records below Warn to quiet and the others to loud.
type splitHandler struct {
	quiet, loud slog.Handler
}

func (h splitHandler) Enabled(ctx context.Context, level slog.Level) bool {
	if level >= slog.LevelWarn {
		return h.loud.Enabled(ctx, level)
	}
	return h.quiet.Enabled(ctx, level)
}

func (h splitHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		return h.loud.Handle(ctx, r)
	}
	return h.quiet.Handle(ctx, r)
}

func (h splitHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return splitHandler{h.quiet.WithAttrs(attrs), h.loud.WithAttrs(attrs)}
}

func (h splitHandler) WithGroup(name string) slog.Handler {
	return splitHandler{h.quiet.WithGroup(name), h.loud.WithGroup(name)}
}

// writeNowFunc adapts WriteNow to io.Writer.
type writeNowFunc func(p []byte) (int, error)

func (f writeNowFunc) Write(p []byte) (int, error) { return f(p) }
