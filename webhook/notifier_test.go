package webhook_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// TestNotifyDoesNotWaitForTheReceiver checks that Notify returns while a
// receiver hangs: the writer never waits for a delivery.
func TestNotifyDoesNotWaitForTheReceiver(t *testing.T) {
	w := newWorld(t)
	rc := newHangingReceiver(t)
	w.addHook(t, orgScope("octo-org"), rc.URL)
	n := newNotifier(t, webhook.Options{Store: w.hooks, Workers: 1, QueueSize: 100})
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")))
	rc.next(t) // the one worker now waits for the receiver
	returned := make(chan error)
	go func() {
		for i := range 50 {
			if err := n.Notify(context.Background(), newEvent(w.helloWorld, 1, octocat, setNotes(fmt.Sprint(i)))); err != nil {
				returned <- err
				return
			}
		}
		returned <- nil
	}()
	select {
	case err := <-returned:
		if err != nil {
			t.Fatalf("Notify: %v", err)
		}
	case <-time.After(waitBound):
		t.Fatalf("Notify did not return within %v while the receiver hung", waitBound)
	}
	if got := n.Queued(); got != 50 {
		t.Errorf("Queued() = %d, want the 50 events given since", got)
	}
}

// TestFailedDeliveries checks that a delivery that fails is recorded with
// what went wrong, as GitHub words it, counted as failed, and not sent
// again.
func TestFailedDeliveries(t *testing.T) {
	tests := []struct {
		name       string
		url        func(t *testing.T) (url string, got func() int)
		timeout    time.Duration
		wantStatus string
		wantCode   int
		wantBody   string
	}{
		{
			name:       "an answer of 500",
			url:        answering(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "boom", http.StatusInternalServerError) }),
			wantStatus: "Invalid HTTP Response: 500", wantCode: 500, wantBody: "boom\n",
		},
		{
			name: "a redirect, which is not followed",
			url: answering(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://127.0.0.1:1/elsewhere", http.StatusFound)
			}),
			wantStatus: "Invalid HTTP Response: 302", wantCode: 302,
		},
		{
			name:       "a refused connection",
			url:        refusing,
			wantStatus: "failed to connect to host",
		},
		{
			name:       "no answer within the timeout",
			url:        hanging,
			timeout:    100 * time.Millisecond,
			wantStatus: "timed out",
		},
		{
			name: "a connection closed before the answer",
			url: answering(func(w http.ResponseWriter, _ *http.Request) {
				conn, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					conn.Close()
				}
			}),
			wantStatus: "failed to read the answer",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			url, requests := tt.url(t)
			h := w.addHook(t, orgScope("octo-org"), url)
			n := newNotifier(t, webhook.Options{Store: w.hooks, Timeout: tt.timeout})
			notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")))
			closeNotifier(t, n)
			if got, want := n.Stats(), (webhook.Stats{Failed: 1}); got != want {
				t.Errorf("Stats() = %+v, want %+v", got, want)
			}
			if got := requests(); got > 1 {
				t.Errorf("the receiver got %d requests, want 1: no retry by default", got)
			}
			ds := deliveriesOf(t, w, h.ID)
			if len(ds) != 1 {
				t.Fatalf("recorded %d deliveries, want 1", len(ds))
			}
			d := ds[0]
			if d.Status != tt.wantStatus || d.StatusCode != tt.wantCode || string(d.Response.Body) != tt.wantBody {
				t.Errorf("recorded status %q, code %d, answer %q; want %q, %d, %q",
					d.Status, d.StatusCode, d.Response.Body, tt.wantStatus, tt.wantCode, tt.wantBody)
			}
		})
	}
}

// answering returns a url of the failure tests: a receiver that answers
// with answer, and the count of its requests.
func answering(answer http.HandlerFunc) func(t *testing.T) (string, func() int) {
	return func(t *testing.T) (string, func() int) {
		rc := newReceiver(t, answer)
		return rc.URL, func() int { return len(rc.received()) }
	}
}

// refusing is a url of the failure tests: an address where nothing
// listens.
func refusing(t *testing.T) (string, func() int) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/hook"
	ln.Close()
	return url, func() int { return 0 }
}

// hanging is a url of the failure tests: a receiver that never answers.
func hanging(t *testing.T) (string, func() int) {
	rc := newHangingReceiver(t)
	return rc.URL, func() int { return len(rc.received()) }
}

