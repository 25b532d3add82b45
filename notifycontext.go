package issuefields

import (
	"context"
	"sync"
	"time"
)

// A notifyContext is the context of one Notifier call: the values of the
// request's context, not its cancellation, and the deadline of the notify
// timeout. It behaves as context.WithTimeout(context.WithoutCancel(parent))
// would, but starts a timer only when the notifier asks for Done: most
// notifiers return at once, and the timer, its callback and the context
// that holds them were three of a write's allocations.
type notifyContext struct {
	parent   context.Context // context.WithoutCancel of the request's, so that context.Cause does not find the request's
	deadline time.Time

	mu    sync.Mutex
	done  chan struct{} // made by the first call of Done
	timer *time.Timer   // closes done at the deadline
	err   error         // set when the deadline passes or the call ends
}

// newNotifyContext returns the context of a Notifier call with the values of
// parent, which ends after timeout, and the function that ends it earlier.
func newNotifyContext(parent context.Context, timeout time.Duration) (*notifyContext, func()) {
	c := &notifyContext{parent: context.WithoutCancel(parent), deadline: time.Now().Add(timeout)}
	return c, func() { c.end(context.Canceled) }
}

// Deadline returns the end of the notify timeout.
func (c *notifyContext) Deadline() (time.Time, bool) { return c.deadline, true }

// Value returns the value of the request's context for key.
func (c *notifyContext) Value(key any) any { return c.parent.Value(key) }

// Done returns a channel that is closed when the deadline passes or the call
// ends.
func (c *notifyContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
		if c.err != nil {
			close(c.done)
		} else {
			c.timer = time.AfterFunc(time.Until(c.deadline), func() { c.end(context.DeadlineExceeded) })
		}
	}
	return c.done
}

// Err returns context.DeadlineExceeded once the deadline has passed,
// context.Canceled once the call has ended before it, and nil before either.
func (c *notifyContext) Err() error {
	if !time.Now().Before(c.deadline) {
		c.end(context.DeadlineExceeded)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// end records err as the reason the context ended, unless it has ended
// already, closes Done's channel if there is one and stops its timer.
func (c *notifyContext) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = err
	if c.done != nil {
		close(c.done)
		c.timer.Stop()
	}
}
