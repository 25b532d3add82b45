package issuefields

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"
)

// Limits of field definitions that the field management routes accept.
const (
	// MaxFieldNameLength is the largest number of characters (Unicode code
	// points) of a field's or an option's name.
	MaxFieldNameLength = 64
)

// fieldResource is the resource of the errors[] items of field bodies.
const fieldResource = "IssueField"

// OptionColors are the colors an option of a select field may have.
var OptionColors = []string{"gray", "blue", "green", "yellow", "orange", "red", "pink", "purple"}

// fieldRequest is a create or update body of the field management routes,
// decoded and checked on its own; a nil member was absent. Checks against
// the organization's fields come when the store hands them over (apply).
type fieldRequest struct {
	name        *string
	dataType    *DataType
	description *string // "" for null
	visibility  *Visibility
	options     *[]optionRequest
}

// optionRequest is one item of a body's options.
type optionRequest struct {
	id          int64 // 0 for a new option
	name, color string
	description string
	priority    *int
}

// problems collects the invalid parts of a field body.
type problems []FieldError

// add records that member field is invalid, with code and message; index is
// the position of an option, or -1.
func (p *problems) add(field, code string, index int, format string, args ...any) {
	e := FieldError{Resource: fieldResource, Field: field, Code: code, Message: fmt.Sprintf(format, args...)}
	if index >= 0 {
		e.Index = &index
	}
	*p = append(*p, e)
}

// err returns the 422 that lists p, or nil if p is empty.
func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return validationFailed(p...)
}

// parseFieldRequest decodes body, a create body when create is true and an
// update body otherwise. It refuses what is not a JSON object (400), a key
// that appears twice in one object (400), and reports every unknown key and
// every member of the wrong shape (422).
func parseFieldRequest(body []byte, create bool) (fieldRequest, error) {
	if !json.Valid(body) || !utf8.Valid(body) {
		return fieldRequest{}, errBodyNotJSON
	}
	body = trimSpace(body)
	if body[0] != '{' {
		return fieldRequest{}, errBodyNotObject
	}
	if err := checkDuplicateKeys(body); err != nil {
		return fieldRequest{}, err
	}
	var req fieldRequest
	var errs problems
	eachMember(body, func(rawKey, raw []byte) {
		switch key := stringValue(rawKey); key {
		case "name":
			req.name = decodeName(raw, key, -1, &errs)
		case "data_type":
			var t DataType
			if json.Unmarshal(raw, &t) != nil || !t.Valid() {
				errs.add(key, "invalid", -1, `"data_type" must be one of text, single_select, multi_select, number and date.`)
			}
			req.dataType = &t
		case "description":
			req.description = decodeDescription(raw, key, -1, &errs)
		case "visibility":
			var v Visibility
			if json.Unmarshal(raw, &v) != nil || v != VisibleToMembers && v != VisibleToAll {
				errs.add(key, "invalid", -1, `"visibility" must be %q or %q.`, VisibleToMembers, VisibleToAll)
			}
			req.visibility = &v
		case "options":
			opts := decodeOptions(raw, !create, &errs)
			req.options = &opts
		default:
			errs.add(key, "invalid", -1, "Unknown key %q: a field has name, data_type, description, visibility and options.", key)
		}
	})
	if create && req.name == nil {
		errs.add("name", "missing_field", -1, `A new field needs "name".`)
	}
	if create && req.dataType == nil {
		errs.add("data_type", "missing_field", -1, `A new field needs "data_type": text, single_select, multi_select, number or date.`)
	}
	return req, errs.err()
}

// readFieldBody reads the body of r, a create or an update, at most limit
// bytes of it; a field body is small, so it is read whole. bodyPending is
// cleared once the body has been read to its end.
func readFieldBody(w http.ResponseWriter, r *http.Request, limit int64, bodyPending *bool) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, bodyTooLarge(limit)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, bodyTooLarge(limit)
	case err != nil:
		return nil, fmt.Errorf("%w: %w", errBodyUnreadable, err)
	}
	*bodyPending = false
	return body, nil
}