// deliveriesOf returns the deliveries recorded for hook id, oldest first,
// whole.
func deliveriesOf(t *testing.T, w *world, id int64) []webhook.Delivery {
	t.Helper()
	ctx := context.Background()
	listed, err := w.hooks.Deliveries(ctx, id, webhook.DeliveryQuery{Limit: webhook.KeptDeliveries})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]webhook.Delivery, len(listed))
	for i, d := range listed {
		whole, err := w.hooks.Delivery(ctx, id, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		out[len(listed)-1-i] = whole
	}
	return out
}

// TestRetries checks that with MaxAttempts above 1 a failed delivery is sent
// again, each attempt recorded with the event's GUID, until one succeeds or
// none is left.
func TestRetries(t *testing.T) {
	tests := []struct {
		name        string
		attempts    int
		answers     []int // the receiver's answers in turn; 200 after them
		wantStatus  []string
		wantDeliver bool
	}{
		{"succeeds on the third attempt", 3, []int{500, 503},
			[]string{"Invalid HTTP Response: 500", "Invalid HTTP Response: 503", "OK"}, true},
		{"fails every attempt", 3, []int{500, 500, 500, 500},
			[]string{"Invalid HTTP Response: 500", "Invalid HTTP Response: 500", "Invalid HTTP Response: 500"}, false},
		{"succeeds at once", 3, nil, []string{"OK"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			var count atomic.Int32
			rc := newReceiver(t, func(w http.ResponseWriter, _ *http.Request) {
				if i := int(count.Add(1)) - 1; i < len(tt.answers) {
					w.WriteHeader(tt.answers[i])
				}
			})
			h := w.addHook(t, orgScope("octo-org"), rc.URL)
			n := newNotifier(t, webhook.Options{Store: w.hooks, MaxAttempts: tt.attempts, RetryWait: time.Millisecond})
			notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")))
			closeNotifier(t, n)
			want := webhook.Stats{Failed: 1}
			if tt.wantDeliver {
				want = webhook.Stats{Delivered: 1}
			}
			if got := n.Stats(); got != want {
				t.Errorf("Stats() = %+v, want %+v", got, want)
			}
			got := rc.received()
			ds := deliveriesOf(t, w, h.ID)
			if len(got) != len(tt.wantStatus) || len(ds) != len(tt.wantStatus) {
				t.Fatalf("the receiver got %d requests and %d were recorded, want %d", len(got), len(ds), len(tt.wantStatus))
			}
			for i, d := range ds {
				if d.Status != tt.wantStatus[i] {
					t.Errorf("attempt %d recorded %q, want %q", i+1, d.Status, tt.wantStatus[i])
				}
				if guid := got[i].header.Get("X-Service-Delivery"); d.GUID != guid || guid != ds[0].GUID {
					t.Errorf("attempt %d has the GUID %q (recorded %q), want %q, the event's", i+1, guid, d.GUID, ds[0].GUID)
				}
				if d.Redelivery {
					t.Errorf("attempt %d is recorded as a redelivery", i+1)
				}
			}
		})
	}
}

// TestRecordedDelivery checks what a delivery's record holds: the request as
// sent and the answer as received.
func TestRecordedDelivery(t *testing.T) {
	w := newWorld(t)
	rc := newReceiver(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Answer", "yes")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, "thanks")
	})
	h := w.addHook(t, repoScope(w.helloWorld), rc.URL+"/hook", func(h *webhook.Hook) {
		h.Config.ContentType, h.Config.Secret = "form", "s3cret"
	})
	n := newNotifier(t, webhook.Options{Store: w.hooks})
	app := &issuefields.Principal{Login: "octo-app[bot]", Kind: issuefields.AppInstallationToken}
	before := time.Now().UTC()
	notify(t, n, newEvent(w.helloWorld, 1, app, setNotes("needs triage")))
	closeNotifier(t, n)
	after := time.Now().UTC()

	got, ds := rc.received(), deliveriesOf(t, w, h.ID)
	if len(got) != 1 || len(ds) != 1 {
		t.Fatalf("the receiver got %d deliveries and %d were recorded, want 1 and 1", len(got), len(ds))
	}
	sent, d := got[0], ds[0]
	installation, _ := member(sent.payload(t), "installation", "id").(float64)
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"HookID", d.HookID, h.ID},
		{"GUID", d.GUID, sent.header.Get("X-Service-Delivery")},
		{"Event", d.Event, "issues"},
		{"Action", d.Action, "field_added"},
		{"RepositoryID", d.RepositoryID, w.helloWorld.ID},
		{"InstallationID", d.InstallationID, int64(installation)},
		{"URL", d.URL, rc.URL + "/hook"},
		{"Redelivery", d.Redelivery, false},
		{"Status", d.Status, "OK"},
		{"StatusCode", d.StatusCode, http.StatusCreated},
		{"Request.Body", string(d.Request.Body), string(sent.body)},
		{"Request.Truncated", d.Request.Truncated, false},
		{"the recorded Content-Type", d.Request.Header.Get("Content-Type"), "application/x-www-form-urlencoded"},
		{"the recorded X-Service-Event", d.Request.Header.Get("X-Service-Event"), "issues"},
		{"the recorded signature", d.Request.Header.Get("X-Service-Signature-256"), sent.header.Get("X-Service-Signature-256")},
		{"Response.Body", string(d.Response.Body), "thanks"},
		{"the recorded answer's X-Answer", d.Response.Header.Get("X-Answer"), "yes"},
		{"Response.Truncated", d.Response.Truncated, false},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	if d.DeliveredAt.Before(before.Truncate(time.Second)) || d.DeliveredAt.After(after) || d.Duration <= 0 {
		t.Errorf("DeliveredAt %v and Duration %v, want a time between %v and %v and a positive duration",
			d.DeliveredAt, d.Duration, before, after)
	}
}

