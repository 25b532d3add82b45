// Package fieldname is the one definition of the names of issue fields and
// of their options, which the handler and pgstore share: what a name may be
// (Problem), and when two names are the same name (Key).
//
// Two names are the same when they are equal after the removal of
// default-ignorable characters (such as zero-width spaces), Unicode NFKC
// normalization and case folding, so "Priority", "priority", "Ｐriority"
// and "Priority" followed by a zero-width space are one name. The Unicode
// tables are those of golang.org/x/text.
package fieldname

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/runes"
	"golang.org/x/text/unicode/norm"
)

// MaxLength is the most characters (Unicode code points) of a name.
const MaxLength = 64

// Problem says what breaks the rules of names in name, as a phrase that
// begins in lower case, or returns "". A name is 1 to MaxLength characters
// of valid UTF-8, with no white space at either end, no control character
// (NUL, a newline), no bidirectional control, and something visible.
func Problem(name string) string {
	if name == "" {
		return "empty name"
	}
	if n := utf8.RuneCountInString(name); n > MaxLength {
		return fmt.Sprintf("the name has %d characters; a name has at most %d", n, MaxLength)
	}
	first, _ := utf8.DecodeRuneInString(name)
	last, _ := utf8.DecodeLastRuneInString(name)
	if unicode.IsSpace(first) || unicode.IsSpace(last) {
		return fmt.Sprintf("the name %q begins or ends with white space", name)
	}
	visible := false
	for _, r := range name {
		switch {
		case r == utf8.RuneError:
			return "the name is not valid UTF-8"
		case unicode.IsControl(r):
			return fmt.Sprintf("the name %q has the control character %U", name, r)
		case isBidiControl(r):
			return fmt.Sprintf("the name %q has the bidirectional control %U", name, r)
		case !unicode.IsSpace(r) && !defaultIgnorable.Contains(r):
			visible = true
		}
	}
	if !visible {
		return fmt.Sprintf("the name %q has nothing visible", name)
	}
	return ""
}

// Key returns the key that two names share exactly when they are the same
// name: without default-ignorable characters, NFKC-normalized and case
// folded (then normalized again, as folding may undo it). A store that
// enforces unique names keeps it beside the name.
func Key(name string) string {
	if isASCII(name) {
		// ASCII has no default-ignorable character, NFKC leaves it as it
		// is, and it folds to lower case.
		return strings.ToLower(name)
	}
	key := strings.Map(func(r rune) rune {
		if defaultIgnorable.Contains(r) {
			return -1
		}
		return r
	}, name)
	// A Caser keeps state, so each call makes its own.
	return norm.NFKC.String(cases.Fold().String(norm.NFKC.String(key)))
}

// isASCII reports whether s is ASCII only.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// isBidiControl reports whether r is a bidirectional embedding, override or
// isolate control (U+202A to U+202E, U+2066 to U+2069), which can make a name
// show as another.
func isBidiControl(r rune) bool {
	return '\u202A' <= r && r <= '\u202E' || '\u2066' <= r && r <= '\u2069'
}

// defaultIgnorable holds Unicode's default-ignorable code points, which show
// as nothing: the format characters (such as zero-width spaces and joiners),
// variation selectors and the others that Unicode lists, but for the few
// format characters that show (prepended concatenation marks, the
// interlinear annotation characters).
var defaultIgnorable = runes.Predicate(func(r rune) bool {
	if unicode.Is(unicode.Prepended_Concatenation_Mark, r) || '\uFFF9' <= r && r <= '\uFFFB' {
		return false
	}
	return unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector, unicode.Cf) &&
		!unicode.Is(unicode.White_Space, r)
})
