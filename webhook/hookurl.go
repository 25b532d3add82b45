package webhook

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxHookURLBytes is the longest config.url a hook may have, in bytes, so
// that the record of each delivery, which keeps the URL, stays small.
const MaxHookURLBytes = 2048

// CheckHookURL returns an error that says what is wrong when s cannot be a
// hook's config.url: an absolute http or https URL with a host, at most
// MaxHookURLBytes long, with no white space or control character anywhere,
// and none in its host once percent-decoded, since such a character would
// end up in the request line of every delivery. The routes refuse such a
// config.url with 422; a host that makes hooks from its own configuration
// checks their URLs with it. The error does not repeat s (nor a password in
// it): its caller names the URL and where it came from.
func CheckHookURL(s string) error {
	if len(s) > MaxHookURLBytes {
		return fmt.Errorf("the URL is %d bytes long, longer than the %d a hook's URL may be", len(s), MaxHookURLBytes)
	}
	if r, at, ok := spaceOrControl(s); ok {
		return fmt.Errorf("the URL holds %s at byte %d, which a URL must percent-encode (%s)", describe(r), at, percentEncoded(r))
	}
	u, err := parseURL(s)
	if err != nil {
		return err
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "" {
		return errors.New("the URL is not an absolute http or https URL with a host")
	}
	if r, _, ok := spaceOrControl(u.Host); ok {
		return fmt.Errorf("the URL's host holds %s once percent-decoded", describe(r))
	}
	return nil
}

// parseURL parses s, or returns an error that says why it does not parse
// without repeating s.
func parseURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // its text repeats the URL
		}
		return nil, fmt.Errorf("the URL does not parse: %w", err)
	}
	return u, nil
}

// spaceOrControl returns the first white space or control character of s,
// and where it is.
func spaceOrControl(s string) (r rune, at int, ok bool) {
	at = strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) })
	if at < 0 {
		return 0, 0, false
	}
	r, _ = utf8.DecodeRuneInString(s[at:])
	return r, at, true
}

// describe names r, a white space or control character, for a message.
func describe(r rune) string {
	switch {
	case r == ' ':
		return "a space (U+0020)"
	case unicode.IsControl(r):
		return fmt.Sprintf("the control character %U", r)
	}
	return fmt.Sprintf("the white space %U", r)
}

// percentEncoded returns r percent-encoded, as a URL writes it.
func percentEncoded(r rune) string {
	var b strings.Builder
	for _, c := range []byte(string(r)) {
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
