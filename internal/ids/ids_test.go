package ids_test

import (
	"encoding/base64"
	"errors"
	"regexp"
	"testing"

	"github.com/issuefields/issuefields/internal/ids"
)

// TestRoundTrip checks that every kind of node_id decodes back to what it
// was made of, is URL-safe, and differs from every other one made.
func TestRoundTrip(t *testing.T) {
	tests := []struct {
		nodeID string
		want   ids.ID
	}{
		{ids.Issue(1), ids.ID{Kind: ids.KindIssue, Issue: 1}},
		{ids.Issue(ids.MaxIssueID), ids.ID{Kind: ids.KindIssue, Issue: ids.MaxIssueID}},
		{ids.Repository(7), ids.ID{Kind: ids.KindRepository, Repository: 7}},
		{ids.Repository(1<<63 - 1), ids.ID{Kind: ids.KindRepository, Repository: 1<<63 - 1}},
		{ids.Field("Octo-Org", 3), ids.ID{Kind: ids.KindField, Field: 3, Login: "octo-org"}},
		{ids.Field("other", 3), ids.ID{Kind: ids.KindField, Field: 3, Login: "other"}},
		{ids.Option("octo-org", 3, 300), ids.ID{Kind: ids.KindOption, Field: 3, Option: 300, Login: "octo-org"}},
		{ids.Value("text", 5, 3), ids.ID{Kind: ids.KindValue, Issue: 5, Field: 3, DataType: "text"}},
		{ids.Value("number", 5, 3), ids.ID{Kind: ids.KindValue, Issue: 5, Field: 3, DataType: "number"}},
		{ids.Value("date", 5, 3), ids.ID{Kind: ids.KindValue, Issue: 5, Field: 3, DataType: "date"}},
		{ids.Value("single_select", 5, 4), ids.ID{Kind: ids.KindValue, Issue: 5, Field: 4, DataType: "single_select"}},
		{ids.Value("multi_select", 6, 4), ids.ID{Kind: ids.KindValue, Issue: 6, Field: 4, DataType: "multi_select"}},
		{ids.Account(ids.KindUser, "Monalisa"), ids.ID{Kind: ids.KindUser, Login: "monalisa"}},
		{ids.Account(ids.KindOrganization, "octo-org"), ids.ID{Kind: ids.KindOrganization, Login: "octo-org"}},
		{ids.Account(ids.KindBot, "app[bot]"), ids.ID{Kind: ids.KindBot, Login: "app[bot]"}},
		{ids.Account(ids.KindInstallation, "app[bot]"), ids.ID{Kind: ids.KindInstallation, Login: "app[bot]"}},
		{ids.Label(7, "Good First Issue"), ids.ID{Kind: ids.KindLabel, Repository: 7, Label: "good first issue"}},
		{ids.Label(7, "größe"), ids.ID{Kind: ids.KindLabel, Repository: 7, Label: "größe"}},
	}
	urlSafe := regexp.MustCompile(`^[A-Z]+_[A-Za-z0-9_-]+$`)
	seen := map[string]bool{}
	for _, tt := range tests {
		if !urlSafe.MatchString(tt.nodeID) {
			t.Errorf("%q is not a prefix, _ and base64url", tt.nodeID)
		}
		if seen[tt.nodeID] {
			t.Errorf("%q is made twice", tt.nodeID)
		}
		seen[tt.nodeID] = true
		got, err := ids.Decode(tt.nodeID)
		if err != nil || got != tt.want {
			t.Errorf("Decode(%q) = %+v, %v; want %+v", tt.nodeID, got, err, tt.want)
		}
	}
}

// TestAppendValueAllocatesNothing checks that the list encoder's call
// allocates nothing when its buffer has room.
func TestAppendValueAllocatesNothing(t *testing.T) {
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = ids.AppendValue(buf[:0], "text", 1<<30, 1<<40) }); n != 0 {
		t.Errorf("AppendValue allocates %v times; want 0", n)
	}
}

// TestDecodeRefuses checks that what this package does not make is refused
// with ErrMalformed: GitHub's own node_ids, unknown prefixes, broken
// base64, other forms, IDs no store gives, and non-canonical encodings.
func TestDecodeRefuses(t *testing.T) {
	enc := func(prefix string, b ...byte) string { return prefix + "_" + base64.RawURLEncoding.EncodeToString(b) }
	for _, nodeID := range []string{
		"",
		"I_",
		"I",
		"IF_kwDNAd3NAZr",            // GitHub's, a msgpack array
		"I_kwDOA1b2c84AAAABc",       // GitHub's issue
		"X_" + ids.Issue(1)[2:],     // unknown prefix
		"IFX_" + ids.Issue(1)[2:],   // unknown value prefix
		ids.Value("checkbox", 1, 1), // a data type without a prefix
		ids.Issue(1) + "=",          // padding
		ids.Issue(1) + "!",          // not base64url
		enc("I", 1, 1),              // another format
		enc("I", 0, 0),              // issue ID 0
		enc("I", 0, 0x80, 0x80, 0x80, 0x80, 0x08), // an issue ID of 2^31
		enc("I", 0, 0x81, 0x00),                   // an overlong varint
		enc("I", 0, 1, 2),                         // a number too many
		enc("R", 0),                               // a number too few
		enc("IFT", 0, 1),                          // a value without a field
		enc("IF", 0, 3),                           // a field without an organization
		enc("IF", 0, 3, 'O', 'c'),                 // an organization in upper case
		enc("U", 0, 'a', '\n', 'b'),               // a control character
		enc("LA", 0, 7, 0xff),                     // not UTF-8
		enc("LA", 0, 7),                           // a label without a name
		ids.Repository(1)[:len(ids.Repository(1))-1] + "B", // non-zero padding bits
	} {
		if got, err := ids.Decode(nodeID); !errors.Is(err, ids.ErrMalformed) {
			t.Errorf("Decode(%q) = %+v, %v; want ErrMalformed", nodeID, got, err)
		}
	}
}

// TestNumbers checks the integer ids: a value's packs the issue's and the
// field's IDs within 2^53, and an account's is the same whatever the case
// of the login.
func TestNumbers(t *testing.T) {
	if a, b := ids.ValueID(1, 2), ids.ValueID(2, 1); a == b || a <= 0 || b <= 0 {
		t.Errorf("ValueID(1, 2) = %d, ValueID(2, 1) = %d; want distinct positive ids", a, b)
	}
	if got := ids.ValueID(ids.MaxIssueID, 1<<22-1); got >= 1<<53 {
		t.Errorf("the largest ValueID is %d; want it below 2^53", got)
	}
	if a, b := ids.AccountID("Monalisa"), ids.AccountID("monalisa"); a != b || a <= 0 || a >= 1<<53 {
		t.Errorf("AccountID of Monalisa and monalisa = %d, %d; want one positive id below 2^53", a, b)
	}
	if a, b := ids.LabelID(7, "Bug"), ids.LabelID(7, "bug"); a != b || a == ids.LabelID(8, "bug") {
		t.Errorf("LabelID: %d for Bug, %d for bug, %d in another repository; want the first two alike", a, b, ids.LabelID(8, "bug"))
	}
	if ids.InstallationID("app[bot]") == ids.AccountID("app[bot]") {
		t.Error("an installation and its bot share an ID")
	}
}