// checkDuplicateKeys refuses a body in which a key appears twice in the
// object or in one of its options.
func checkDuplicateKeys(body []byte) error {
	objects := [][]byte{body}
	eachMember(body, func(key, raw []byte) {
		if keyIs(key, "options") && raw[0] == '[' {
			eachElement(raw, func(elem []byte) {
				if elem[0] == '{' {
					objects = append(objects, elem)
				}
			})
		}
	})
	for _, obj := range objects {
		var seen []string
		var dup string
		eachMember(obj, func(key, _ []byte) {
			if k := stringValue(key); slices.Contains(seen, k) && dup == "" {
				dup = k
			} else {
				seen = append(seen, k)
			}
		})
		if dup != "" {
			return duplicateKey(dup)
		}
	}
	return nil
}

// decodeName decodes the name member raw of a field or of option index.
func decodeName(raw []byte, member string, index int, errs *problems) *string {
	var name string
	if json.Unmarshal(raw, &name) != nil || name == "" || utf8.RuneCountInString(name) > MaxFieldNameLength {
		errs.add(member, "invalid", index, "A name is a string of 1 to %d characters.", MaxFieldNameLength)
	}
	return &name
}

// decodeDescription decodes the description member raw: a string, or null
// for none.
func decodeDescription(raw []byte, member string, index int, errs *problems) *string {
	var d *string
	if json.Unmarshal(raw, &d) != nil {
		errs.add(member, "invalid", index, `"description" must be a string or null.`)
	}
	if d == nil {
		d = new(string)
	}
	return d
}

// decodeOptions decodes the options member raw. Only an update body may
// name an option by its id.
func decodeOptions(raw []byte, update bool, errs *problems) []optionRequest {
	if raw[0] != '[' {
		errs.add("options", "invalid", -1, `"options" must be an array of {"name", "color", "priority", "description"} objects.`)
		return nil
	}
	var opts []optionRequest
	eachElement(raw, func(elem []byte) {
		i := len(opts)
		opts = append(opts, decodeOption(elem, i, update, errs))
	})
	return opts
}

// decodeOption decodes option index of a body.
func decodeOption(raw []byte, index int, update bool, errs *problems) optionRequest {
	var o optionRequest
	if raw[0] != '{' {
		errs.add("options", "invalid", index, `Each option must be an object with "name" and "color".`)
		return o
	}
	var hasName, hasColor bool
	eachMember(raw, func(rawKey, value []byte) {
		switch key := stringValue(rawKey); {
		case key == "id" && update:
			if id, ok := parsePositiveInt(string(value)); ok {
				o.id = id
			} else {
				errs.add("id", "invalid", index, `An option's "id" is the positive integer id of an option of the field.`)
			}
		case key == "name":
			o.name, hasName = *decodeName(value, key, index, errs), true
		case key == "color":
			hasColor = true
			if json.Unmarshal(value, &o.color) != nil || !slices.Contains(OptionColors, o.color) {
				errs.add(key, "invalid", index, `"color" must be one of %s.`, strings.Join(OptionColors, ", "))
			}
		case key == "priority":
			var p int
			if json.Unmarshal(value, &p) != nil {
				errs.add(key, "invalid", index, `"priority" must be an integer.`)
			}
			o.priority = &p
		case key == "description":
			o.description = *decodeDescription(value, key, index, errs)
		default:
			errs.add(key, "invalid", index, "Unknown key %q: an option has name, color, priority, description and, in an update, id.", key)
		}
	})
	if !hasName {
		errs.add("name", "missing_field", index, `Each option needs "name".`)
	}
	if !hasColor {
		errs.add("color", "missing_field", index, `Each option needs "color": one of %s.`, strings.Join(OptionColors, ", "))
	}
	return o
}
