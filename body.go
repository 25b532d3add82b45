package issuefields

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/issuefields/issuefields/internal/jsonskip"
)

// Every request body is read by one scanner, as a stream: it checks the JSON
// as it arrives and keeps only what its route reads, so that the memory a
// request holds is bounded by what the route may use, whatever the body
// carries besides. Of the body's top-level object it keeps the elements of
// one array (the list: issue_field_values, or a field's options), at most a
// bound of them, and the values of a few other members (a field's name, say);
// of every other member only the key; the body of a Route, which
// Call.ReadObject returns, it keeps whole. It refuses a key that appears
// twice in one object, at any depth (a decoder that kept the last would let a
// PUT wipe an issue), and refuses a body as soon as the element past its
// list's bound begins, without reading the rest.

// bodyShape says what the scanner keeps of a route's body.
type bodyShape struct {
	// list is the key of the top-level array whose elements are kept, at
	// most maxItems of them; tooMany is the error of a list with more.
	list     string
	maxItems int
	tooMany  error
	// members are the other top-level keys whose values are kept whole.
	members []string
	// whole is set for a body kept whole, which has no list and no
	// members.
	whole bool
}

// requestBody is what the scanner kept of a body, each value without
// surrounding whitespace. It points into one buffer of its own.
type requestBody struct {
	// hasList is set when the top-level object has the shape's list key,
	// and listIsArray when its (first) value is an array, whose elements
	// items holds.
	hasList, listIsArray bool
	items                [][]byte
	// members holds the values of the shape's members that the body has,
	// by the member's index in the shape.
	members [][]byte
	// unknown lists the other top-level keys, each once, in their order.
	unknown []string
	// whole is the body's object, for a shape that keeps it whole.
	whole []byte
}

// scanBufferBytes is the size of the buffer the scanner reads through.
const scanBufferBytes = 4096

// A pooledScanner is a scanner with its read buffer. Scanners are pooled,
// not made for each body: a bodyScanner holds more than a kilobyte of
// places and keys, which cost every body an allocation of that size (the
// scanner escapes) and readBody a frame of nearly two kilobytes, on a stack
// that is already deep when a write reads its body inside the store's call
// of the handler's change.
type pooledScanner struct {
	s   bodyScanner
	buf [scanBufferBytes]byte
}

// scanners holds the scanners of bodies that were read.
var scanners = sync.Pool{New: func() any { return new(pooledScanner) }}

// release empties p, so that it keeps nothing of the body it read, and puts
// it back in scanners.
func (p *pooledScanner) release() {
	p.s = bodyScanner{}
	scanners.Put(p)
}

// heldBytes is the room first made for what a body of unknown length keeps,
// and keyBytes for the keys of the objects being scanned.
const (
	heldBytes = 1024
	keyBytes  = 256
)

// manyKeys is the number of keys from which an object's keys are checked for
// duplicates in a map instead of one by one.
const manyKeys = 16

// maxListItems bounds a shape's maxItems, the items whose places a scanner
// holds.
const maxListItems = 64

// readBody reads the body of r, at most limit bytes of it, and returns what
// shape keeps of it. It refuses a body over limit (413), one that is not
// JSON, not an object or that repeats a key (400), and one whose list has
// more than shape.maxItems items (shape.tooMany). Once the body has been read
// to its end, w no longer closes the connection after its answer.
func readBody(w *recorder, r *http.Request, limit int64, shape *bodyShape) (requestBody, error) {
	if r.ContentLength > limit {
		return requestBody{}, bodyTooLarge(limit)
	}
	p := scanners.Get().(*pooledScanner)
	defer p.release()
	s := &p.s
	s.r, s.buf, s.shape = http.MaxBytesReader(w, r.Body, limit), p.buf[:], shape
	// Room for a usual body's values and keys at once; a larger body holds
	// more only as its values need.
	held := heldBytes
	if r.ContentLength > 0 {
		held = int(min(r.ContentLength, scanBufferBytes))
	}
	s.held = make([]byte, 0, held)
	s.keys = s.keyBuf[:0]
	err := s.scan()
	w.bodyPending, w.bodyRead = !s.eof, s.read
	if err != nil {
		return requestBody{}, bodyError(err, s.readErr, limit)
	}
	return s.result(), nil
}

// objectBody is the shape of a body that readObject reads: kept whole.
var objectBody = bodyShape{whole: true}