// TestRecordedBodiesAreCut checks that a record keeps MaxRecordedBody bytes
// of a longer request or answer, and says that it was cut; and that a
// delivery whose payload was cut cannot be sent again.
func TestRecordedBodiesAreCut(t *testing.T) {
	long := strings.Repeat("x", webhook.MaxRecordedBody+100)
	tests := []struct {
		name                          string
		issueBody, answer             string
		wantRequestCut, wantAnswerCut bool
	}{
		{name: "a long answer", answer: long, wantAnswerCut: true},
		{name: "a long payload", issueBody: long, answer: "ok", wantRequestCut: true},
		{name: "short ones", answer: "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			rc := newReceiver(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, tt.answer) })
			h := w.addHook(t, orgScope("octo-org"), rc.URL)
			n := newNotifier(t, webhook.Options{Store: w.hooks})
			e := newEvent(w.helloWorld, 1, octocat, setNotes("needs triage"))
			e.Issue.Body = tt.issueBody
			notify(t, n, e)
			d := w.hooks.waitRecorded(t, 1)[0]
			d, err := w.hooks.Delivery(context.Background(), h.ID, d.ID)
			if err != nil {
				t.Fatal(err)
			}
			sent := rc.next(t)
			for _, c := range []struct {
				what    string
				m       webhook.Message
				whole   []byte
				wantCut bool
			}{
				{"request", d.Request, sent.body, tt.wantRequestCut},
				{"answer", d.Response, []byte(tt.answer), tt.wantAnswerCut},
			} {
				want := c.whole
				if c.wantCut {
					want = c.whole[:webhook.MaxRecordedBody]
				}
				if c.m.Truncated != c.wantCut || string(c.m.Body) != string(want) {
					t.Errorf("the recorded %s has %d bytes, Truncated %v; want %d bytes, Truncated %v",
						c.what, len(c.m.Body), c.m.Truncated, len(want), c.wantCut)
				}
			}
			err = n.Redeliver(h, d)
			if tt.wantRequestCut && err == nil {
				t.Errorf("Redeliver of a delivery whose payload was cut returned nil, want an error")
			}
			if !tt.wantRequestCut && err != nil {
				t.Errorf("Redeliver: %v", err)
			}
		})
	}
}

// TestAnswerCutShort checks that a receiver that answers 2xx and then
// breaks off its answer has its status recorded, as GitHub records it: the
// delivery succeeded.
func TestAnswerCutShort(t *testing.T) {
	w := newWorld(t)
	rc := newReceiver(t, func(w http.ResponseWriter, _ *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npart of it")
		_ = buf.Flush()
	})
	h := w.addHook(t, orgScope("octo-org"), rc.URL)
	n := newNotifier(t, webhook.Options{Store: w.hooks})
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")))
	closeNotifier(t, n)
	if got, want := n.Stats(), (webhook.Stats{Delivered: 1}); got != want {
		t.Errorf("Stats() = %+v, want %+v", got, want)
	}
	ds := deliveriesOf(t, w, h.ID)
	if len(ds) != 1 {
		t.Fatalf("recorded %s, want one delivery", brief(ds...))
	}
	if d := ds[0]; d.Status != "OK" || d.StatusCode != 200 || string(d.Response.Body) != "part of it" {
		t.Errorf("recorded %s, answer %q; want an OK delivery with the part of the answer that came", brief(d), d.Response.Body)
	}
}
