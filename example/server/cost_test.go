package server

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/issuefields/issuefields"
)

// BenchmarkLogCost measures a list and a write of bench/data.json's issues
// through the handler as the example builds it, at -log-level debug (a line
// per request and a line per event, written off the request's path to a
// discarding destination), info (the default: a line per request) and warn
// (neither), so that what the log costs a request is read from one run.
func BenchmarkLogCost(b *testing.B) {
	data, err := os.ReadFile("../../bench/data.json")
	if err != nil {
		b.Fatal(err)
	}
	body, err := os.ReadFile("../../bench/write.json")
	if err != nil {
		b.Fatal(err)
	}
	other := strings.Replace(string(body), `"field_id":5,"value":5`, `"field_id":5,"value":6`, 1)
	for _, level := range []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn} {
		d, err := load(data)
		if err != nil {
			b.Fatal(err)
		}
		logger, closeLog := newLogger(logText, level, io.Discard)
		notifier, _, err := newNotifier(options{}, logger)
		if err != nil {
			b.Fatal(err)
		}
		h, err := issuefields.New(issuefields.Config{Store: d.store, Verifier: d.tokens, Logger: logger, Notifier: notifier,
			WriteLimits: issuefields.WriteLimits{PerMinute: -1, PerHour: -1}})
		if err != nil {
			b.Fatal(err)
		}
		serve := func(b *testing.B, method, path string, body string) {
			req := httptest.NewRequest(method, path, strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer bench-token")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body)
			}
		}
		b.Run("list/"+level.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				serve(b, "GET", "/repos/bench-org/bench-repo/issues/1/issue-field-values", "")
			}
		})
		b.Run("write/"+level.String(), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				if i%2 == 0 {
					serve(b, "POST", "/repos/bench-org/bench-repo/issues/2/issue-field-values", string(body))
				} else {
					serve(b, "POST", "/repos/bench-org/bench-repo/issues/2/issue-field-values", other)
				}
			}
		})
		closeLog()
	}
}
