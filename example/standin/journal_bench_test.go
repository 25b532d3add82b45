package standin_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/issuefields/issuefields/example/standin"
)

// discard is a ResponseWriter that counts what is written and keeps none of
// it, so that a benchmark measures what the handler holds, not the client.
type discard struct {
	header http.Header
	n      int
}

func (d *discard) Header() http.Header         { return d.header }
func (d *discard) WriteHeader(int)             {}
func (d *discard) Write(p []byte) (int, error) { d.n += len(p); return len(p), nil }

// BenchmarkRequestsAnswer measures GET /_issuefields/requests of a journal
// filled to its bounds: 1,000 writes with a 2 KiB path and query and a body
// of 6 KiB (both the count and nearly all of the byte budget), and writes
// with the largest body a record keeps (the byte budget, with fewer
// records). It reports the records answered and the answer's size.
func BenchmarkRequestsAnswer(b *testing.B) {
	for _, bc := range []struct {
		name     string
		bodySize int
	}{
		{"1000 records of 8 KiB", 6 << 10},
		{"records of 66 KiB", maxBody},
	} {
		b.Run(bc.name, func(b *testing.B) {
			j := new(standin.Journal)
			fill(j, bc.bodySize)
			tools := standin.New(standin.Config{Hosts: []string{"127.0.0.1:8080"}, Journal: j})
			req := httptest.NewRequest("GET", "http://127.0.0.1:8080/_issuefields/requests", nil)
			req.RemoteAddr = "127.0.0.1:5000"
			var w *discard
			b.ReportAllocs()
			for b.Loop() {
				w = &discard{header: http.Header{}}
				tools.ServeHTTP(w, req)
			}
			b.ReportMetric(float64(len(j.Requests())), "records")
			b.ReportMetric(float64(w.n)/(1<<20), "MiB/answer")
		})
	}
}
