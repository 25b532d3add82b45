package webhook

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
)

// listHooks serves GET .../hooks: the scope's hooks, by ID, a page of them.
func (rt *routes) listHooks(c *hookCall) error {
	hooks, err := rt.hooks.Hooks(c.ctx(), c.scope)
	if err != nil {
		return err
	}
	q := c.Request().URL.Query()
	perPage := min(positiveOr(q.Get("per_page"), 30), 100)
	page := positiveOr(q.Get("page"), 1)
	lo := min((page-1)*perPage, len(hooks))
	if page-1 > len(hooks)/perPage {
		lo = len(hooks)
	}
	hi := min(lo+perPage, len(hooks))
	out := make([]hookJSON, 0, hi-lo)
	for i := range hooks[lo:hi] {
		out = append(out, rt.hookJSON(c, &hooks[lo+i]))
	}
	if last := max(1, (len(hooks)+perPage-1)/perPage); last > 1 {
		c.Header().Set("Link", rt.pageLinks(c, page, last))
	}
	return c.WriteJSON(http.StatusOK, out)
}

// createHook serves POST .../hooks: 201 with the new hook, which then gets a
// ping.
func (rt *routes) createHook(c *hookCall) error {
	body, err := readHookBody(c)
	if err != nil {
		return err
	}
	if problems := body.checkCreate(c.org); problems != nil {
		return c.invalid(problems...)
	}
	now := time.Now().UTC().Truncate(time.Second)
	h := Hook{Scope: c.scope, Active: true, Events: []string{"push"},
		Config: Config{ContentType: "form", InsecureSSL: "0"}, CreatedAt: now, UpdatedAt: now}
	body.applyTo(&h)
	h, err = rt.hooks.CreateHook(c.ctx(), h, MaxHooks)
	if errors.Is(err, ErrTooManyHooks) {
		return c.invalid(validationItem{Resource: "Hook", Code: "custom",
			Message: "Too many hooks: " + c.owner + " has " + strconv.Itoa(MaxHooks) + " already, the most it may have."})
	}
	if err != nil {
		return err
	}
	out := rt.hookJSON(c, &h) // before the ping, which its last_response must not show
	if err := rt.notifier.Ping(h, c.repo, c.Principal().Login); err != nil {
		rt.notifier.log.Error("webhook: cannot queue the ping of a new hook", "hook_id", h.ID, "err", err)
	}
	c.Header().Set("Location", out.URL)
	return c.WriteJSON(http.StatusCreated, out)
}

// getHook serves GET .../hooks/{hook_id}.
func (rt *routes) getHook(c *hookCall) error {
	h, err := rt.findHook(c)
	if err != nil {
		return err
	}
	return c.WriteJSON(http.StatusOK, rt.hookJSON(c, &h))
}

// updateHook serves PATCH .../hooks/{hook_id}: the changed hook.
func (rt *routes) updateHook(c *hookCall) error {
	id, err := c.hookID()
	if err != nil {
		return err
	}
	body, err := readHookBody(c)
	if err != nil {
		return err
	}
	if problems := body.checkUpdate(c.org); problems != nil {
		return c.invalid(problems...)
	}
	h, err := rt.hooks.UpdateHook(c.ctx(), c.scope, id, func(h Hook) (Hook, error) {
		if body.config != nil && body.config.secret == nil {
			// GitHub's rule: a new config without the secret removes it.
			h.Config.Secret = ""
		}
		body.applyTo(&h)
		h.UpdatedAt = time.Now().UTC().Truncate(time.Second)
		return h, nil
	})
	if err != nil {
		return err
	}
	return c.WriteJSON(http.StatusOK, rt.hookJSON(c, &h))
}

// deleteHook serves DELETE .../hooks/{hook_id}: 204.
func (rt *routes) deleteHook(c *hookCall) error {
	id, err := c.hookID()
	if err != nil {
		return err
	}
	if err := rt.hooks.DeleteHook(c.ctx(), c.scope, id); err != nil {
		return err
	}
	c.WriteHeader(http.StatusNoContent)
	return nil
}

// getConfig serves GET .../hooks/{hook_id}/config.
func (rt *routes) getConfig(c *hookCall) error {
	h, err := rt.findHook(c)
	if err != nil {
		return err
	}
	return c.WriteJSON(http.StatusOK, configJSONOf(h.Config))
}

// updateConfig serves PATCH .../hooks/{hook_id}/config: the members given
// change, the others stay.
func (rt *routes) updateConfig(c *hookCall) error {
	id, err := c.hookID()
	if err != nil {
		return err
	}
	cfg, err := readConfigBody(c)
	if err != nil {
		return err
	}
	h, err := rt.hooks.UpdateHook(c.ctx(), c.scope, id, func(h Hook) (Hook, error) {
		cfg.applyTo(&h.Config)
		h.UpdatedAt = time.Now().UTC().Truncate(time.Second)
		return h, nil
	})
	if err != nil {
		return err
	}
	return c.WriteJSON(http.StatusOK, configJSONOf(h.Config))
}

