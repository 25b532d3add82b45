// Package lazyctx gives a context with a timeout that costs a timer only
// when something waits on it.
//
// context.WithTimeout arms a timer, and makes a channel, for every context it
// returns. The handler gives every write's Notify call a bounded context, and
// the webhook Notifier bounds every store call it makes for an event, but most
// of the code that gets those contexts only passes them on or checks Err (an
// in-memory store, a Notifier that queues the event): the timer is armed and
// stopped for nothing, on every write. WithTimeout here arms it at the first
// call of Done.
package lazyctx

import (
	"context"
	"sync"
	"time"
)

// WithTimeout returns a copy of parent that is done when parent is, when the
// returned cancel function is called, or timeout from now, whichever comes
// first, as context.WithTimeout's does. Its timer is armed, and its Done
// channel made, by the first call of Done; until then Err compares the time
// with the deadline. As with context.WithTimeout, cancel should be called as
// soon as the work the context bounds is done.
func WithTimeout(parent context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	c := &lazyContext{parent: parent, deadline: time.Now().Add(timeout)}
	return c, c.cancel
}

// lazyContext is the context of WithTimeout.
type lazyContext struct {
	parent   context.Context
	deadline time.Time

	mu sync.Mutex
	// armed is context.WithDeadline's copy of parent, made by the first
	// call of Done, and disarm its cancel function.
	armed  context.Context
	disarm context.CancelFunc
	// err is the first error Err returned, or context.Canceled once the
	// context was canceled before it was armed.
	err error
}

// Deadline returns the earlier of the context's deadline and parent's.
func (c *lazyContext) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

// Done arms the context, unless it is armed, and returns its channel.
func (c *lazyContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.armed == nil {
		c.armed, c.disarm = context.WithDeadline(c.parent, c.deadline)
		if c.err == context.Canceled {
			c.disarm()
		}
	}
	return c.armed.Done()
}

// Err returns nil until the context is done, and then why, the same error at
// every later call.
func (c *lazyContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.err != nil:
	case c.armed != nil:
		c.err = c.armed.Err()
	case c.parent.Err() != nil:
		c.err = c.parent.Err()
	case !time.Now().Before(c.deadline):
		c.err = context.DeadlineExceeded
	}
	return c.err
}

// Value returns the value of parent for key; once armed, that of the armed
// context, so that contexts made from this one are canceled with it as
// contexts made from context.WithTimeout's are.
func (c *lazyContext) Value(key any) any {
	c.mu.Lock()
	armed := c.armed
	c.mu.Unlock()
	if armed != nil {
		return armed.Value(key)
	}
	return c.parent.Value(key)
}

// cancel ends the context, and its timer if it was armed.
func (c *lazyContext) cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.armed != nil {
		c.disarm()
		if c.err == nil {
			c.err = c.armed.Err()
		}
		return
	}
	if c.err == nil {
		c.err = context.Canceled
	}
}
