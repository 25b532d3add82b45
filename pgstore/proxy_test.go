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
// port again.
type proxy struct {
	network, target string // the database server's address
	addr            string // the proxy's address

	mu    sync.Mutex
	ln    net.Listener // nil while cut
	conns map[net.Conn]bool
}

// newProxy starts a proxy to the server that cfg connects to, and returns it
// with a copy of cfg that connects through it. The proxy is cut when t ends.
func newProxy(t testing.TB, cfg *pgxpool.Config) (*proxy, *pgxpool.Config) {
	t.Helper()
	p := &proxy{network: "tcp", target: net.JoinHostPort(cfg.ConnConfig.Host, fmt.Sprint(cfg.ConnConfig.Port)),
		conns: make(map[net.Conn]bool)}
	if filepath.IsAbs(cfg.ConnConfig.Host) {
		p.network, p.target = "unix", filepath.Join(cfg.ConnConfig.Host, fmt.Sprintf(".s.PGSQL.%d", cfg.ConnConfig.Port))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.start(ln)
	t.Cleanup(p.cut)

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
			_, _ = io.Copy(pair[0], pair[1])
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
