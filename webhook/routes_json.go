package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// hookBody is a create or update body of a hook, decoded; a nil member was
// absent. Keys the schema does not list, and the read-only keys a client may
// send back (id, url, created_at, …), are ignored, as GitHub ignores them.
type hookBody struct {
	name                            *string
	config                          *configBody
	events, addEvents, removeEvents *[]string
	active                          *bool
}

// configBody is a hook's config in a body; a nil member was absent.
type configBody struct {
	url, contentType, secret, insecureSSL *string
}

// maskedSecret is how answers show a secret, and what a client that sends a
// fetched hook back gives as its secret: it keeps the secret.
const maskedSecret = "********"

// readHookBody reads and decodes a hook body of c's request. It refuses
// what Call.ReadObject refuses, and a known key of the wrong type (422).
func readHookBody(c *hookCall) (hookBody, error) {
	members, err := c.ReadObject()
	if err != nil {
		return hookBody{}, err
	}
	var b hookBody
	var problems []validationItem
	decode := func(key string, into any) bool {
		raw, ok := members[key]
		if !ok {
			return false
		}
		if err := json.Unmarshal(raw, into); err != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			problems = append(problems, validationItem{Resource: "Hook", Field: key, Code: "invalid",
				Message: fmt.Sprintf("%q must be %s.", key, kindOf(into))})
			return false
		}
		return true
	}
	var name string
	if decode("name", &name) {
		b.name = &name
	}
	var events, add, remove []string
	if decode("events", &events) {
		b.events = &events
	}
	if decode("add_events", &add) {
		b.addEvents = &add
	}
	if decode("remove_events", &remove) {
		b.removeEvents = &remove
	}
	var active bool
	if decode("active", &active) {
		b.active = &active
	}
	var config map[string]json.RawMessage
	if decode("config", &config) {
		cfg, configProblems := decodeConfig(config)
		b.config, problems = &cfg, append(problems, configProblems...)
	}
	if problems != nil {
		return b, c.invalid(problems...)
	}
	return b, nil
}

// readConfigBody reads and decodes the body of PATCH .../config.
func readConfigBody(c *hookCall) (configBody, error) {
	members, err := c.ReadObject()
	if err != nil {
		return configBody{}, err
	}
	cfg, problems := decodeConfig(members)
	if problems != nil {
		return cfg, c.invalid(problems...)
	}
	return cfg, nil
}

// decodeConfig decodes the members of a hook's config.
func decodeConfig(members map[string]json.RawMessage) (configBody, []validationItem) {
	var cfg configBody
	var problems []validationItem
	str := func(key string) *string {
		raw, ok := members[key]
		if !ok {
			return nil
		}
		var s string
		if key == "insecure_ssl" {
			var n json.Number
			if json.Unmarshal(raw, &n) == nil && (n == "0" || n == "1") {
				s = string(n)
				return &s
			}
		}
		if json.Unmarshal(raw, &s) != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			problems = append(problems, validationItem{Resource: "Hook", Field: "config." + key, Code: "invalid",
				Message: fmt.Sprintf("%q must be a string.", key)})
			return nil
		}
		return &s
	}
	cfg.url, cfg.contentType, cfg.secret, cfg.insecureSSL = str("url"), str("content_type"), str("secret"), str("insecure_ssl")
	if cfg.url != nil {
		if err := CheckHookURL(*cfg.url); err != nil {
			problems = append(problems, validationItem{Resource: "Hook", Field: "config.url", Code: "invalid",
				Message: fmt.Sprintf(`"url" is refused: %v.`, err)})
		}
	}
	if cfg.contentType != nil && *cfg.contentType != "json" && *cfg.contentType != "form" {
		problems = append(problems, validationItem{Resource: "Hook", Field: "config.content_type", Code: "invalid",
			Message: `"content_type" must be json or form.`})
	}
	if cfg.insecureSSL != nil && *cfg.insecureSSL != "0" && *cfg.insecureSSL != "1" {
		problems = append(problems, validationItem{Resource: "Hook", Field: "config.insecure_ssl", Code: "invalid",
			Message: `"insecure_ssl" must be "0" or "1".`})
	}
	return cfg, problems
}

// kindOf says, for a message, what JSON value into takes.
func kindOf(into any) string {
	switch into.(type) {
	case *string:
		return "a string"
	case *bool:
		return "true or false"
	case *[]string:
		return "an array of strings"
	}
	return "an object"
}

