package server

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"testing"
	"time"
)

// TestManyIdleConnections checks that, with the default flags, 5,000
// connections that send nothing or only part of their headers neither keep a
// normal request from its answer nor take the process past 200 MB: the
// server holds at most -max-conns of them, closing the one that waited
// longest for each new one.
func TestManyIdleConnections(t *testing.T) {
	s := startServer(t)
	u, err := url.Parse(s.base)
	if err != nil {
		t.Fatal(err)
	}
	path := u.Path + "repos/octo-org/hello-world/issues/1/issue-field-values"
	conns := make([]net.Conn, 0, 5000)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range cap(conns) {
		c, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		conns = append(conns, c)
		if i%2 == 1 {
			// Half of the headers, and then nothing. A write to a
			// connection the server closed already may fail.
			fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n", path, u.Host)
		}
	}

	client := &http.Client{Timeout: 10 * time.Second} // a bound on the wait, not a measure
	start := time.Now()
	resp, err := client.Get(s.base + path[len(u.Path):])
	if err != nil {
		t.Fatalf("a normal request among 5,000 idle connections: %v", err)
	}
	resp.Body.Close()
	t.Logf("answered in %v", time.Since(start))
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a normal request among 5,000 idle connections: status %d, want 200", resp.StatusCode)
	}

	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if inUse := m.HeapInuse + m.StackInuse; inUse > 200<<20 {
		t.Errorf("the process uses %d MB of heap and stacks with 5,000 idle connections, want at most 200 MB", inUse>>20)
	}
}
