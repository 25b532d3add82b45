package standin

import (
	"bytes"
	"encoding/json"
	"strings"
)

// mask is what a secret is replaced with.
const mask = "********"

// maskSecrets returns the JSON document doc with the value of every member
// named "secret" (in any case, as encoding/json matches names), at any depth, replaced by "********", or nil when doc is
// not one whole JSON value, since a secret in it could not be found.
func maskSecrets(doc []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil
	}
	masked, _ := maskValue(v)
	out, err := json.Marshal(masked)
	if err != nil {
		return nil
	}
	return out
}

// maskValue returns v, a decoded JSON value, with the value of every member
// named "secret" replaced by mask, and whether it had such a member.
func maskValue(v any) (any, bool) {
	masked := false
	switch v := v.(type) {
	case map[string]any:
		for k, member := range v {
			if strings.EqualFold(k, "secret") {
				v[k], masked = mask, true
				continue
			}
			var deeper bool
			v[k], deeper = maskValue(member)
			masked = masked || deeper
		}
	case []any:
		for i, item := range v {
			var deeper bool
			v[i], deeper = maskValue(item)
			masked = masked || deeper
		}
	}
	return v, masked
}