// checkCreate returns what a create body lacks or has wrong: the name web,
// and a config with a url. org is set for an organization's hook, whose body
// names it.
func (b *hookBody) checkCreate(org bool) []validationItem {
	var problems []validationItem
	switch {
	case b.name == nil && org:
		problems = append(problems, validationItem{Resource: "Hook", Field: "name", Code: "missing_field", Message: `A hook needs "name": "web".`})
	case b.name != nil && *b.name != "web":
		problems = append(problems, validationItem{Resource: "Hook", Field: "name", Code: "invalid", Message: `"name" must be "web".`})
	}
	if b.config == nil || b.config.url == nil {
		problems = append(problems, validationItem{Resource: "Hook", Field: "config.url", Code: "missing_field",
			Message: `A hook needs "config": {"url": <where deliveries go>}.`})
	}
	return problems
}

// checkUpdate returns what an update body has wrong: another name, and for
// an organization's hook a config without its url.
func (b *hookBody) checkUpdate(org bool) []validationItem {
	var problems []validationItem
	if b.name != nil && *b.name != "web" {
		problems = append(problems, validationItem{Resource: "Hook", Field: "name", Code: "invalid", Message: `"name" must be "web".`})
	}
	if org && b.config != nil && b.config.url == nil {
		problems = append(problems, validationItem{Resource: "Hook", Field: "config.url", Code: "missing_field",
			Message: `A new "config" needs "url".`})
	}
	return problems
}

// applyTo changes h as b says.
func (b *hookBody) applyTo(h *Hook) {
	if b.active != nil {
		h.Active = *b.active
	}
	if b.events != nil {
		h.Events = slices.Clone(*b.events)
	}
	if b.addEvents != nil {
		for _, e := range *b.addEvents {
			if !slices.Contains(h.Events, e) {
				h.Events = append(h.Events, e)
			}
		}
	}
	if b.removeEvents != nil {
		h.Events = slices.DeleteFunc(slices.Clone(h.Events), func(e string) bool { return slices.Contains(*b.removeEvents, e) })
	}
	if b.config != nil {
		b.config.applyTo(&h.Config)
	}
	if h.Events == nil {
		h.Events = []string{}
	}
}

// applyTo changes the members of cfg that c gives. A secret given as the
// mask keeps the secret.
func (c *configBody) applyTo(cfg *Config) {
	if c.url != nil {
		cfg.URL = *c.url
	}
	if c.contentType != nil {
		cfg.ContentType = *c.contentType
	}
	if c.secret != nil && *c.secret != maskedSecret {
		cfg.Secret = *c.secret
	}
	if c.insecureSSL != nil {
		cfg.InsecureSSL = *c.insecureSSL
	}
}

// hookJSON is a hook as the routes answer it: GitHub's org-hook for an
// organization's hook, its hook for a repository's.
type hookJSON struct {
	Type          string        `json:"type"`
	ID            int64         `json:"id"`
	Name          string        `json:"name"`
	Active        bool          `json:"active"`
	Events        []string      `json:"events"`
	Config        configJSON    `json:"config"`
	UpdatedAt     time.Time     `json:"updated_at"`
	CreatedAt     time.Time     `json:"created_at"`
	URL           string        `json:"url"`
	TestURL       string        `json:"test_url,omitempty"`
	PingURL       string        `json:"ping_url"`
	DeliveriesURL string        `json:"deliveries_url"`
	LastResponse  *lastResponse `json:"last_response,omitempty"`
}

// configJSON is a hook's config as answers show it: the secret masked.
type configJSON struct {
	ContentType string `json:"content_type"`
	InsecureSSL string `json:"insecure_ssl"`
	Secret      string `json:"secret,omitempty"`
	URL         string `json:"url"`
}

// lastResponse is GitHub's hook-response: what the hook's newest delivery
// got, or "unused" for a hook that has none.
type lastResponse struct {
	Code    *int    `json:"code"`
	Status  string  `json:"status"`
	Message *string `json:"message"`
}