// readObject reads the body of r as readBody does, at most limit bytes of
// it, and returns the members of its object.
func readObject(w *recorder, r *http.Request, limit int64) (map[string]json.RawMessage, error) {
	body, err := readBody(w, r, limit, &objectBody)
	if err != nil {
		return nil, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body.whole, &members); err != nil {
		return nil, fmt.Errorf("decoding a body the scanner took for an object: %w", err)
	}
	return members, nil
}

// bodyError returns the answer to a body that the scanner refused with err,
// readErr being what reading it returned, and limit its bound. It is a
// function of its own, so that errors.As, which moves its target to the
// heap, allocates only for a refused body.
func bodyError(err, readErr error, limit int64) error {
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return bodyTooLarge(limit)
	case readErr != nil:
		return fmt.Errorf("%w: %w", errBodyUnreadable, readErr)
	}
	return err
}

// bodyScanner checks a JSON body read from r, and keeps what its shape says.
type bodyScanner struct {
	r     io.Reader
	shape *bodyShape
	// buf[pos:end] is read and not yet scanned.
	buf      []byte
	pos, end int
	// read counts the bytes read from r. eof is set once r reported its
	// end; readErr holds any other error of r.
	read    int64
	eof     bool
	readErr error

	// held keeps the bytes of what the scanner keeps; spans[:items] are the
	// list's items' places in it, and memberSpans those of the shape's
	// members (ends at 0 for a member the body lacks). While a value is
	// being kept, capturing is set and buf[captureFrom:pos] belongs to it
	// but is not yet in held.
	held        []byte
	spans       [maxListItems][2]int
	items       int
	memberSpans [4][2]int
	capturing   bool
	captureFrom int
	// wholeSpan is the place in held of a body kept whole.
	wholeSpan [2]int

	// keys holds the decoded keys of the objects being scanned, the
	// innermost last. duplicated is set once a key appeared twice in one
	// object, and duplicate is the first such key.
	keys       []byte
	keyBuf     [keyBytes]byte
	duplicated bool
	duplicate  string

	// hasList, listIsArray and unknown are those of requestBody.
	hasList, listIsArray bool
	unknown              []string
}

// scan reads the body to its end, or stops at the first failure and returns
// it.
func (s *bodyScanner) scan() error {
	c, ok := s.peekPastSpace()
	if !ok {
		return s.failure()
	}
	object := c == '{'
	var err error
	switch {
	case object && s.shape.whole:
		s.wholeSpan, err = s.keep(0)
	case object:
		err = s.object(1, true)
	default:
		err = s.value(0)
	}
	if err != nil {
		return err
	}
	if _, more := s.peekPastSpace(); more {
		return errBodyNotJSON
	}
	if s.readErr != nil {
		return s.readErr
	}
	switch {
	case !object:
		return errBodyNotObject
	case s.duplicated:
		return duplicateKey(s.duplicate)
	}
	return nil
}

// result returns what the scanner kept.
func (s *bodyScanner) result() requestBody {
	b := requestBody{hasList: s.hasList, listIsArray: s.listIsArray, unknown: s.unknown}
	if s.shape.whole {
		b.whole = s.held[s.wholeSpan[0]:s.wholeSpan[1]]
	}
	if s.items > 0 {
		b.items = make([][]byte, s.items)
		for i, sp := range s.spans[:s.items] {
			b.items[i] = s.held[sp[0]:sp[1]:sp[1]]
		}
	}
	if n := len(s.shape.members); n > 0 {
		b.members = make([][]byte, n)
		for i, sp := range s.memberSpans[:n] {
			if sp[1] > 0 {
				b.members[i] = s.held[sp[0]:sp[1]:sp[1]]
			}
		}
	}
	return b
}