// listDeliveries serves GET .../hooks/{hook_id}/deliveries: newest first, a
// page of per_page from the cursor, with a Link to the next page.
func (rt *routes) listDeliveries(c *hookCall) error {
	h, err := rt.findHook(c)
	if err != nil {
		return err
	}
	q := c.Request().URL.Query()
	perPage := min(positiveOr(q.Get("per_page"), 30), 100)
	query := DeliveryQuery{Limit: perPage + 1, Status: q.Get("status")}
	if query.Status != "" && query.Status != "success" && query.Status != "failure" {
		return c.BadRequest(`"status" must be success or failure.`)
	}
	if cursor := q.Get("cursor"); cursor != "" {
		var ok bool
		if query.Before, ok = parseCursor(cursor); !ok {
			return c.BadRequest(`"cursor" is not a cursor of this list: use the one its Link header gives.`)
		}
	}
	deliveries, err := rt.hooks.Deliveries(c.ctx(), h.ID, query)
	if err != nil {
		return err
	}
	if len(deliveries) > perPage {
		deliveries = deliveries[:perPage]
		next := *c.Request().URL
		v := next.Query()
		v.Set("cursor", "v1_"+strconv.FormatInt(deliveries[perPage-1].ID, 10))
		next.RawQuery = v.Encode()
		c.Header().Set("Link", "<"+rt.absolute(next.EscapedPath(), next.RawQuery)+`>; rel="next"`)
	}
	out := make([]deliveryItemJSON, len(deliveries))
	for i := range deliveries {
		out[i] = deliveryItemJSONOf(&deliveries[i])
	}
	return c.WriteJSON(http.StatusOK, out)
}

// getDelivery serves GET .../deliveries/{delivery_id}: the delivery with its
// request and response.
func (rt *routes) getDelivery(c *hookCall) error {
	_, d, err := rt.findDelivery(c)
	if err != nil {
		return err
	}
	return c.WriteJSON(http.StatusOK, deliveryJSONOf(&d))
}

// redeliver serves POST .../deliveries/{delivery_id}/attempts: 202, and the
// delivery's payload is sent again to the hook as it is now.
func (rt *routes) redeliver(c *hookCall) error {
	h, d, err := rt.findDelivery(c)
	if err != nil {
		return err
	}
	if err := rt.notifier.Redeliver(h, d); err != nil {
		return c.invalid(validationItem{Resource: "HookDelivery", Code: "custom", Message: err.Error()})
	}
	return c.WriteJSON(http.StatusAccepted, struct{}{})
}

// ping serves POST .../hooks/{hook_id}/pings: 204, and the hook gets a ping.
func (rt *routes) ping(c *hookCall) error {
	h, err := rt.findHook(c)
	if err != nil {
		return err
	}
	if err := rt.notifier.Ping(h, c.repo, c.Principal().Login); err != nil {
		return err
	}
	c.WriteHeader(http.StatusNoContent)
	return nil
}

// findHook returns the hook of c's path, or 404.
func (rt *routes) findHook(c *hookCall) (Hook, error) {
	id, err := c.hookID()
	if err != nil {
		return Hook{}, err
	}
	hooks, err := rt.hooks.Hooks(c.ctx(), c.scope)
	if err != nil {
		return Hook{}, err
	}
	for _, h := range hooks {
		if h.ID == id {
			return h, nil
		}
	}
	return Hook{}, issuefields.ErrNotFound
}

// findDelivery returns the hook and the delivery of c's path, or 404.
func (rt *routes) findDelivery(c *hookCall) (Hook, Delivery, error) {
	h, err := rt.findHook(c)
	if err != nil {
		return Hook{}, Delivery{}, err
	}
	id, err := pathID(c.Request(), "delivery_id")
	if err != nil {
		return Hook{}, Delivery{}, err
	}
	d, err := rt.hooks.Delivery(c.ctx(), h.ID, id)
	return h, d, err
}

// pageLinks returns the Link header of page of last pages of c's list.
func (rt *routes) pageLinks(c *hookCall, page, last int) string {
	var links []string
	add := func(rel string, n int) {
		u := *c.Request().URL
		v := u.Query()
		v.Set("page", strconv.Itoa(n))
		u.RawQuery = v.Encode()
		links = append(links, "<"+rt.absolute(u.EscapedPath(), u.RawQuery)+`>; rel="`+rel+`"`)
	}
	if page > 1 {
		add("first", 1)
		if page <= last {
			add("prev", page-1)
		}
	}
	if page < last {
		add("next", page+1)
	}
	if page != last {
		add("last", last)
	}
	return strings.Join(links, ", ")
}

// absolute returns the absolute URL of path, a path below the routes' mount
// point, with rawQuery, under the configured base URL.
func (rt *routes) absolute(path, rawQuery string) string {
	u := rt.notifier.objects.api() + path
	if rawQuery != "" {
		u += "?" + rawQuery
	}
	return u
}

// parseCursor returns the delivery ID of a cursor of the deliveries list,
// v1_<id>, and reports whether cursor is one.
func parseCursor(cursor string) (int64, bool) {
	id, err := strconv.ParseInt(strings.TrimPrefix(cursor, "v1_"), 10, 64)
	return id, err == nil && id > 0 && strings.HasPrefix(cursor, "v1_")
}

// positiveOr parses s as a positive integer, or returns def.
func positiveOr(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return def
	}
	return n
}
