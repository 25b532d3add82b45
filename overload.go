package issuefields

import (
	"fmt"
	"net/http"
	"runtime/debug"
)

// inFlightLimit bounds how many requests are served at once. A nil
// inFlightLimit bounds nothing.
type inFlightLimit chan struct{}

func newInFlightLimit(n int) inFlightLimit {
	if n == 0 {
		return nil
	}
	return make(inFlightLimit, n)
}

// acquire takes a place if one is free, without waiting.
func (l inFlightLimit) acquire() bool {
	if l == nil {
		return true
	}
	select {
	case l <- struct{}{}:
		return true
	default:
		return false
	}
}

// release gives back a place taken by acquire.
func (l inFlightLimit) release() {
	if l != nil {
		<-l
	}
}

// recoverPanic turns a panic below the handler (in a store, a verifier or the
// handler itself) into a 500 and a log line with the request id and the stack,
// so that the server keeps serving. When the answer had already begun, the
// connection is aborted instead, so that the client never takes half an answer
// for a whole one. It must be called directly by a deferred statement.
func (h *Handler) recoverPanic(rec *recorder, r *http.Request) {
	p := recover()
	if p == nil {
		return
	}
	err := panicked(p)
	if rec.status != 0 {
		h.log.ErrorContext(r.Context(), "panic after the answer began", "request_id", rec.id, "error", err)
		panic(http.ErrAbortHandler)
	}
	for _, name := range []string{"ETag", "Location", "Link", "Allow"} {
		rec.Header().Del(name)
	}
	h.writeError(rec, r, nil, err)
}

// panicked is the error logged for a recovered panic: its value and the
// stack of the goroutine that panicked. http.ErrAbortHandler is not
// recovered but panics again, as net/http expects. It must be called from
// the deferred function that recovered.
func panicked(p any) error {
	if p == http.ErrAbortHandler {
		panic(p)
	}
	return fmt.Errorf("panic: %v\n%s", p, debug.Stack())
}
