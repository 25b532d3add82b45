package server

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
)

// textHandlerOutput returns what slog.TextHandler writes for r.
func textHandlerOutput(t testing.TB, r slog.Record) string {
	var out bytes.Buffer
	if err := slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}).Handle(context.Background(), r); err != nil {
		t.Fatalf("TextHandler.Handle: %v", err)
	}
	return out.String()
}

// usedFormatter is a textFormatter that the tests share, so that each
// formats its lines after a time of another test was kept, as well as with
// a formatter of its own.
var usedFormatter textFormatter

// formatters returns the formatters a line is checked with: a new one, and
// usedFormatter twice, the second time with the line's own time kept.
func formatters() []*textFormatter {
	return []*textFormatter{new(textFormatter), &usedFormatter, &usedFormatter}
}

// checkTextRecord checks that appendTextRecord writes r as slog.TextHandler
// does, after a prefix it keeps, or reports ok false, keeping only the
// prefix, exactly when wantOK is false.
func checkTextRecord(t testing.TB, r slog.Record, wantOK bool) {
	t.Helper()
	const prefix = "earlier line\n"
	for _, f := range formatters() {
		got, ok := f.appendTextRecord([]byte(prefix), &r)
		switch {
		case ok != wantOK:
			t.Errorf("appendTextRecord(%v) ok = %v, want %v", r, ok, wantOK)
		case !ok && string(got) != prefix:
			t.Errorf("appendTextRecord(%v) refused the record but changed the buffer to %q", r, got)
		case ok && string(got) != prefix+textHandlerOutput(t, r):
			t.Errorf("appendTextRecord(%v) wrote\n%q\nslog.TextHandler writes\n%q", r, string(got)[len(prefix):], textHandlerOutput(t, r))
		}
	}
}

func TestTextRecord(t *testing.T) {
	at := time.Date(2026, 3, 10, 12, 0, 0, 123456789, time.UTC)
	zone := time.FixedZone("", -(3*3600 + 30*60))
	record := func(tm time.Time, level slog.Level, msg string, attrs ...slog.Attr) slog.Record {
		r := slog.NewRecord(tm, level, msg, 0)
		r.AddAttrs(attrs...)
		return r
	}
	for _, tc := range []struct {
		name string
		r    slog.Record
		ok   bool
	}{
		{"request line", record(at, slog.LevelInfo, "request", slog.String("request_id", "SPNFE4EUTK-1"), slog.String("method", "GET"),
			slog.String("route", "GET /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"), slog.Int("status", 200),
			slog.Duration("duration", 83925*time.Nanosecond), slog.String("login", "octocat")), true},
		{"empty login and message", record(at, slog.LevelInfo, "", slog.String("login", "")), true},
		{"zero time", record(time.Time{}, slog.LevelInfo, "request"), true},
		{"the same second in another zone", record(at.In(zone), slog.LevelInfo, "m"), true},
		{"a time zone, and a whole second", record(time.Date(2026, 1, 2, 3, 4, 5, 0, zone), slog.LevelWarn, "m"), true},
		{"levels between the named ones", record(at, slog.LevelInfo+2, "m", slog.Int64("n", -7)), true},
		{"debug and error", record(at, slog.LevelDebug-1, "m", slog.Bool("b", true), slog.Uint64("u", math.MaxUint64)), true},
		{"floats", record(at, slog.LevelError, "m", slog.Float64("f", 2.5), slog.Float64("big", 1e21), slog.Float64("nan", math.NaN()),
			slog.Float64("inf", math.Inf(-1))), true},
		{"strings slog quotes", record(at, slog.LevelInfo, "two words", slog.String("eq", "a=b"), slog.String("quote", `say "hi"`), slog.String("backslash and space", `a\ b`),
			slog.String("tab", "a\tb"), slog.String("newline", "a\nb"), slog.String("nbsp", "a\u00a0b"),
			slog.String("em space", "a\u2003b"), slog.String("invalid", "a\xffb"), slog.String("zero width", "a\u200bb")), true},
		{"strings slog leaves as they are", record(at, slog.LevelInfo, "m", slog.String("backslash", `a\b`), slog.String("del", "a\x7fb"), slog.String("micro", "83.9µs"),
			slog.String("braces", "{owner}/x"), slog.String("accent", "Émile"), slog.String("emoji", "🚀")), true},
		{"keys slog quotes", record(at, slog.LevelInfo, "m", slog.String("a key", "v"), slog.String("k=v", "v")), true},
		{"durations", record(at, slog.LevelInfo, "m", slog.Duration("d0", 0), slog.Duration("d", -90*time.Minute)), true},

		{"a group", record(at, slog.LevelDebug, "event", slog.Group("field_5", slog.Int("before", 5), slog.Int("after", 6))), false},
		{"a value of any type", record(at, slog.LevelInfo, "m", slog.Any("error", context.Canceled)), false},
		{"a time", record(at, slog.LevelInfo, "m", slog.Time("at", at)), false},
		{"an empty attribute", record(at, slog.LevelInfo, "m", slog.Attr{}), false},
		{"an empty key", record(at, slog.LevelInfo, "m", slog.String("", "v")), false},
	} {
		t.Run(tc.name, func(t *testing.T) { checkTextRecord(t, tc.r, tc.ok) })
	}
}

