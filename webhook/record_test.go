package webhook_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/webhook"
)

// answerWithHeaders returns a receiver's answer of 200 with headers of about
// size bytes, each value 1 KiB long, and then body.
func answerWithHeaders(size int, body string) http.HandlerFunc {
	value := strings.Repeat("v", 1<<10)
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := range size >> 10 {
			w.Header().Set(fmt.Sprintf("X-Filler-%d", i), value)
		}
		_, _ = w.Write([]byte(body))
	}
}

// recordedSize returns the size of m as a record counts it: each header
// value as its line "Name: value\r\n", and the body.
func recordedSize(m webhook.Message) int {
	n := len(m.Body)
	for name, values := range m.Header {
		for _, v := range values {
			n += len(name) + len(": ") + len(v) + len("\r\n")
		}
	}
	return n
}

// deliverOnce sends one event to a hook of rc's URL through a Notifier of
// opts, and returns the delivery as the store keeps it, whole.
func deliverOnce(t *testing.T, opts webhook.Options, url string, change ...func(*webhook.Hook)) webhook.Delivery {
	t.Helper()
	w := newWorld(t)
	h := w.addHook(t, orgScope("octo-org"), url, change...)
	opts.Store = w.hooks
	n := newNotifier(t, opts)
	notify(t, n, newEvent(w.helloWorld, 1, octocat, setNotes("needs triage")))
	d, err := w.hooks.Delivery(context.Background(), h.ID, w.hooks.waitRecorded(t, 1)[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAnswerHeadersTooLarge checks that a receiver that answers with more
// headers than the client reads fails the delivery: it is recorded with the
// status that says why, no status code and no answer. Over HTTP/2, headers
// far over the bound end the connection, which net/http reports as a
// protocol error: the status is then that of an answer that could not be
// read.
func TestAnswerHeadersTooLarge(t *testing.T) {
	const tooLarge, unread = "Invalid HTTP Response: headers too large", "failed to read the answer"
	for _, tt := range []struct {
		name       string
		http2      bool
		headers    int
		wantStatus string
	}{
		{"4 MiB over HTTP/1.1", false, 4 << 20, tooLarge},
		{"70 KiB over HTTP/2", true, 70 << 10, tooLarge},
		{"4 MiB over HTTP/2", true, 4 << 20, unread},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rc := httptest.NewUnstartedServer(answerWithHeaders(tt.headers, "ok"))
			if tt.http2 {
				rc.EnableHTTP2 = true
				rc.StartTLS()
			} else {
				rc.Start()
			}
			t.Cleanup(rc.Close)
			var trustTestCertificate []func(*webhook.Hook)
			if tt.http2 {
				trustTestCertificate = append(trustTestCertificate, func(h *webhook.Hook) { h.Config.InsecureSSL = "1" })
			}
			d := deliverOnce(t, webhook.Options{}, rc.URL, trustTestCertificate...)
			if d.Status != tt.wantStatus || d.StatusCode != 0 {
				t.Errorf("the delivery is recorded with status %q and code %d, want %q and 0", d.Status, d.StatusCode, tt.wantStatus)
			}
			if size := recordedSize(d.Response); size != 0 {
				t.Errorf("the record keeps %d bytes of the answer, want none", size)
			}
			if size := recordedSize(d.Request); size > webhook.MaxRecordedBody {
				t.Errorf("the record keeps %d bytes of the request, want a small one", size)
			}
		})
	}
}

// TestRecordedAnswerIsBounded checks that a record keeps at most
// MaxRecordedResponse bytes of an answer, headers and body together, and
// says that it was cut: with the Notifier's client, an answer of 60 KiB of
// headers and a 1 MiB body keeps its headers and the start of its body;
// with a host's client that reads 200 KiB of headers, the record keeps some
// of them, each whole, and no body.
func TestRecordedAnswerIsBounded(t *testing.T) {
	body := strings.Repeat("0123456789abcdef", 1<<16)
	for _, tt := range []struct {
		name        string
		client      *http.Client
		headers     int
		wantHeaders bool // all of them
	}{
		{"60 KiB of headers and 1 MiB of body", nil, 60 << 10, true},
		{"200 KiB of headers read by a host's client", &http.Client{}, 200 << 10, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rc := httptest.NewServer(answerWithHeaders(tt.headers, body))
			t.Cleanup(rc.Close)
			d := deliverOnce(t, webhook.Options{Client: tt.client}, rc.URL)
			if d.Status != "OK" || d.StatusCode != http.StatusOK {
				t.Fatalf("the delivery is recorded with status %q and code %d, want OK and 200", d.Status, d.StatusCode)
			}
			if size := recordedSize(d.Response); size > webhook.MaxRecordedResponse || size < webhook.MaxRecordedResponse-2<<10 {
				t.Errorf("the record keeps %d bytes of the answer, want at most %d, and not much less", size, webhook.MaxRecordedResponse)
			}
			if !d.Response.Truncated {
				t.Errorf("the record of the answer is not marked as cut")
			}
			fillers := 0
			for name, values := range d.Response.Header {
				if strings.HasPrefix(name, "X-Filler-") {
					fillers++
					if len(values) != 1 || len(values[0]) != 1<<10 {
						t.Errorf("the record keeps %s with %d values, want its one value whole", name, len(values))
					}
				}
			}
			if tt.wantHeaders && fillers != tt.headers>>10 || !tt.wantHeaders && (fillers == 0 || fillers >= tt.headers>>10) {
				t.Errorf("the record keeps %d of the %d headers the receiver sent", fillers, tt.headers>>10)
			}
			if !strings.HasPrefix(body, string(d.Response.Body)) || tt.wantHeaders && len(d.Response.Body) == 0 {
				t.Errorf("the record keeps %d bytes of the body, want its start", len(d.Response.Body))
			}
		})
	}
}

// TestRecordedHeadersAreValidUTF8 checks that a record keeps an answer's
// header value that is not valid UTF-8 with U+FFFD for each invalid byte,
// so that every Store keeps it as it is recorded.
func TestRecordedHeadersAreValidUTF8(t *testing.T) {
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Latin-1", "caf\xe9")
		w.Header().Set("X-Utf-8", "café")
	}))
	t.Cleanup(rc.Close)
	d := deliverOnce(t, webhook.Options{}, rc.URL)
	if got, want := d.Response.Header["X-Latin-1"], []string{"caf\uFFFD"}; !slices.Equal(got, want) {
		t.Errorf("the record keeps X-Latin-1: %q, want %q", got, want)
	}
	if got, want := d.Response.Header["X-Utf-8"], []string{"café"}; !slices.Equal(got, want) {
		t.Errorf("the record keeps X-Utf-8: %q, want %q", got, want)
	}
	if d.Response.Truncated {
		t.Errorf("the record of a small answer is marked as cut")
	}
}
