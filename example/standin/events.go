package standin

import (
	"context"
	"io"
	"net/http"
	"time"
)

// heartbeat is how often an event stream sends a comment when nothing
// changes, so that the browser and proxies between keep it open.
const heartbeat = 15 * time.Second

// coalesce is how long an event stream waits after a change before it says
// so: a burst of changes makes one event, and an open page fetches itself
// again at most a few times a second.
const coalesce = 200 * time.Millisecond

// The messages of an event stream, in the text/event-stream format.
const (
	streamOpening = "retry: 2000\n: connected\n\n"
	streamChange  = "event: change\ndata: change\n\n"
	streamAlive   = ": heartbeat\n\n"
)

// events serves GET /_issuefields/events: a text/event-stream with the event
// "change" after each change that cfg.Journal is told of, and a comment every
// heartbeat. It ends when the client goes away or cfg.Closing closes, or
// when a message is not sent within its write's deadline (see
// withWriteDeadlines). The server's read timeout does not apply to it: the
// stream reads nothing. Nor does a write deadline while it waits between
// messages, which over HTTP/2 would end the stream: once a message is
// sent, the stream has nothing left to write.
func events(w http.ResponseWriter, r *http.Request, cfg Config) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{}) // a ResponseWriter without deadlines has none to lift
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	next := cfg.Journal.changes.next()
	tick := time.NewTicker(cfg.heartbeat)
	defer tick.Stop()
	for msg := streamOpening; ; {
		if _, err := io.WriteString(w, msg); err != nil || rc.Flush() != nil {
			return
		}
		_ = rc.SetWriteDeadline(time.Time{})
		select {
		case <-r.Context().Done():
			return
		case <-cfg.Closing:
			return
		case <-tick.C:
			msg = streamAlive
		case <-next:
			if !sleep(r.Context(), cfg.Closing, coalesce) {
				return
			}
			next, msg = cfg.Journal.changes.next(), streamChange
		}
	}
}

// sleep waits for d, and reports whether it did: false when ctx ended or
// closing closed first.
func sleep(ctx context.Context, closing <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-closing:
		return false
	}
}
