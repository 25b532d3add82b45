package standin

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
)

// mask is what a secret is replaced with.
const mask = "********"

// maskSecrets returns the JSON document doc, compact, with its secrets
// masked, as maskValue masks them, or nil when doc is not one whole JSON
// value, since a secret in it could not be found.
func maskSecrets(doc []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil
	}
	masked, _ := maskValue(v)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // markup is shown as sent, not six bytes a character
	if err := enc.Encode(masked); err != nil {
		return nil
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

// maskValue returns v, a decoded JSON value, with the value of every member
// named "secret", at any depth, replaced by mask, and that of every member
// named "url" that is a string shown as shownURL shows it; and whether it
// changed any. A name matches in any case, as encoding/json matches names.
func maskValue(v any) (any, bool) {
	masked := false
	switch v := v.(type) {
	case map[string]any:
		for k, member := range v {
			if strings.EqualFold(k, "secret") {
				v[k], masked = mask, true
				continue
			}
			if raw, ok := member.(string); ok && strings.EqualFold(k, "url") {
				if shown := shownURL(raw); shown != raw {
					v[k], masked = shown, true
				}
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

// shownURL returns the URL raw as the page and the recorded requests show
// it, a hook's URL and every "url" member of a JSON body alike: with its
// user name and password, if it has any, replaced by one mask, since a
// token is often given as the user name, and with the values of the query
// parameters that can carry a token or a secret masked; a URL that does not
// parse is masked whole.
func shownURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return mask
	}
	if u.User != nil {
		u.User = url.User(mask)
	}
	u.RawQuery = maskQuery(u.RawQuery)
	return u.String()
}

// maskedQueryKeys are the query parameters that can carry a token or a
// secret, whose values shownURL and a Journal mask.
var maskedQueryKeys = []string{"access_token", "token", "client_secret", "secret"}

// maskQuery returns the query string raw with the values of maskedQueryKeys
// masked; a query that does not parse is left out whole.
func maskQuery(raw string) string {
	if raw == "" {
		return ""
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return mask
	}
	changed := false
	for _, k := range maskedQueryKeys {
		if vs, ok := q[k]; ok {
			for i := range vs {
				vs[i] = mask
			}
			changed = true
		}
	}
	if !changed {
		return raw
	}
	return q.Encode()
}
