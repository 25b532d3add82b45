package issuefields

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"unicode/utf8"
)

// A request body is read as a stream: the scanner checks the JSON as it
// arrives and keeps only the items of issue_field_values, at most MaxItems of
// them, so that the memory a request holds is proportional to the items it
// may write, whatever the body carries besides. It refuses a key that appears
// twice in one object (a decoder that kept the last would let a PUT wipe an
// issue), and refuses a body as soon as its 26th item begins, without reading
// the rest.

// scanBufferBytes is the size of the buffer the scanner reads through.
const scanBufferBytes = 4096

// scanBuffers holds the read buffers of scanners that finished.
var scanBuffers = sync.Pool{New: func() any { return new([scanBufferBytes]byte) }}

// heldBytes is the room first made for the items of a body of unknown
// length, and keyBytes for the keys of the objects being scanned.
const (
	heldBytes = 1024
	keyBytes  = 256
)

// manyKeys is the number of keys from which an object's keys are checked for
// duplicates in a map instead of one by one.
const manyKeys = 16

// readItems reads the body of r, at most limit bytes of it, and returns the
// items of its issue_field_values array, undecoded and without surrounding
// whitespace. It refuses what the contract's steps 1 and 2 refuse: a body
// over limit (413), one that is not JSON or not an object or that repeats a
// key (400), and one without the array or with more than MaxItems items
// (422). bodyPending is cleared once the body has been read to its end.
func readItems(w http.ResponseWriter, r *http.Request, limit int64, bodyPending *bool) ([][]byte, error) {
	if r.ContentLength > limit {
		return nil, bodyTooLarge(limit)
	}
	buf := scanBuffers.Get().(*[scanBufferBytes]byte)
	defer scanBuffers.Put(buf)
	s := bodyScanner{r: http.MaxBytesReader(w, r.Body, limit), buf: buf[:]}
	// Room for a usual body's items and keys at once; a larger body holds
	// more only as its items need.
	held := heldBytes
	if r.ContentLength > 0 {
		held = int(min(r.ContentLength, scanBufferBytes))
	}
	s.held = make([]byte, 0, held)
	s.keys = s.keyBuf[:0]
	items, err := s.scan()
	*bodyPending = !s.eof
	if err == nil {
		return items, nil
	}
	// Declared here, not above, because errors.As takes its address and
	// so moves it to the heap: an allocation for every body otherwise.
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, bodyTooLarge(limit)
	case s.readErr != nil:
		return nil, fmt.Errorf("%w: %w", errBodyUnreadable, s.readErr)
	}
	return items, err
}

// bodyScanner checks a JSON body read from r, and keeps the bytes of the
// items of its issue_field_values array.
type bodyScanner struct {
	r io.Reader
	// buf[pos:end] is read and not yet scanned.
	buf      []byte
	pos, end int
	// eof is set once r reported its end; readErr holds any other error
	// of r.
	eof     bool
	readErr error

	// held keeps the bytes of the items; spans[:items] are the items'
	// places in it. While an item is being scanned, capturing is set and
	// buf[captureFrom:pos] belongs to it but is not yet in held.
	held        []byte
	spans       [MaxItems][2]int
	items       int
	capturing   bool
	captureFrom int

	// keys holds the decoded keys of the objects being scanned, the
	// innermost last. duplicated is set once a key appeared twice in one
	// object, and duplicate is the first such key.
	keys       []byte
	keyBuf     [keyBytes]byte
	duplicated bool
	duplicate  string

	// field is set when the top-level object has issue_field_values, and
	// fieldIsArray when its (first) value is an array.
	field, fieldIsArray bool
}