// hookJSON returns h as c's routes answer it.
func (rt *routes) hookJSON(c *hookCall, h *Hook) hookJSON {
	url := rt.notifier.objects.hookURL(h, c.repo)
	out := hookJSON{Type: "Organization", ID: h.ID, Name: "web", Active: h.Active, Events: eventsOf(h),
		Config: configJSONOf(h.Config), UpdatedAt: h.UpdatedAt, CreatedAt: h.CreatedAt,
		URL: url, PingURL: url + "/pings", DeliveriesURL: url + "/deliveries"}
	if c.repo != nil {
		out.Type, out.TestURL = "Repository", url+"/test"
		out.LastResponse = &lastResponse{Status: "unused"}
		if last, err := rt.hooks.Deliveries(c.ctx(), h.ID, DeliveryQuery{Limit: 1}); err == nil && len(last) == 1 {
			d := last[0]
			out.LastResponse.Status, out.LastResponse.Message = "active", &d.Status
			if d.StatusCode != 0 {
				out.LastResponse.Code = &d.StatusCode
			}
		}
	}
	return out
}

// configJSONOf returns cfg as answers show it.
func configJSONOf(cfg Config) configJSON {
	out := configJSON{ContentType: cfg.ContentType, InsecureSSL: cfg.InsecureSSL, URL: cfg.URL}
	if cfg.Secret != "" {
		out.Secret = maskedSecret
	}
	return out
}

// deliveryItemJSON is a delivery in a list, GitHub's hook-delivery-item.
type deliveryItemJSON struct {
	ID             int64      `json:"id"`
	GUID           string     `json:"guid"`
	DeliveredAt    time.Time  `json:"delivered_at"`
	Redelivery     bool       `json:"redelivery"`
	Duration       float64    `json:"duration"`
	Status         string     `json:"status"`
	StatusCode     int        `json:"status_code"`
	Event          string     `json:"event"`
	Action         *string    `json:"action"`
	InstallationID *int64     `json:"installation_id"`
	RepositoryID   *int64     `json:"repository_id"`
	ThrottledAt    *time.Time `json:"throttled_at"`
}

// deliveryJSON is one delivery whole, GitHub's hook-delivery.
type deliveryJSON struct {
	deliveryItemJSON
	URL     string `json:"url"`
	Request struct {
		Headers map[string]string `json:"headers"`
		Payload json.RawMessage   `json:"payload"`
	} `json:"request"`
	Response struct {
		Headers map[string]string `json:"headers"`
		Payload *string           `json:"payload"`
	} `json:"response"`
}

// deliveryItemJSONOf returns d as a list shows it.
func deliveryItemJSONOf(d *Delivery) deliveryItemJSON {
	nonZero := func(n int64) *int64 {
		if n == 0 {
			return nil
		}
		return &n
	}
	return deliveryItemJSON{ID: d.ID, GUID: d.GUID, DeliveredAt: d.DeliveredAt, Redelivery: d.Redelivery,
		Duration: d.Duration.Seconds(), Status: d.Status, StatusCode: d.StatusCode, Event: d.Event,
		Action: optional(d.Action), InstallationID: nonZero(d.InstallationID), RepositoryID: nonZero(d.RepositoryID)}
}

// cutMarker ends the body of an answer whose record was cut.
var cutMarker = fmt.Sprintf("\n[cut: a record keeps %d bytes of an answer's body, and %d of its headers and body together]",
	MaxRecordedBody, MaxRecordedResponse)

// deliveryJSONOf returns d whole: its request's payload as the JSON document
// it carried (null when the record of it was cut), and its response's body
// as text.
func deliveryJSONOf(d *Delivery) deliveryJSON {
	out := deliveryJSON{deliveryItemJSON: deliveryItemJSONOf(d), URL: d.URL}
	out.Request.Headers = flatten(d.Request.Header)
	out.Request.Payload = json.RawMessage("null")
	if payload, err := recordedPayload(d.Request); err == nil && json.Valid(payload) {
		out.Request.Payload = payload
	}
	out.Response.Headers = flatten(d.Response.Header)
	if d.Response.Body != nil || d.StatusCode != 0 {
		body := string(d.Response.Body)
		if d.Response.Truncated {
			body += cutMarker
		}
		out.Response.Payload = &body
	}
	return out
}

// flatten returns header as one value per name, the values of a repeated
// header joined by ", ".
func flatten(header map[string][]string) map[string]string {
	out := make(map[string]string, len(header))
	for name, values := range header {
		out[name] = strings.Join(values, ", ")
	}
	return out
}
