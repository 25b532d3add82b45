// Package ids is the one place that makes the ids that responses, webhook
// payloads and GraphQL show, and that decodes a node_id back to what it
// names.
//
// A node_id is a prefix that names its kind (GitHub's, where GitHub has
// one: I_ for an issue, R_ for a repository, IF_ for a field, IFT_, IFN_,
// IFD_, IFSS_ and IFMS_ for a value by its data type), then the unpadded
// base64url encoding of a small binary form: a format byte (0), the stored
// IDs that find the object again as unsigned varints, and for what an
// organization or an account names, its login in lower case (a label: its
// repository's ID and its name in lower case). Only stored
// IDs and logins go in, so a node_id is the same on every server and after
// every restart, survives a rename or a transfer of a repository (an issue
// is named by its own ID, not its number), and Decode refuses what it did
// not make.
//
// What no store holds has a number derived from what names it: the IDs of
// accounts, installations and labels (AccountID, InstallationID, LabelID),
// which are hashes of the login or the name, and the integer id of a value in a webhook payload
// (ValueID), which packs the issue's and the field's IDs.
package ids

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is the kind of object that a node_id names.
type Kind uint8

// The kinds of node_ids.
const (
	KindIssue        Kind = iota + 1 // an issue, by its ID
	KindRepository                   // a repository, by its ID
	KindField                        // an organization's field, by the organization and the field's ID
	KindOption                       // an option of a field, by the organization, the field's and the option's IDs
	KindValue                        // the value of a field on an issue, by the issue's and the field's IDs
	KindUser                         // a user, by login
	KindOrganization                 // an organization, by login
	KindBot                          // the bot of an app, by login
	KindInstallation                 // an app installation, by its bot's login
	KindLabel                        // a repository's label, by the repository's ID and the label's name
)

// MaxIssueID bounds an issue's ID, its REST id: GraphQL's databaseId is a
// 32-bit Int.
const MaxIssueID = 1<<31 - 1

// valuePrefixes are the prefixes of the node_ids of values, by the field's
// data type (the names of issuefields.DataType), without the "_" that
// follows them. A new data type adds its prefix here.
var valuePrefixes = map[string]string{
	"text":          "IFT",
	"number":        "IFN",
	"date":          "IFD",
	"single_select": "IFSS",
	"multi_select":  "IFMS",
}

// unknownValuePrefix begins the node_id of a value of a data type that
// valuePrefixes does not name, which Decode refuses.
const unknownValuePrefix = "IFV"

// ID is what a node_id names: Kind, and the members that the kind uses.
type ID struct {
	Kind Kind
	// Issue is the issue's ID (KindIssue, KindValue).
	Issue int64
	// Repository is the repository's ID (KindRepository).
	Repository int64
	// Field is the field's ID (KindField, KindOption, KindValue).
	Field int64
	// Option is the option's ID (KindOption).
	Option int64
	// Login is, in lower case, the organization of a field or an option, or
	// the account (KindUser, KindOrganization, KindBot, KindInstallation).
	Login string
	// Label is, in lower case, the name of a label (KindLabel), whose
	// repository is Repository.
	Label string
	// DataType is the data type of a value's field (KindValue), as its
	// node_id's prefix tells it.
	DataType string
}

// layout is how the node_ids of one kind are made: the prefix, which of the
// ID's numbers follow the format byte, and which text ends them (a login or
// a label's name), if any.
type layout struct {
	prefix  string
	numbers func(id *ID) []*int64
	text    func(id *ID) *string
}

var (
	issueNumbers  = func(id *ID) []*int64 { return []*int64{&id.Issue} }
	repoNumbers   = func(id *ID) []*int64 { return []*int64{&id.Repository} }
	fieldNumbers  = func(id *ID) []*int64 { return []*int64{&id.Field} }
	optionNumbers = func(id *ID) []*int64 { return []*int64{&id.Field, &id.Option} }
	valueNumbers  = func(id *ID) []*int64 { return []*int64{&id.Issue, &id.Field} }
	noNumbers     = func(*ID) []*int64 { return nil }
	loginText     = func(id *ID) *string { return &id.Login }
	labelText     = func(id *ID) *string { return &id.Label }
)

