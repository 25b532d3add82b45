package server

import (
	"context"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
)

// requestLine matches a line of TestLogLosesNoLine's goroutines.
var requestLine = regexp.MustCompile(`^time=\S+ level=INFO msg=request g=(\d+) i=(\d+) pad=x{100}$`)

// TestLogLosesNoLine checks that the buffered log writes out every line,
// whole and in the order each goroutine logged it, once it is closed, and
// that a warning goes out at once, after every line logged before it.
func TestLogLosesNoLine(t *testing.T) {
	out := new(lockedBuffer)
	logger, closeLog := newLogger(logText, slog.LevelInfo, out)
	const goroutines, lines = 8, 2000 // enough to fill the buffer several times
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range lines {
				logger.Info("request", "g", g, "i", i, "pad", strings.Repeat("x", 100))
			}
		}()
	}
	wg.Wait()
	logger.Warn("failure")
	written := out.String()
	if !strings.HasSuffix(written, "msg=failure\n") {
		t.Errorf("the warning was not written at once, after the lines before it; the log ends %q", written[max(0, len(written)-200):])
	}
	logger.Info("last")
	closeLog()

	next := make([]int, goroutines) // the i each goroutine's next line must have
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		m := requestLine.FindStringSubmatch(line)
		if m == nil {
			if !strings.HasSuffix(line, "msg=failure") && !strings.HasSuffix(line, "msg=last") {
				t.Fatalf("line %q is not one that was logged", line)
			}
			continue
		}
		g, _ := strconv.Atoi(m[1])
		i, _ := strconv.Atoi(m[2])
		if i != next[g] {
			t.Fatalf("goroutine %d: line %d, want %d", g, i, next[g])
		}
		next[g]++
	}
	for g, n := range next {
		if n != lines {
			t.Errorf("goroutine %d: %d lines written, want %d", g, n, lines)
		}
	}
	if !strings.HasSuffix(out.String(), "msg=last\n") {
		t.Error("the line logged last before the close is not written")
	}
}

// TestTextLogMatchesSlog checks that the text log writes what a
// slog.TextHandler writes, line for line, for records that it formats
// itself and for those it leaves to slog: groups, values of any type,
// loggers with attributes or a group of their own, warnings.
func TestTextLogMatchesSlog(t *testing.T) {
	out := new(lockedBuffer)
	logger, closeLog := newLogger(logText, slog.LevelDebug, out)
	var want strings.Builder
	reference := slog.New(slog.NewTextHandler(&want, &slog.HandlerOptions{Level: slog.LevelDebug}))
	for _, l := range []struct{ ours, slogs *slog.Logger }{
		{logger, reference},
		{logger.With("component", "webhook"), reference.With("component", "webhook")},
		{logger.WithGroup("g"), reference.WithGroup("g")},
	} {
		for _, log := range []func(*slog.Logger){
			func(l *slog.Logger) {
				l.Info("request", "request_id", "ID-1", "method", "GET", "route", "/repos/{owner}", "status", 200, "duration", 83925*time.Nanosecond, "login", "")
			},
			func(l *slog.Logger) { l.Debug("event", slog.Group("field_5", "before", 5, "after", 6)) },
			func(l *slog.Logger) { l.Info("two words", "error", context.Canceled, "at", time.Unix(0, 0)) },
			func(l *slog.Logger) { l.Warn("failure", "cause", "a b") },
		} {
			log(l.ours)
			log(l.slogs)
		}
		// The handler gives a request's line to a RequestLogHandler
		// without a record.
		line := issuefields.RequestLine{Time: time.Now(), ID: "ID-2", Method: "GET", Route: "GET /repos/{owner}", Status: 200,
			Duration: 83925 * time.Nanosecond, Login: "octocat"}
		lh, ok := l.ours.Handler().(issuefields.RequestLogHandler)
		if !ok {
			t.Fatalf("the log's handler %T is not a RequestLogHandler", l.ours.Handler())
		}
		if err := lh.LogRequest(context.Background(), line); err != nil {
			t.Fatal(err)
		}
		if err := l.slogs.Handler().Handle(context.Background(), line.Record()); err != nil {
			t.Fatal(err)
		}
	}
	closeLog()
	// The lines' times differ by when each was logged; the rest must not.
	times := regexp.MustCompile(`(?m)^time=\S+ `)
	got, wantLines := times.ReplaceAllString(out.String(), ""), times.ReplaceAllString(want.String(), "")
	if got != wantLines {
		t.Errorf("the text log wrote\n%s\nslog.TextHandler writes\n%s", got, wantLines)
	}
}
