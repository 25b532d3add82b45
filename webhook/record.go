package webhook

import (
	"io"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxResponseHeaderBytes is the most bytes of a receiver's answer headers
// that the Notifier's default client reads (its http.Transport's
// MaxResponseHeaderBytes). A receiver that sends more fails the delivery,
// recorded with the status "Invalid HTTP Response: headers too large" and no
// answer. A host that gives Options.Client sets its own bound the same way.
const MaxResponseHeaderBytes = 64 << 10

// recordedRequest returns header and body, a delivery's request, as a
// Delivery records them: without an Authorization header, header values as
// valid UTF-8, and the body cut to MaxRecordedBody bytes. It shares their
// memory, which the Store copies when it records the delivery.
func recordedRequest(header http.Header, body []byte) Message {
	kept, _, _ := keptHeader(header, math.MaxInt)
	return cutBody(Message{Header: kept, Body: body}, MaxRecordedBody)
}

// recordedAnswer reads the body of resp and returns the answer as a Delivery
// records it: without an Authorization header, header values as valid
// UTF-8, headers and body together within MaxRecordedResponse bytes and the
// body within MaxRecordedBody; headers that do not fit are left out and the
// body is cut, and then the record says so. It reads at most one byte more
// of the body than the record keeps, and returns the error of reading it.
func recordedAnswer(resp *http.Response) (Message, error) {
	header, size, cut := keptHeader(resp.Header, MaxRecordedResponse)
	limit := min(MaxRecordedBody, MaxRecordedResponse-size)
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	return cutBody(Message{Header: header, Body: body, Truncated: cut}, limit), err
}

// cutBody returns m with its body cut to limit bytes, and marked as cut when
// it was longer.
func cutBody(m Message, limit int) Message {
	if len(m.Body) > limit {
		m.Body, m.Truncated = m.Body[:limit], true
	}
	return m
}

// keptHeader returns what a record keeps of header within budget bytes,
// each value counted as its line "Name: value\r\n": header itself when it
// fits, holds no Authorization and only valid UTF-8; otherwise a copy
// without Authorization, invalid UTF-8 replaced by U+FFFD, and, by name,
// the values that fit. It also returns the size kept, and whether a value
// was left out.
func keptHeader(header http.Header, budget int) (kept http.Header, size int, cut bool) {
	clean := true
	for name, values := range header {
		if name == "Authorization" {
			clean = false
		}
		for _, v := range values {
			size += headerLineSize(name, v)
			clean = clean && utf8.ValidString(v)
		}
	}
	if clean && size <= budget {
		return header, size, false
	}
	kept, size = make(http.Header, len(header)), 0
	for _, name := range slices.Sorted(maps.Keys(header)) {
		if name == "Authorization" {
			continue
		}
		for _, v := range header[name] {
			v = strings.ToValidUTF8(v, "\uFFFD")
			if n := headerLineSize(name, v); size+n <= budget {
				kept[name], size = append(kept[name], v), size+n
			} else {
				cut = true
			}
		}
	}
	return kept, size, cut
}

// headerLineSize returns the size of the header line of name and value.
func headerLineSize(name, value string) int {
	return len(name) + len(": ") + len(value) + len("\r\n")
}
