package server

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/issuefields/issuefields"
)

// resetWait bounds how long a reset waits for the requests in flight to
// end; the requests that come meanwhile wait for the reset.
const resetWait = 10 * time.Second

// A gate makes a reset one atomic step for the requests of the API and the
// tools' reads and redeliveries: each passes the gate for the whole of its
// handling, its event to the Notifier included, and a reset shuts it,
// waiting for those inside to leave, while those that come wait outside
// until it opens again. So a request is served wholly on the state before a
// reset or wholly on the state after it. The zero value is open.
//
// A gate, rather than a fresh store built aside and swapped in: a request
// calls the store several times and then gives its event to the Notifier,
// which a swap between them would split across two states, and a store that
// several servers share cannot be swapped. Passing the open gate costs a
// request two short holds of one mutex, tens of nanoseconds (BenchmarkGate).
type gate struct {
	mu sync.Mutex
	// inside counts the requests passing the gate.
	inside int
	// opened is nil while the gate is open; while a reset holds it shut,
	// the reset closes opened when it opens the gate again.
	opened chan struct{}
	// emptied, while a reset waits, is closed when the last request
	// inside leaves.
	emptied chan struct{}
}

// serve returns h, each of whose requests passes g. A request whose client
// goes away while it waits outside is not served.
func (g *gate) serve(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.enter(r.Context()) {
			return
		}
		defer g.leave()
		h.ServeHTTP(w, r)
	})
}

// pass calls f while passing g, and returns its error, or ctx's when ctx
// ends while the call waits outside.
func (g *gate) pass(ctx context.Context, f func() error) error {
	if !g.enter(ctx) {
		return ctx.Err()
	}
	defer g.leave()
	return f()
}

// enter waits until g is open and passes it, or reports false when ctx ends
// first.
func (g *gate) enter(ctx context.Context) bool {
	g.mu.Lock()
	for g.opened != nil {
		opened := g.opened
		g.mu.Unlock()
		select {
		case <-opened:
		case <-ctx.Done():
			return false
		}
		g.mu.Lock()
	}
	g.inside++
	g.mu.Unlock()
	return true
}

// leave ends a pass of g that enter began.
func (g *gate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inside--
	if g.inside == 0 && g.emptied != nil {
		close(g.emptied)
		g.emptied = nil
	}
}

// shut shuts g and waits until no request is inside, for resetWait at most,
// or until ctx ends; then it returns the function that opens g again. When
// the requests inside do not leave in time, it opens g again and returns an
// error that wraps issuefields.ErrUnavailable, which the reset answers with
// 503 and Retry-After. One reset at a time shuts g.
func (g *gate) shut(ctx context.Context) (open func(), err error) {
	g.mu.Lock()
	g.opened = make(chan struct{})
	emptied := make(chan struct{})
	if g.inside == 0 {
		close(emptied)
	} else {
		g.emptied = emptied
	}
	g.mu.Unlock()
	open = func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		close(g.opened)
		g.opened, g.emptied = nil, nil
	}
	t := time.NewTimer(resetWait)
	defer t.Stop()
	select {
	case <-emptied:
		return open, nil
	case <-t.C:
		err = fmt.Errorf("%w: the requests in flight did not end within %v", issuefields.ErrUnavailable, resetWait)
	case <-ctx.Done():
		err = fmt.Errorf("%w: waiting for the requests in flight: %w", issuefields.ErrUnavailable, ctx.Err())
	}
	open()
	return nil, err
}