// scan reads the body to its end and returns the items, or stops at the
// first failure and returns it.
func (s *bodyScanner) scan() ([][]byte, error) {
	c, ok := s.peekPastSpace()
	if !ok {
		return nil, s.failure()
	}
	object := c == '{'
	var err error
	if object {
		err = s.object(1, true)
	} else {
		err = s.value(0)
	}
	if err != nil {
		return nil, err
	}
	if _, more := s.peekPastSpace(); more {
		return nil, errBodyNotJSON
	}
	if s.readErr != nil {
		return nil, s.readErr
	}
	switch {
	case !object:
		return nil, errBodyNotObject
	case s.duplicated:
		return nil, duplicateKey(s.duplicate)
	case !s.field:
		return nil, validationFailed(FieldError{Resource: resourceName, Field: "issue_field_values", Code: "missing_field",
			Message: `The body needs "issue_field_values", an array of {"field_id", "value"} objects; an empty array clears every value.`})
	case !s.fieldIsArray:
		return nil, validationFailed(FieldError{Resource: resourceName, Field: "issue_field_values", Code: "invalid",
			Message: `"issue_field_values" must be an array of {"field_id", "value"} objects.`})
	}
	items := make([][]byte, s.items)
	for i, sp := range s.spans[:s.items] {
		items[i] = s.held[sp[0]:sp[1]:sp[1]]
	}
	return items, nil
}

// fill reads more of the body into buf, keeping what is not scanned yet and
// moving the bytes of an item being captured into held. It reports whether
// at least one more byte is there to scan.
func (s *bodyScanner) fill() bool {
	for !s.eof && s.readErr == nil {
		if s.capturing {
			s.held = append(s.held, s.buf[s.captureFrom:s.pos]...)
			s.captureFrom = 0
		}
		s.end = copy(s.buf, s.buf[s.pos:s.end])
		s.pos = 0
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		switch {
		case err == io.EOF:
			s.eof = true
		case err != nil:
			s.readErr = err
		}
		if n > 0 {
			return true
		}
	}
	return false
}

// available reports whether at least n bytes are there to scan, reading more
// if needed; n must be at most len(buf).
func (s *bodyScanner) available(n int) bool {
	for s.end-s.pos < n {
		if !s.fill() {
			return false
		}
	}
	return true
}

// failure is the error of a body that ended, or could not be read, in the
// middle of a value.
func (s *bodyScanner) failure() error {
	if s.readErr != nil {
		return s.readErr
	}
	return errBodyNotJSON
}

// peekPastSpace skips whitespace and returns the next byte, without
// consuming it; ok is false at the end of the body.
func (s *bodyScanner) peekPastSpace() (c byte, ok bool) {
	for {
		for s.pos < s.end {
			if c := s.buf[s.pos]; !isSpace(c) {
				return c, true
			}
			s.pos++
		}
		if !s.fill() {
			return 0, false
		}
	}
}

// expect skips whitespace and consumes the next byte, which must be one of
// a or b; it returns that byte.
func (s *bodyScanner) expect(a, b byte) (byte, error) {
	c, ok := s.peekPastSpace()
	if !ok {
		return 0, s.failure()
	}
	if c != a && c != b {
		return 0, errBodyNotJSON
	}
	s.pos++
	return c, nil
}

