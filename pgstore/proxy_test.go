package pgstore_test

import (
	"fmt"
	"io"
	"net"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// A proxy forwards the TCP connections it accepts on a port of 127.0.0.1 to
// the database server. Cutting it closes the port and every connection
// through it, as when the database goes away; restoring it opens the same
// port again. Freezing it holds every byte and every new connection, as when
// the database's process stops or the network drops packets; thawing it lets
// them through again.
type proxy struct {
	network, target string // the database server's address
	addr            string // the proxy's address

	mu    sync.Mutex
	ln    net.Listener // nil while cut
	conns map[net.Conn]bool
	// thawed is closed while the proxy forwards, open while it is frozen.
	thawed chan struct{}
}

// newProxy starts a proxy to the server that cfg connects to, and returns it
// with a copy of cfg that connects through it. The proxy is cut when t ends.
func newProxy(t testing.TB, cfg *pgxpool.Config) (*proxy, *pgxpool.Config) {
	t.Helper()
	p := &proxy{network: "tcp", target: net.JoinHostPort(cfg.ConnConfig.Host, fmt.Sprint(cfg.ConnConfig.Port)),
		conns: make(map[net.Conn]bool), thawed: make(chan struct{})}
	close(p.thawed)
	if filepath.IsAbs(cfg.ConnConfig.Host) {
		p.network, p.target = "unix", filepath.Join(cfg.ConnConfig.Host, fmt.Sprintf(".s.PGSQL.%d", cfg.ConnConfig.Port))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.start(ln)
	t.Cleanup(func() {
		p.thaw()
		p.cut()
	})

	proxied := cfg.Copy()
	port := uint16(ln.Addr().(*net.TCPAddr).Port)
	proxied.ConnConfig.Host, proxied.ConnConfig.Port = "127.0.0.1", port
	for _, fb := range proxied.ConnConfig.Fallbacks {
		fb.Host, fb.Port = "127.0.0.1", port
	}
	return p, proxied
}

// start accepts connections on ln until it is closed.
func (p *proxy) start(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(client)
		}
	}()
}

// forward copies bytes both ways between client and a new connection to the
// database server, until either side closes or the proxy is cut.
func (p *proxy) forward(client net.Conn) {
	p.waitThawed()
	server, err := net.Dial(p.network, p.target)
	if err != nil {
		client.Close()
		return
	}
	p.mu.Lock()
	if p.ln == nil {
		p.mu.Unlock()
		client.Close()
		server.Close()
		return
	}
	p.conns[client], p.conns[server] = true, true
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, pair := range [][2]net.Conn{{server, client}, {client, server}} {
		wg.Go(func() {
			_, _ = io.Copy(pair[0], thawedReader{p, pair[1]})
			pair[0].Close()
			pair[1].Close()
		})
	}
	wg.Wait()
	p.mu.Lock()
	delete(p.conns, client)
	delete(p.conns, server)
	p.mu.Unlock()
}

// cut closes the proxy's port and every connection through it.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
}

// restore opens the proxy's port again.
func (p *proxy) restore(t testing.TB) {
	t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatalf("reopening the proxy's port: %v", err)
	}
	p.start(ln)
}

// freeze holds every byte and every new connection until thaw.
func (p *proxy) freeze() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.thawed:
		p.thawed = make(chan struct{})
	default:
	}
}

// thaw lets bytes and connections through again.
func (p *proxy) thaw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.thawed:
	default:
		close(p.thawed)
	}
}

// waitThawed returns once the proxy is not frozen.
func (p *proxy) waitThawed() {
	p.mu.Lock()
	thawed := p.thawed
	p.mu.Unlock()
	<-thawed
}

// A thawedReader reads from r and holds what it read while p is frozen.
type thawedReader struct {
	p *proxy
	r io.Reader
}

func (t thawedReader) Read(b []byte) (int, error) {
	n, err := t.r.Read(b)
	t.p.waitThawed()
	return n, err
}