// keep scans the value at the next byte, nested depth deep, and keeps its
// bytes in held; it returns their place there.
func (s *bodyScanner) keep(depth int) ([2]int, error) {
	if _, ok := s.peekPastSpace(); !ok {
		return [2]int{}, s.failure()
	}
	start := len(s.held)
	s.capturing, s.captureFrom = true, s.pos
	err := s.value(depth)
	s.held = append(s.held, s.buf[s.captureFrom:s.pos]...)
	s.capturing = false
	return [2]int{start, len(s.held)}, err
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
		s.read += int64(n)
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
			if c := s.buf[s.pos]; !jsonskip.IsSpace(c) {
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
		if top {
			err = s.member(key, depth)
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

// member scans the value of the top-level member key, nested depth deep, and
// keeps it if the shape says so.
func (s *bodyScanner) member(key []byte, depth int) error {
	shape := s.shape
	if !s.hasList && string(key) == shape.list {
		return s.list(depth)
	}
	for i, m := range shape.members {
		if string(key) == m && s.memberSpans[i][1] == 0 {
			span, err := s.keep(depth)
			s.memberSpans[i] = span
			return err
		}
	}
	if string(key) != shape.list && !s.isUnknown(key) {
		s.unknown = append(s.unknown, string(key))
	}
	return s.value(depth)
}

// isUnknown reports whether key is among the unknown keys already seen, or a
// member of the shape (given twice, which the duplicate check refuses).
func (s *bodyScanner) isUnknown(key []byte) bool {
	for _, k := range s.unknown {
		if k == string(key) {
			return true
		}
	}
	for _, m := range s.shape.members {
		if m == string(key) {
			return true
		}
	}
	return false
}

// list scans the value of the shape's list, nested depth deep. An array's
// elements are the items: each is kept, and the one past the shape's bound is
// refused as soon as it begins.
func (s *bodyScanner) list(depth int) error {
	s.hasList = true
	c, ok := s.peekPastSpace()
	if !ok {
		return s.failure()
	}
	if c != '[' {
		return s.value(depth)
	}
	s.listIsArray = true
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
		if s.items == s.shape.maxItems {
			if s.duplicated {
				return duplicateKey(s.duplicate)
			}
			return s.shape.tooMany
		}
		span, err := s.keep(depth + 1)
		if err != nil {
			return err
		}
		s.spans[s.items] = span
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

// What the scanner kept of a body is walked with the functions below, which
// assume valid JSON: without reflection, and without encoding/json's
// byte-at-a-time state machine. Each takes a JSON value with no surrounding
// whitespace.

// maxJSONDepth is how deeply arrays and objects may nest, encoding/json's
// limit.
const maxJSONDepth = 10000

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// skipDigits returns the index of the first byte at or after i that is not a
// digit.
func skipDigits(data []byte, i int) int {
	for i < len(data) && isDigit(data[i]) {
		i++
	}
	return i
}

// eachElement calls fn with each element of the array arr.
func eachElement(arr []byte, fn func(elem []byte)) {
	for i := jsonskip.Space(arr, 1); i < len(arr) && arr[i] != ']'; {
		end := jsonskip.Value(arr, i)
		fn(arr[i:end])
		i = jsonskip.Space(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = jsonskip.Space(arr, i+1)
		}
	}
}

// eachMember calls fn with the key (a JSON string, quotes included) and the
// value of each member of the object obj, in order.
func eachMember(obj []byte, fn func(key, value []byte)) {
	for i := jsonskip.Space(obj, 1); i < len(obj) && obj[i] != '}'; {
		keyEnd := jsonskip.String(obj, i)
		key := obj[i:keyEnd]
		start := jsonskip.Space(obj, jsonskip.Space(obj, keyEnd)+1) // past the colon
		end := jsonskip.Value(obj, start)
		fn(key, obj[start:end])
		i = jsonskip.Space(obj, end)
		if i < len(obj) && obj[i] == ',' {
			i = jsonskip.Space(obj, i+1)
		}
	}
}

// stringValue decodes the JSON string raw. A string without escapes is
// taken as it is; the body it comes from is valid UTF-8.
func stringValue(raw []byte) string {
	inner := raw[1 : len(raw)-1]
	for _, c := range inner {
		if c == '\\' {
			var s string
			_ = json.Unmarshal(raw, &s)
			return s
		}
	}
	return string(inner)
}

// keyIs reports whether the JSON string key decodes to name.
func keyIs(key []byte, name string) bool {
	if len(key) == len(name)+2 && string(key[1:len(key)-1]) == name {
		return true
	}
	return len(key) > len(name)+2 && stringValue(key) == name
}

// parsePositiveInt parses s if it is written [1-9][0-9]* and fits in int64.
func parsePositiveInt(s string) (int64, bool) {
	if s == "" || s[0] < '1' || s[0] > '9' {
		return 0, false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// excerpt returns raw for a message, shortened when long.
func excerpt(raw json.RawMessage) string {
	const limit = 40
	s := strings.TrimSpace(string(raw))
	if utf8.RuneCountInString(s) > limit {
		s = string([]rune(s)[:limit]) + "…"
	}
	return s
}