// layouts are the layouts by kind; a value's prefix is its data type's.
var layouts = map[Kind]layout{
	KindIssue:        {"I", issueNumbers, nil},
	KindRepository:   {"R", repoNumbers, nil},
	KindField:        {"IF", fieldNumbers, loginText},
	KindOption:       {"IFO", optionNumbers, loginText},
	KindValue:        {"", valueNumbers, nil},
	KindUser:         {"U", noNumbers, loginText},
	KindOrganization: {"O", noNumbers, loginText},
	KindBot:          {"BOT", noNumbers, loginText},
	KindInstallation: {"IN", noNumbers, loginText},
	KindLabel:        {"LA", repoNumbers, labelText},
}

// format is the first byte of every encoded form.
const format = 0

// Issue returns the node_id of the issue whose ID is issueID.
func Issue(issueID int64) string { return encode(ID{Kind: KindIssue, Issue: issueID}) }

// Repository returns the node_id of the repository whose ID is repoID.
func Repository(repoID int64) string { return encode(ID{Kind: KindRepository, Repository: repoID}) }

// Field returns the node_id of the field fieldID of the organization org.
func Field(org string, fieldID int64) string {
	return encode(ID{Kind: KindField, Login: org, Field: fieldID})
}

// Option returns the node_id of the option optionID of the field fieldID of
// the organization org.
func Option(org string, fieldID, optionID int64) string {
	return encode(ID{Kind: KindOption, Login: org, Field: fieldID, Option: optionID})
}

// Label returns the node_id of the label name of the repository repoID.
func Label(repoID int64, name string) string {
	return encode(ID{Kind: KindLabel, Repository: repoID, Label: name})
}

// Account returns the node_id of the account login of kind KindUser,
// KindOrganization, KindBot or KindInstallation.
func Account(kind Kind, login string) string { return encode(ID{Kind: kind, Login: login}) }

// AppendValue appends to buf the node_id of the value of the field fieldID,
// of data type dataType, on the issue issueID. It allocates nothing when
// buf has room.
func AppendValue(buf []byte, dataType string, issueID, fieldID int64) []byte {
	var raw [1 + 2*binary.MaxVarintLen64]byte
	b := append(raw[:0], format)
	b = binary.AppendUvarint(b, uint64(issueID))
	b = binary.AppendUvarint(b, uint64(fieldID))
	prefix, ok := valuePrefixes[dataType]
	if !ok {
		prefix = unknownValuePrefix
	}
	buf = append(append(buf, prefix...), '_')
	return base64.RawURLEncoding.AppendEncode(buf, b)
}

// Value returns the node_id that AppendValue appends.
func Value(dataType string, issueID, fieldID int64) string {
	return string(AppendValue(nil, dataType, issueID, fieldID))
}

// encode returns the node_id of id.
func encode(id ID) string {
	l := layouts[id.Kind]
	if id.Kind == KindValue {
		return Value(id.DataType, id.Issue, id.Field)
	}
	b := []byte{format}
	for _, n := range l.numbers(&id) {
		b = binary.AppendUvarint(b, uint64(*n))
	}
	if l.text != nil {
		b = append(b, strings.ToLower(*l.text(&id))...)
	}
	return l.prefix + "_" + base64.RawURLEncoding.EncodeToString(b)
}

// ErrMalformed tells that a node_id is not one that this package makes.
var ErrMalformed = errors.New("not a node_id of this server")

