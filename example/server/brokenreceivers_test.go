package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// The bounds of TestBrokenReceivers. None is a measure of speed: each is far
// beyond what the outcome it guards needs.
const (
	// brokenWrites is how many writes the test makes: one event each, with
	// one changed field, to one hook.
	brokenWrites = 1000
	// brokenQueue is the Notifier's queue size, smaller than brokenWrites
	// so that the queue fills.
	brokenQueue = 64
	// writesBound bounds the whole run of writes.
	writesBound = 2 * time.Minute
	// closeBound is how long Close may deliver what is left.
	closeBound = 2 * time.Second
	// heapGrowthBound bounds the growth of the live heap over the run: the
	// store keeps the last webhook.KeptDeliveries deliveries of the hook,
	// a few MiB; a queue or a record that grows with the writes would take
	// more.
	heapGrowthBound = 64 << 20
)

// brokenReceiver is a receiver that never answers a delivery well.
type brokenReceiver struct {
	name string
	// serve answers a delivery; it returns when it is done, or when release
	// is closed.
	serve func(w http.ResponseWriter, r *http.Request, release <-chan struct{})
}

var brokenReceivers = []brokenReceiver{
	{"hangs", func(w http.ResponseWriter, r *http.Request, release <-chan struct{}) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}},
	{"answers 500", func(w http.ResponseWriter, r *http.Request, _ <-chan struct{}) {
		http.Error(w, "receiver is broken", http.StatusInternalServerError)
	}},
	{"closes the connection mid-answer", func(w http.ResponseWriter, r *http.Request, _ <-chan struct{}) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		defer conn.Close()
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nthe first bytes of an answer that never ends")
		_ = buf.Flush()
	}},
}

// TestBrokenReceivers runs 1,000 writes through the handler with the
// example's organization hook (ensureHooks) pointing at a receiver that
// hangs, answers 500, or closes the connection mid-answer, and checks the
// outcomes: every write answers 200 without waiting for a delivery, the
// queue never holds more than its size, the heap does not grow with the
// writes, every event is accounted for in Stats once Close returns, and the
// drops are logged a few times with a count, not once each.
func TestBrokenReceivers(t *testing.T) {
	for _, rc := range brokenReceivers {
		t.Run(rc.name, func(t *testing.T) {
			release := make(chan struct{})
			var deliveries atomic.Int64
			receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				deliveries.Add(1)
				rc.serve(w, r, release)
			}))
			defer receiver.Close()
			defer close(release)

			d := loadDemo(t)
			if err := ensureHooks(context.Background(), d, receiver.URL, "secret"); err != nil {
				t.Fatal(err)
			}
			logs := new(lockedBuffer)
			hooks, err := webhook.New(webhook.Options{Store: d.store.Hooks, Directory: d.File.Directory(),
				QueueSize: brokenQueue, Logger: slog.New(slog.NewTextHandler(logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			h, err := issuefields.New(issuefields.Config{Store: d.store.Data, Verifier: d.Tokens, Notifier: hooks,
				WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1}, Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}

			heapBefore := liveHeap()
			stopSampling, maxQueued := sampleQueue(hooks)
			start := time.Now()
			slowest := writeMany(t, h, brokenWrites)
			elapsed := time.Since(start)
			stopSampling()

			// A write that waited for a delivery would take as long as
			// the receiver's bound, which a hanging receiver reaches.
			if slowest >= webhook.DefaultTimeout/2 {
				t.Errorf("the slowest write took %v: writes wait for the receiver", slowest)
			}
			if q := maxQueued(); q > brokenQueue {
				t.Errorf("the queue held %d, more than its size %d", q, brokenQueue)
			}
			if grown := int64(liveHeap()) - int64(heapBefore); grown > heapGrowthBound {
				t.Errorf("the live heap grew by %d MiB over the writes, more than %d MiB", grown>>20, heapGrowthBound>>20)
			}

			ctx, cancel := context.WithTimeout(context.Background(), closeBound)
			defer cancel()
			closeErr := hooks.Close(ctx)
			s := hooks.Stats()
			t.Logf("%d writes in %v, the slowest %v; the queue held at most %d; Close: %v; %+v",
				brokenWrites, elapsed, slowest, maxQueued(), closeErr, s)
			if sum := s.Delivered + s.Failed + s.Dropped + s.Abandoned; sum != brokenWrites {
				t.Errorf("Stats %+v (Close: %v) account for %d events, want %d", s, closeErr, sum, brokenWrites)
			}
			if s.Delivered+s.Failed+s.Abandoned == 0 || deliveries.Load() == 0 {
				t.Errorf("Stats %+v, %d requests to the receiver: nothing was delivered at all", s, deliveries.Load())
			}
			if rc.name != "closes the connection mid-answer" && s.Delivered != 0 {
				t.Errorf("Stats %+v: a receiver that %s got deliveries counted as delivered", s, rc.name)
			}
			dropLines := strings.Count(logs.String(), `msg="webhook: dropped events"`)
			if most := 2 + int(elapsed/(10*time.Second)); s.Dropped > 0 && (dropLines < 1 || dropLines > most) {
				t.Errorf("%d drops logged in %d lines, want 1 to %d in %v", s.Dropped, dropLines, most, elapsed)
			}
		})
	}
}

// writeMany makes n writes through h, each of which changes one field of one
// issue, and returns the duration of the slowest. It fails the test for a
// write that does not answer 200, and when the writes take longer than
// writesBound.
func writeMany(t *testing.T, h http.Handler, n int) (slowest time.Duration) {
	t.Helper()
	done := make(chan time.Duration, 1)
	go func() {
		var slowest time.Duration
		for i := range n {
			body := fmt.Sprintf(`{"issue_field_values": [{"field_id": 2, "value": %d}]}`, i+1)
			r := httptest.NewRequest(http.MethodPost, "/repos/octo-org/hello-world/issues/3/issue-field-values", strings.NewReader(body))
			r.Header.Set("Authorization", "Bearer demo-writer-token")
			w := httptest.NewRecorder()
			start := time.Now()
			h.ServeHTTP(w, r)
			slowest = max(slowest, time.Since(start))
			if w.Code != http.StatusOK {
				t.Errorf("write %d = %d %s", i+1, w.Code, w.Body)
				break
			}
		}
		done <- slowest
	}()
	select {
	case slowest = <-done:
		return slowest
	case <-time.After(writesBound):
		t.Fatalf("%d writes took more than %v", n, writesBound)
		return 0
	}
}

// sampleQueue samples n.Queued until stop is called, and returns the most
// it saw.
func sampleQueue(n *webhook.Notifier) (stop func(), most func() int) {
	var highest atomic.Int64
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			highest.Store(max(highest.Load(), int64(n.Queued())))
			select {
			case <-quit:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	}()
	return func() { close(quit); wg.Wait() }, func() int { return int(highest.Load()) }
}

// liveHeap returns the bytes of the heap's live objects, after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