// value scans the value that starts at the next byte other than whitespace,
// nested depth deep.
func (s *bodyScanner) value(depth int) error {
	c, ok := s.peekPastSpace()
	if !ok {
		return s.failure()
	}
	switch {
	case c == '{':
		return s.object(depth+1, false)
	case c == '[':
		return s.array(depth + 1)
	case c == '"':
		return s.string(false)
	case c == '-' || isDigit(c):
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return errBodyNotJSON
}

// startsValue reports whether c may begin a JSON value.
func startsValue(c byte) bool {
	switch c {
	case '{', '[', '"', '-', 't', 'f', 'n':
		return true
	}
	return isDigit(c)
}

// object scans the object at the next byte, nested depth deep. top is set for
// the body's own object, whose issue_field_values array gives the items.
func (s *bodyScanner) object(depth int, top bool) error {
	if depth > maxJSONDepth {
		return errBodyNotJSON
	}
	s.pos++ // the {
	keysFrom := len(s.keys)
	defer func() { s.keys = s.keys[:keysFrom] }()
	var startsBuf [manyKeys]int
	starts := startsBuf[:0] // of each key in s.keys, for the duplicate check
	var many map[string]bool
	if c, ok := s.peekPastSpace(); ok && c == '}' {
		s.pos++
		return nil
	}
	for {
		if _, err := s.expect('"', '"'); err != nil {
			return err
		}
		s.pos-- // string starts at the quote
		keyStart := len(s.keys)
		if err := s.string(true); err != nil {
			return err
		}
		key := s.keys[keyStart:]
		if !s.duplicated && s.seenKey(key, starts, &many) {
			s.duplicated, s.duplicate = true, string(key)
		}
		starts = append(starts, keyStart)
		if _, err := s.expect(':', ':'); err != nil {
			return err
		}
		var err error
		if top && !s.field && string(key) == "issue_field_values" {
			err = s.itemsValue(depth)
		} else {
			err = s.value(depth)
		}
		if err != nil {
			return err
		}
		if c, err := s.expect(',', '}'); err != nil || c == '}' {
			return err
		}
	}
}

// seenKey reports whether key is one of the keys before it in its object,
// which start at starts in s.keys and end where the next begins (the last
// where key begins). Past manyKeys keys, they are looked up in *many.
func (s *bodyScanner) seenKey(key []byte, starts []int, many *map[string]bool) bool {
	if *many != nil {
		if (*many)[string(key)] {
			return true
		}
		(*many)[string(key)] = true
		return false
	}
	keyStart := len(s.keys) - len(key)
	for i, start := range starts {
		end := keyStart
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		if string(s.keys[start:end]) == string(key) {
			return true
		}
	}
	if len(starts)+1 == manyKeys {
		*many = make(map[string]bool, 2*manyKeys)
		for i, start := range starts {
			end := keyStart
			if i+1 < len(starts) {
				end = starts[i+1]
			}
			(*many)[string(s.keys[start:end])] = true
		}
		(*many)[string(key)] = true
	}
	return false
}

// itemsValue scans the value of the top-level issue_field_values, nested
// depth deep. An array's elements are the items: each is kept, and the
// (MaxItems+1)th is refused as soon as it begins.
func (s *bodyScanner) itemsValue(depth int) error {
	s.field = true
	c, ok := s.peekPastSpace()
	if !ok {
		return s.failure()
	}
	if c != '[' {
		return s.value(depth)
	}
	s.fieldIsArray = true
	s.pos++
	if c, ok := s.peekPastSpace(); ok && c == ']' {
		s.pos++
		return nil
	}
	for {
		c, ok := s.peekPastSpace()
		if !ok {
			return s.failure()
		}
		if !startsValue(c) {
			return errBodyNotJSON
		}
		if s.items == MaxItems {
			if s.duplicated {
				return duplicateKey(s.duplicate)
			}
			return validationFailed(FieldError{Resource: resourceName, Field: "issue_field_values", Code: "invalid",
				Message: fmt.Sprintf(`"issue_field_values" has more than %d items; one request may write at most %d.`, MaxItems, MaxItems)})
		}
		start := len(s.held)
		s.capturing, s.captureFrom = true, s.pos
		err := s.value(depth + 1)
		s.held = append(s.held, s.buf[s.captureFrom:s.pos]...)
		s.capturing = false
		if err != nil {
			return err
		}
		s.spans[s.items] = [2]int{start, len(s.held)}
		s.items++
		if c, err := s.expect(',', ']'); err != nil || c == ']' {
			return err
		}
	}
}

// array scans the array at the next byte, nested depth deep.
func (s *bodyScanner) array(depth int) error {
	if depth > maxJSONDepth {
		return errBodyNotJSON
	}
	s.pos++ // the [
	if c, ok := s.peekPastSpace(); ok && c == ']' {
		s.pos++
		return nil
	}
	for {
		if err := s.value(depth); err != nil {
			return err
		}
		if c, err := s.expect(',', ']'); err != nil || c == ']' {
			return err
		}
	}
}

// string scans the string at the next byte: no control characters, only
// JSON's escapes, valid UTF-8. For a key, its decoded text is appended to
// s.keys.
func (s *bodyScanner) string(key bool) error {
	s.pos++ // the opening quote
	keyStart := len(s.keys)
	escaped := false
	from := s.pos // of the text not yet appended to s.keys
	for {
		for s.pos < s.end {
			c := s.buf[s.pos]
			if c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
				break
			}
			s.pos++
		}
		if key {
			s.keys = append(s.keys, s.buf[from:s.pos]...)
		}
		if s.pos == s.end && !s.fill() {
			return s.failure()
		}
		switch c := s.buf[s.pos]; {
		case c == '"':
			s.pos++
			if key && escaped {
				decoded := stringValue(append(append([]byte{'"'}, s.keys[keyStart:]...), '"'))
				s.keys = append(s.keys[:keyStart], decoded...)
			}
			return nil
		case c < 0x20:
			return errBodyNotJSON
		case c == '\\':
			if !s.available(2) {
				return s.failure()
			}
			n := 2
			switch s.buf[s.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if n = 6; !s.available(n) {
					return s.failure()
				}
				for _, h := range s.buf[s.pos+2 : s.pos+6] {
					if !isHex(h) {
						return errBodyNotJSON
					}
				}
			default:
				return errBodyNotJSON
			}
			if key {
				s.keys = append(s.keys, s.buf[s.pos:s.pos+n]...)
			}
			escaped = true
			s.pos += n
		case c >= utf8.RuneSelf:
			s.available(utf8.UTFMax) // fewer only at the end of the body
			r, size := utf8.DecodeRune(s.buf[s.pos:s.end])
			if r == utf8.RuneError && size == 1 {
				return errBodyNotJSON
			}
			if key {
				s.keys = append(s.keys, s.buf[s.pos:s.pos+size]...)
			}
			s.pos += size
		}
		from = s.pos
	}
}