// Decode returns what nodeID names, or an error that wraps ErrMalformed
// when nodeID is not a node_id that this package makes: an unknown prefix,
// a form that is not the kind's, an ID that no store gives (not positive,
// or an issue's beyond MaxIssueID), or a form that encodes differently.
func Decode(nodeID string) (ID, error) {
	prefix, rest, ok := strings.Cut(nodeID, "_")
	if !ok {
		return ID{}, malformed(nodeID)
	}
	id := ID{Kind: kindOf(prefix)}
	if id.Kind == KindValue {
		id.DataType = dataTypeOf(prefix)
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(rest)
	if id.Kind == 0 || err != nil || len(b) == 0 || b[0] != format {
		return ID{}, malformed(nodeID)
	}
	l := layouts[id.Kind]
	b = b[1:]
	for _, n := range l.numbers(&id) {
		v, size := binary.Uvarint(b)
		if size <= 0 || v == 0 || v > 1<<63-1 {
			return ID{}, malformed(nodeID)
		}
		*n, b = int64(v), b[size:]
	}
	if l.text != nil {
		if !validText(b) {
			return ID{}, malformed(nodeID)
		}
		*l.text(&id), b = string(b), nil
	}
	if len(b) != 0 || id.Issue > MaxIssueID || encode(id) != nodeID {
		return ID{}, malformed(nodeID)
	}
	return id, nil
}

// kindOf returns the kind whose node_ids begin with prefix, or 0.
func kindOf(prefix string) Kind {
	if dataTypeOf(prefix) != "" {
		return KindValue
	}
	for kind, l := range layouts {
		if l.prefix == prefix && kind != KindValue {
			return kind
		}
	}
	return 0
}

// dataTypeOf returns the data type whose values' node_ids begin with
// prefix, or "".
func dataTypeOf(prefix string) string {
	for dataType, p := range valuePrefixes {
		if p == prefix {
			return dataType
		}
	}
	return ""
}

// validText reports whether b can be the text of a node_id: a login or a
// label's name, 1 to 256 bytes of UTF-8 without control characters. (That
// it is in lower case, Decode checks by encoding it again.)
func validText(b []byte) bool {
	if len(b) == 0 || len(b) > 256 || !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// malformed returns the error of Decode for nodeID.
func malformed(nodeID string) error {
	if len(nodeID) > 64 {
		nodeID = nodeID[:64] + "…"
	}
	return fmt.Errorf("%w: %q", ErrMalformed, nodeID)
}

// valueFieldBits is how many bits of a value's integer id hold the field's
// ID.
const valueFieldBits = 22

// ValueID returns the integer id of the value of the field fieldID on the
// issue issueID, as a webhook payload shows it: the issue's ID above the
// field's, within the integers that JavaScript holds exactly (an issue's ID
// is below 2^31). It is unique among values while field IDs stay below
// 2^22, as the stores' do; only the low 22 bits of a larger field ID count.
func ValueID(issueID, fieldID int64) int64 {
	return issueID<<valueFieldBits | fieldID&(1<<valueFieldBits-1)
}

// AccountID returns the ID of the account login (a user, a bot or an
// organization) when nothing gives one: a positive number derived from the
// login, case-insensitively, the same in every process, and within the
// integers that JavaScript holds exactly.
func AccountID(login string) int64 { return derived("account", strings.ToLower(login)) }

// LabelID returns the ID of the label name of the repository repoID, which
// no store holds: derived from both as AccountID derives, the name
// compared case-insensitively.
func LabelID(repoID int64, name string) int64 {
	return derived("label", strconv.FormatInt(repoID, 10)+"/"+strings.ToLower(name))
}

// InstallationID returns the ID of the app installation whose bot is login
// when nothing gives one, derived as AccountID derives.
func InstallationID(login string) int64 { return derived("installation", login) }

// derived returns a positive number below 2^53 derived from kind and name
// with FNV-1a.
func derived(kind, name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write([]byte(name))
	h.Write([]byte{0})
	return int64(h.Sum64()>>11) + 1
}
