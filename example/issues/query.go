package issues

import (
	"fmt"
	"strings"
)

// Search is what the q of an issue search asks for, as ParseSearch reads
// it. Each of its parts narrows the search: an issue is found when its
// repository is one that Repositories or Organizations names (any
// repository when both are empty), its state is State (any state when it is
// ""), it has every value of Fields, and every one of Words is in its title
// or its body.
type Search struct {
	// Repositories are the repositories of repo:OWNER/NAME, as "OWNER/NAME",
	// and Organizations the owners of org:LOGIN.
	Repositories, Organizations []string
	// State is "open", "closed" (is:open, is:closed, state:open,
	// state:closed), or "" for either. A query that asks for both finds
	// nothing: StateConflict is set.
	State         string
	StateConflict bool
	// Fields are the values of field.NAME:VALUE.
	Fields []FieldValue
	// Words are the plain words, and the phrases in double quotes, of the
	// query, compared case-insensitively.
	Words []string
}

// FieldValue is one field.NAME:VALUE of a query: the field's name, compared
// as field names are, and the value as the values list shows it (an option
// by its name).
type FieldValue struct {
	Name, Value string
}

// UnknownQualifierError is what ParseSearch returns for a qualifier the
// stand-in does not know, or a value of a known one that it does not: a
// silently ignored filter would mislead a test.
type UnknownQualifierError struct {
	// Qualifier is the qualifier as the query wrote it, such as "label:bug"
	// or "is:pr".
	Qualifier string
}

func (e *UnknownQualifierError) Error() string {
	return fmt.Sprintf("The search qualifier %q is not supported by this stand-in; it knows repo:, org:, is:issue, is:open, is:closed, state:, field.<name>: and plain words.", e.Qualifier)
}

// ParseSearch reads q, the query of GET /search/issues: the qualifiers
// repo:OWNER/NAME, org:LOGIN, is:issue, is:open, is:closed,
// state:open|closed and field.NAME:VALUE, and plain words. Double quotes
// make a phrase, or a name or value with spaces, one term
// (field."Due date":2026-04-01, "long name"). It returns an
// *UnknownQualifierError for any other qualifier.
func ParseSearch(q string) (Search, error) {
	var s Search
	for _, t := range terms(q) {
		if !t.qualified {
			s.Words = append(s.Words, t.value)
			continue
		}
		key := strings.ToLower(t.key)
		unknown := &UnknownQualifierError{Qualifier: t.raw}
		switch {
		case key == "repo" && strings.Count(t.value, "/") == 1:
			s.Repositories = append(s.Repositories, t.value)
		case key == "org" && t.value != "":
			s.Organizations = append(s.Organizations, t.value)
		case key == "is" && strings.EqualFold(t.value, "issue"):
		case key == "is" || key == "state":
			state := strings.ToLower(t.value)
			if state != "open" && state != "closed" {
				return Search{}, unknown
			}
			if s.State != "" && s.State != state {
				s.StateConflict = true
			}
			s.State = state
		case strings.HasPrefix(key, "field.") && len(t.key) > len("field."):
			s.Fields = append(s.Fields, FieldValue{Name: t.key[len("field."):], Value: t.value})
		default:
			return Search{}, unknown
		}
	}
	return s, nil
}

// term is one term of a query: a plain word or phrase (value alone), or a
// qualifier key:value. raw is the term as the query wrote it.
type term struct {
	qualified       bool
	key, value, raw string
}

// terms splits q into its terms: at white space outside double quotes,
// each term a qualifier when it has a colon outside quotes before which
// something is written, its key what comes before the first such colon.
// Quotes are not part of keys and values.
func terms(q string) []term {
	var out []term
	var t term
	var buf, raw strings.Builder
	quoted := false
	end := func() {
		if raw.Len() > 0 {
			t.value, t.raw = buf.String(), raw.String()
			if t.qualified || t.value != "" {
				out = append(out, t)
			}
		}
		t = term{}
		buf.Reset()
		raw.Reset()
	}
	for _, r := range q {
		switch {
		case r == '"':
			quoted = !quoted
		case !quoted && (r == ' ' || r == '\t' || r == '\n' || r == '\r'):
			end()
			continue
		case !quoted && r == ':' && !t.qualified && buf.Len() > 0:
			t.qualified, t.key = true, buf.String()
			buf.Reset()
		default:
			buf.WriteRune(r)
		}
		raw.WriteRune(r)
	}
	end()
	return out
}