// FuzzTextRecord holds appendTextRecord to slog.TextHandler's output for
// records of every kind it writes itself, with any strings.
func FuzzTextRecord(f *testing.F) {
	f.Add("request", "route", "/repos/{owner}", int64(200), int64(83925), 2.5, int64(1773144000123456789), int8(0))
	f.Add("", "", "a b", int64(-1), int64(-90), math.Inf(1), int64(0), int8(2))
	f.Add("µ=\"", "k\x00", "\u00a0\xff", int64(0), int64(1), -0.0, int64(-62135596800000000), int8(-4))
	f.Fuzz(func(t *testing.T, msg, key, value string, n, d int64, fl float64, nanos int64, level int8) {
		r := slog.NewRecord(time.Unix(0, nanos), slog.Level(level), msg, 0)
		r.AddAttrs(slog.String(key, value), slog.Int64("n", n), slog.Duration("d", time.Duration(d)), slog.Float64("f", fl),
			slog.String(value, key), slog.Bool("b", n%2 == 0))
		checkTextRecord(t, r, key != "" && value != "")
	})
}

// FuzzRequestLine holds appendRequestLine to what slog.TextHandler writes for
// the line's record.
func FuzzRequestLine(f *testing.F) {
	f.Add("SPNFE4EUTK-1", "GET", "GET /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values", 200, int64(83925), "octocat", int64(1773144000123456789), int32(0))
	f.Add("", "HEAD", "/", 499, int64(-1), "", int64(0), int32(-(3*3600 + 30*60)))
	f.Add("a=b", "G\x00T", "\u00a0\xff", -1, int64(1<<62), "pr-bot[bot]", int64(-62135596800000000), int32(5*3600+45*60+7))
	f.Fuzz(func(t *testing.T, id, method, route string, status int, duration int64, login string, nanos int64, offset int32) {
		// A zone of its own for each line: a formatter keeps the text of
		// a second only for the location it was written in.
		at := time.Unix(0, nanos).In(time.FixedZone("", int(offset%(24*3600))))
		line := issuefields.RequestLine{Time: at, ID: id, Method: method, Route: route, Status: status,
			Duration: time.Duration(duration), Login: login}
		const prefix = "earlier line\n"
		want := prefix + textHandlerOutput(t, line.Record())
		for _, f := range formatters() {
			if got := string(f.appendRequestLine([]byte(prefix), &line)); got != want {
				t.Errorf("appendRequestLine(%+v) wrote\n%q\nslog.TextHandler writes\n%q", line, got, want)
			}
		}
	})
}
