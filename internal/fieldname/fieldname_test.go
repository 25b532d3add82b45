package fieldname

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

func TestKey(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Priority", "priority", true},
		{"Priority", "Ｐriority", true},
		{"Priority", "Priority\u200b", true},
		{"Priority", "Prio\u00adrity", true},
		{"Priority", "ℙriority", true},
		{"Caf\u00e9", "Cafe\u0301", true},
		{"Straße", "STRASSE", true},
		{"ǅ", "dž", true},
		{"Priority", "Priority ", false},
		{"Priority", "Priorities", false},
		{"O", "0", false},
		{"Priority", "Рriority", false}, // a Cyrillic Р is another letter
	} {
		if same := Key(tc.a) == Key(tc.b); same != tc.same {
			t.Errorf("Key(%q) = %q, Key(%q) = %q: same %t, want %t", tc.a, Key(tc.a), tc.b, Key(tc.b), same, tc.same)
		}
	}
}

func TestProblem(t *testing.T) {
	for name, want := range map[string]string{
		"Priority":                 "",
		"Ｐriority":                 "",
		"Priority\u200b":           "",
		"Caf\u00e9":                "",
		strings.Repeat("é", 64):    "",
		strings.Repeat("é", 65):    "at most 64",
		"":                         "empty",
		"Priority ":                "white space",
		"\u3000":                   "white space",
		"\u200b":                   "nothing visible",
		"Pri\x00ority":             "control character",
		"Pri\nority":               "control character",
		"\u202eytiroirP":           "bidirectional control",
		"Pri\u2067ority":           "bidirectional control",
		"Pri\xffority":             "not valid UTF-8",
		"\u0600Priority":           "", // a prepended concatenation mark shows
		"Priority\ufe0f":           "",
		"\u2060\u200c\u200d\ufeff": "nothing visible",
	} {
		if got := Problem(name); want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("Problem(%q) = %q, want %q", name, got, want)
		}
	}
}

// FuzzKey holds Key to its definition, a transform.Chain of the four steps
// that reads every name the same way.
func FuzzKey(f *testing.F) {
	for _, name := range []string{"Priority", "Ｐriority\u200b", "Cafe\u0301", "Straße", "\u0130", "ǅ", "ﬁle", "\x00\x7f", "\xff"} {
		f.Add(name)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if !utf8.ValidString(name) {
			t.Skip("a name is valid UTF-8, which Problem checks")
		}
		chain := transform.Chain(runes.Remove(defaultIgnorable), norm.NFKC, cases.Fold(), norm.NFKC)
		want, _, err := transform.String(chain, name)
		if err != nil {
			t.Skip(err)
		}
		if got := Key(name); got != want {
			t.Errorf("Key(%q) = %q, want %q", name, got, want)
		}
	})
}
