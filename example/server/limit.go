package server

import (
	"net"
	"sync"
)

// limitListener returns a listener that holds at most n connections of ln
// open at once: at the bound, Accept waits until one of them is closed, or
// the listener is.
func limitListener(ln net.Listener, n int) net.Listener {
	l := &limitedListener{Listener: ln, slots: make(chan struct{}, n), closed: make(chan struct{})}
	l.close = sync.OnceValue(func() error {
		close(l.closed)
		return ln.Close()
	})
	return l
}

// limitedListener is the listener of limitListener. slots holds a value for
// each connection that is open; closed is closed with the listener.
type limitedListener struct {
	net.Listener
	slots  chan struct{}
	closed chan struct{}
	close  func() error
}

// Accept waits for a free slot, then for a connection.
func (l *limitedListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.closed:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: c, release: sync.OnceFunc(func() { <-l.slots })}, nil
}

// Close closes the listener, and makes an Accept that waits for a slot
// return.
func (l *limitedListener) Close() error { return l.close() }

// limitedConn is a connection of a limitedListener, which frees its slot when
// it is first closed.
type limitedConn struct {
	net.Conn
	release func()
}

// Close closes the connection and frees its slot.
func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}
