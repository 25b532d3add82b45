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
	out, err := json.Marshal(maskValue(v))
	if err != nil {
		return nil
	}
	return out
}

// maskValue returns v, a decoded JSON value, with the value of every member
// named "secret" replaced by mask.
func maskValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, member := range v {
			if strings.EqualFold(k, "secret") {
				v[k] = mask
			} else {
				v[k] = maskValue(member)
			}
		}
	case []any:
		for i, item := range v {
			v[i] = maskValue(item)
		}
	}
	return v
}
