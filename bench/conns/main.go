// Command conns is the client of bench/conns.sh: it opens -n connections to
// a server and holds them, then reports what the server's process (-pid)
// kept of them and holds for them in memory, how long an ordinary request on
// a new connection then takes to be answered, and how many of the held
// connections the server closed.
//
//	go run ./bench/conns -addr 127.0.0.1:18090 -pid 1234 -n 5000 -mode idle -tls
//
// A held connection sends nothing (-mode silent), part of a request's
// headers (-mode partial), or one whole request, whose answer it reads,
// and then nothing (-mode idle: a kept-alive connection, idle between
// requests). With -tls, an idle connection does its TLS handshake first; a
// silent or partial one sends its bytes without a handshake, as a client
// that never starts it.
package main

import (
	"bufio"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// settle is how long the client waits after opening the connections, and
// after the ordinary request, before it reads the server's memory and counts
// the connections the server closed.
const settle = 2 * time.Second

func main() {
	addr := flag.String("addr", "127.0.0.1:18090", "`host:port` of the server")
	pid := flag.Int("pid", 0, "`process id` of the server, whose resident memory is read from /proc")
	n := flag.Int("n", 1000, "connections to open and hold")
	mode := flag.String("mode", "idle", "what each held connection sends: silent (nothing), partial (part of a request's headers) or idle (one request)")
	useTLS := flag.Bool("tls", false, "the server serves HTTPS")
	flag.Parse()
	if *mode != "silent" && *mode != "partial" && *mode != "idle" {
		log.Fatalf("conns: -mode %q: want silent, partial or idle", *mode)
	}
	c := client{addr: *addr, tls: *useTLS}
	before := residentKB(*pid)
	var closed atomic.Int64
	for range *n {
		conn := c.hold(*mode)
		go func() {
			// A held connection reads nothing more; a read ends when the
			// server closes it.
			_, _ = conn.Read(make([]byte, 1))
			closed.Add(1)
		}()
	}
	time.Sleep(settle)
	held := residentKB(*pid)
	kept := int64(*n) - closed.Load()
	start := time.Now()
	status := c.ordinary()
	took := time.Since(start)
	time.Sleep(settle)
	over := ""
	if *useTLS {
		over = " over TLS"
	}
	fmt.Printf("%d %s connections%s: the server kept %d, RSS %.1f MB before, %.1f MB after (%.1f KB a kept connection); "+
		"then an ordinary GET on a new connection was answered %s in %s, and %d of the held connections were closed by the server in all\n",
		*n, *mode, over, kept, float64(before)/1024, float64(held)/1024, float64(held-before)/float64(kept),
		status, took.Round(100*time.Microsecond), closed.Load())
}

// client opens connections to a server at addr, over TLS if tls.
type client struct {
	addr string
	tls  bool
}

// request is the request of an idle and of the ordinary connection.
const request = "GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n"

// hold opens a connection that sends what mode says, and returns it.
func (c client) hold(mode string) net.Conn {
	conn, err := net.Dial("tcp", c.addr)
	if err != nil {
		log.Fatalf("conns: %v", err)
	}
	switch mode {
	case "partial":
		_, err = io.WriteString(conn, request[:strings.Index(request, "\r\n")+2])
	case "idle":
		conn = c.secure(conn)
		_, err = c.exchange(conn)
	}
	if err != nil {
		log.Fatalf("conns: a held connection: %v", err)
	}
	return conn
}

// ordinary makes one request on a new connection and returns its answer's
// status, or the error that it got.
func (c client) ordinary() string {
	conn, err := net.Dial("tcp", c.addr)
	if err != nil {
		return err.Error()
	}
	defer conn.Close()
	conn = c.secure(conn)
	status, err := c.exchange(conn)
	if err != nil {
		return err.Error()
	}
	return strconv.Itoa(status)
}

// secure returns conn over TLS if the server serves HTTPS. The server is the
// bench's own, on loopback, with a certificate made for the run: it is not
// verified.
func (c client) secure(conn net.Conn) net.Conn {
	if !c.tls {
		return conn
	}
	return tls.Client(conn, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"http/1.1"}})
}

// exchange sends request on conn and reads its answer, within ten seconds.
func (c client) exchange(conn net.Conn) (int, error) {
	if err := conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		return 0, err
	}
	if _, err := io.WriteString(conn, request); err != nil {
		return 0, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, errors.Join(err, conn.SetDeadline(time.Time{}))
}

// residentKB returns the resident memory of the process pid, in KB, from
// /proc/PID/status.
func residentKB(pid int) int {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		log.Fatalf("conns: %v", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				log.Fatalf("conns: VmRSS %q: %v", v, err)
			}
			return kb
		}
	}
	log.Fatalf("conns: /proc/%d/status has no VmRSS", pid)
	return 0
}
