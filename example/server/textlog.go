package server

import (
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/issuefields/issuefields"
)

// textFormatter writes lines as slog.TextHandler writes them, byte for byte,
// for the records and request lines it can. It keeps the text of the last
// second it wrote, so that the lines of one second format their date and
// time once. It is not safe for concurrent use.
type textFormatter struct {
	// second is the Unix second, and loc the location, of the time that
	// head and zone were cut from: head is its date and time up to the
	// second ("2006-01-02T15:04:05"), zone its zone ("Z", "-07:00"); head
	// is empty until a time was written.
	second     int64
	loc        *time.Location
	head, zone []byte
}

// appendTextRecord appends r to b as slog.TextHandler writes it, byte for
// byte, when r holds only attributes of plain kinds (strings, integers,
// booleans, floats, durations), as the request lines do, and the handler
// has no options but a level, no attributes of its own and no group. It
// returns ok false, and b as it was, for any other record, which
// the caller gives to a slog.TextHandler. The log formats the records of
// plain kinds with it (events, and request lines that reach it as records,
// under a logger with attributes) because slog's handler, general as it is,
// took about a tenth of a list's CPU to format a request's line;
// TestTextRecord and FuzzTextRecord hold the two to the same output.
func (f *textFormatter) appendTextRecord(b []byte, r *slog.Record) (_ []byte, ok bool) {
	start := len(b)
	b = f.appendTextStart(b, r.Time, r.Level, r.Message)
	ok = true
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "" {
			ok = false // an empty attribute is left out, an empty key quoted: slog decides
			return false
		}
		b = append(b, ' ')
		b = appendTextString(b, a.Key)
		b = append(b, '=')
		v := a.Value
		switch v.Kind() {
		case slog.KindString:
			b = appendTextString(b, v.String())
		case slog.KindInt64:
			b = strconv.AppendInt(b, v.Int64(), 10)
		case slog.KindUint64:
			b = strconv.AppendUint(b, v.Uint64(), 10)
		case slog.KindFloat64:
			b = strconv.AppendFloat(b, v.Float64(), 'g', -1, 64)
		case slog.KindBool:
			b = strconv.AppendBool(b, v.Bool())
		case slog.KindDuration:
			b = append(b, v.Duration().String()...)
		default:
			ok = false
		}
		return ok
	})
	if !ok {
		return b[:start], false
	}
	return append(b, '\n'), true
}

// appendTextStart appends the beginning of a line as slog.TextHandler writes
// it: the time, unless it is zero, the level and the message.
func (f *textFormatter) appendTextStart(b []byte, t time.Time, level slog.Level, msg string) []byte {
	if !t.IsZero() {
		b = append(b, "time="...)
		b = f.appendRFC3339Millis(b, t.Round(0))
		b = append(b, ' ')
	}
	b = append(b, "level="...)
	b = appendTextString(b, level.String())
	b = append(b, " msg="...)
	return appendTextString(b, msg)
}

// appendRequestLine appends a request's line as slog.TextHandler writes
// line.Record(), without making the record.
func (f *textFormatter) appendRequestLine(b []byte, line *issuefields.RequestLine) []byte {
	b = f.appendTextStart(b, line.Time, slog.LevelInfo, "request")
	b = append(b, " request_id="...)
	b = appendTextString(b, line.ID)
	b = append(b, " method="...)
	b = appendTextString(b, line.Method)
	b = append(b, " route="...)
	b = appendTextString(b, line.Route)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(line.Status), 10)
	b = append(b, " duration="...)
	b = append(b, line.Duration.String()...)
	b = append(b, " login="...)
	b = appendTextString(b, line.Login)
	return append(b, '\n')
}

// appendRFC3339Millis appends t as slog.TextHandler writes a time: RFC 3339
// with exactly three digits of the second's fraction. A time in the second
// and location of the last one written is put together from that one's text.
func (f *textFormatter) appendRFC3339Millis(b []byte, t time.Time) []byte {
	ms := t.Nanosecond() / int(time.Millisecond)
	if len(f.head) > 0 && t.Unix() == f.second && t.Location() == f.loc {
		b = append(b, f.head...)
		b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
		return append(b, f.zone...)
	}
	const headLen = len("2006-01-02T15:04:05")
	n := len(b)
	// RFC3339Nano drops trailing zeros: a tenth of a millisecond more makes
	// four digits, of which the fourth is dropped.
	b = t.Truncate(time.Millisecond).Add(time.Millisecond/10).AppendFormat(b, time.RFC3339Nano)
	b = append(b[:n+headLen+4], b[n+headLen+5:]...)
	if text := b[n:]; text[0] != '-' && text[headLen] == '.' {
		// A year of four digits: the head and the zone are where they are
		// cut.
		f.second, f.loc = t.Unix(), t.Location()
		f.head = append(f.head[:0], text[:headLen]...)
		f.zone = append(f.zone[:0], text[headLen+4:]...)
	}
	return b
}

// appendTextString appends s, quoted as strconv.Quote quotes it when
// slog.TextHandler would quote it: when it is empty, or has a space, an
// equals sign, a double quote, a control character below the space, a
// character that is not valid UTF-8, or one beyond ASCII that Unicode calls
// space or not printable.
func appendTextString(b []byte, s string) []byte {
	quote, printableASCII := textQuoting(s)
	switch {
	case !quote:
		return append(b, s...)
	case printableASCII:
		// Every request line quotes its route ("GET /repos/..."), which
		// strconv.AppendQuote would look up rune by rune.
		return appendQuotedASCII(b, s)
	default:
		return strconv.AppendQuote(b, s)
	}
}

// textQuoting reports whether slog.TextHandler quotes s, and whether s is
// printable ASCII only (space to tilde).
func textQuoting(s string) (quote, printableASCII bool) {
	var class uint8
	for i := 0; i < len(s); i++ {
		class |= textByteClasses[s[i]]
	}
	if class&beyondASCII != 0 {
		return textQuotingUnicode(s), false
	}
	return s == "" || class&quotedByte != 0, class&notPrintableASCII == 0
}

// Classes of the bytes of a string, for textQuoting.
const (
	quotedByte        = 1 << iota // slog quotes a string that has it
	notPrintableASCII             // a control character or a byte beyond ASCII
	beyondASCII                   // part of a character beyond ASCII
)

// textByteClasses gives each byte its classes.
var textByteClasses = func() (classes [256]uint8) {
	for c := range classes {
		switch {
		case c >= utf8.RuneSelf:
			classes[c] = beyondASCII | notPrintableASCII
		case c < ' ':
			classes[c] = quotedByte | notPrintableASCII
		case c == 0x7f:
			classes[c] = notPrintableASCII
		case c == ' ' || c == '=' || c == '"':
			classes[c] = quotedByte
		}
	}
	return classes
}()

// textQuotingUnicode reports whether slog.TextHandler quotes s, which has
// characters beyond ASCII.
func textQuotingUnicode(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == '=' || c == '"' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}

// appendQuotedASCII appends s, which is printable ASCII, quoted as
// strconv.Quote quotes it: between double quotes, with a backslash before
// each double quote and backslash.
func appendQuotedASCII(b []byte, s string) []byte {
	b = append(b, '"')
	if strings.IndexByte(s, '"') < 0 && strings.IndexByte(s, '\\') < 0 {
		b = append(b, s...) // a route, say
		return append(b, '"')
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}
