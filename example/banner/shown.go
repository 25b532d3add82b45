package banner

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// shown returns s, a name from the data file or a line made with one, as
// the start-up message shows it: with each character that is not printable
// written as a Go escape, such as \x1b, \r, \n, \t or \u202e (control
// characters, bidirectional and other format controls, separators other
// than the space), and each byte that is not UTF-8 as \xff, so that a data
// file can neither send the terminal an escape sequence nor fake, break or
// reorder a line of the message.
func shown(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r == utf8.RuneError || !unicode.IsPrint(r) })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for rest := s[i:]; rest != ""; {
		r, size := utf8.DecodeRuneInString(rest)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, rest[0])
		case unicode.IsPrint(r):
			b.WriteString(rest[:size])
		default:
			quoted := strconv.QuoteRune(r)
			b.WriteString(quoted[1 : len(quoted)-1])
		}
		rest = rest[size:]
	}
	return b.String()
}

// row writes one row of a table of the message, indented: its cells, each
// as shown shows it, separated by the tabs that align the table's columns.
func row(w io.Writer, cells ...string) {
	for i, cell := range cells {
		cells[i] = shown(cell)
	}
	fmt.Fprintf(w, "  %s\n", strings.Join(cells, "\t"))
}
