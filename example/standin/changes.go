package standin

import "sync/atomic"

// changes tells the page's open event streams that something changed. While
// no stream waits, telling costs one atomic load: the request's path pays
// nothing for a page that nobody has open.
type changes struct {
	// waiting is the channel that the next change closes, or nil while no
	// stream waits.
	waiting atomic.Pointer[chan struct{}]
}

// changed wakes every stream that waits.
func (c *changes) changed() {
	if p := c.waiting.Load(); p != nil && c.waiting.CompareAndSwap(p, nil) {
		close(*p)
	}
}

// next returns a channel that the next change closes.
func (c *changes) next() <-chan struct{} {
	for {
		if p := c.waiting.Load(); p != nil {
			return *p
		}
		ch := make(chan struct{})
		if c.waiting.CompareAndSwap(nil, &ch) {
			return ch
		}
	}
}