// number scans the number at the next byte:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *bodyScanner) number() error {
	s.skipByte('-')
	c, ok := s.peek()
	switch {
	case !ok:
		return s.failure()
	case c == '0':
		s.pos++
	case '1' <= c && c <= '9':
		s.skipDigits()
	default:
		return errBodyNotJSON
	}
	if s.skipByte('.') && !s.skipDigits() {
		return errBodyNotJSON
	}
	if s.skipByte('e') || s.skipByte('E') {
		if !s.skipByte('+') {
			s.skipByte('-')
		}
		if !s.skipDigits() {
			return errBodyNotJSON
		}
	}
	return nil
}

// peek returns the next byte without consuming it; ok is false at the end of
// the body.
func (s *bodyScanner) peek() (c byte, ok bool) {
	if s.pos == s.end && !s.fill() {
		return 0, false
	}
	return s.buf[s.pos], true
}

// skipByte consumes the next byte if it is c, and reports whether it was.
func (s *bodyScanner) skipByte(c byte) bool {
	if next, ok := s.peek(); ok && next == c {
		s.pos++
		return true
	}
	return false
}

// skipDigits consumes digits, and reports whether there was at least one.
func (s *bodyScanner) skipDigits() bool {
	found := false
	for {
		c, ok := s.peek()
		if !ok || !isDigit(c) {
			return found
		}
		s.pos++
		found = true
	}
}

// literal scans the literal word (true, false or null) at the next byte.
func (s *bodyScanner) literal(word string) error {
	for i := 0; i < len(word); i++ {
		c, ok := s.peek()
		if !ok {
			return s.failure()
		}
		if c != word[i] {
			return errBodyNotJSON
		}
		s.pos++
	}
	return nil
}
