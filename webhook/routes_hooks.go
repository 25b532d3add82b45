package webhook

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// listHooks serves GET .../hooks: the scope's hooks, by ID, a page of them.
func (rt *Routes) listHooks(c *hookCall) error {
	hooks, err := rt.hooks.Hooks(c.ctx(), c.scope)
	if err != nil {
		return err
	}
	q := c.r.URL.Query()
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
		c.w.Header().Set("Link", rt.pageLinks(c, page, last))
	}
	writeJSON(c.w, http.StatusOK, out)
	return nil
}

// createHook serves POST .../hooks: 201 with the new hook, which then gets a
// ping.
func (rt *Routes) createHook(c *hookCall) error {
	body, err := readHookBody(c, rt.maxBody)
	if err != nil {
		return err
	}
	if err := body.checkCreate(c.org); err != nil {
		return err
	}
	now := time.Now().UTC().Truncate(time.Second)
	h := Hook{Scope: c.scope, Active: true, Events: []string{"push"},
		Config: Config{ContentType: "form", InsecureSSL: "0"}, CreatedAt: now, UpdatedAt: now}
	body.applyTo(&h)
	h, err = rt.hooks.CreateHook(c.ctx(), h, MaxHooks)
	if errors.Is(err, ErrTooManyHooks) {
		return invalid(validationItem{Resource: "Hook", Code: "custom",
			Message: "Too many hooks: " + c.owner + " has " + strconv.Itoa(MaxHooks) + " already, the most it may have."})
	}
	if err != nil {
		return err
	}
	out := rt.hookJSON(c, &h) // before the ping, which its last_response must not show
	if err := rt.notifier.Ping(h, c.repo, c.principal.Login); err != nil {
		rt.log.Error("webhook: cannot queue the ping of a new hook", "hook_id", h.ID, "err", err)
	}
	c.w.Header().Set("Location", out.URL)
	writeJSON(c.w, http.StatusCreated, out)
	return nil
}

// getHook serves GET .../hooks/{hook_id}.
func (rt *Routes) getHook(c *hookCall) error {
	h, err := rt.findHook(c)
	if err != nil {
		return err
	}
	writeJSON(c.w, http.StatusOK, rt.hookJSON(c, &h))
	return nil
}

// updateHook serves PATCH .../hooks/{hook_id}: the changed hook.
func (rt *Routes) updateHook(c *hookCall) error {
	id, err := c.hookID()
	if err != nil {
		return err
	}
	body, err := readHookBody(c, rt.maxBody)
	if err != nil {
		return err
	}
	if err := body.checkUpdate(c.org); err != nil {
		return err
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
	writeJSON(c.w, http.StatusOK, rt.hookJSON(c, &h))
	return nil
}

// deleteHook serves DELETE .../hooks/{hook_id}: 204.
func (rt *Routes) deleteHook(c *hookCall) error {
	id, err := c.hookID()
	if err != nil {
		return err
	}
	if err := rt.hooks.DeleteHook(c.ctx(), c.scope, id); err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// getConfig serves GET .../hooks/{hook_id}/config.
func (rt *Routes) getConfig(c *hookCall) error {
	h, err := rt.findHook(c)
	if err != nil {
		return err
	}
	writeJSON(c.w, http.StatusOK, configJSONOf(h.Config))
	return nil
}

// updateConfig serves PATCH .../hooks/{hook_id}/config: the members given
// change, the others stay.
func (rt *Routes) updateConfig(c *hookCall) error {
	id, err := c.hookID()
	if err != nil {
		return err
	}
	cfg, err := readConfigBody(c, rt.maxBody)
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
	writeJSON(c.w, http.StatusOK, configJSONOf(h.Config))
	return nil
}

// listDeliveries serves GET .../hooks/{hook_id}/deliveries: newest first, a
// page of per_page from the cursor, with a Link to the next page.
func (rt *Routes) listDeliveries(c *hookCall) error {
	h, err := rt.findHook(c)
	if err != nil {
		return err
	}
	q := c.r.URL.Query()
	perPage := min(positiveOr(q.Get("per_page"), 30), 100)
	query := DeliveryQuery{Limit: perPage + 1, Status: q.Get("status")}
	if query.Status != "" && query.Status != "success" && query.Status != "failure" {
		return &answer{status: http.StatusBadRequest, message: `"status" must be success or failure.`}
	}
	if cursor := q.Get("cursor"); cursor != "" {
		if query.Before, err = parseCursor(cursor); err != nil {
			return err
		}
	}
	deliveries, err := rt.hooks.Deliveries(c.ctx(), h.ID, query)
	if err != nil {
		return err
	}
	if len(deliveries) > perPage {
		deliveries = deliveries[:perPage]
		next := *c.r.URL
		v := next.Query()
		v.Set("cursor", "v1_"+strconv.FormatInt(deliveries[perPage-1].ID, 10))
		next.RawQuery = v.Encode()
		c.w.Header().Set("Link", "<"+rt.absolute(next.EscapedPath(), next.RawQuery)+`>; rel="next"`)
	}
	out := make([]deliveryItemJSON, len(deliveries))
	for i := range deliveries {
		out[i] = deliveryItemJSONOf(&deliveries[i])
	}
	writeJSON(c.w, http.StatusOK, out)
	return nil
}

// getDelivery serves GET .../deliveries/{delivery_id}: the delivery with its
// request and response.
func (rt *Routes) getDelivery(c *hookCall) error {
	_, d, err := rt.findDelivery(c)
	if err != nil {
		return err
	}
	writeJSON(c.w, http.StatusOK, deliveryJSONOf(&d))
	return nil
}

// redeliver serves POST .../deliveries/{delivery_id}/attempts: 202, and the
// delivery's payload is sent again to the hook as it is now.
func (rt *Routes) redeliver(c *hookCall) error {
	h, d, err := rt.findDelivery(c)
	if err != nil {
		return err
	}
	if err := rt.notifier.Redeliver(h, d); err != nil {
		return invalid(validationItem{Resource: "HookDelivery", Code: "custom", Message: err.Error()})
	}
	writeJSON(c.w, http.StatusAccepted, struct{}{})
	return nil
}

// ping serves POST .../hooks/{hook_id}/pings: 204, and the hook gets a ping.
func (rt *Routes) ping(c *hookCall) error {
	h, err := rt.findHook(c)
	if err != nil {
		return err
	}
	if err := rt.notifier.Ping(h, c.repo, c.principal.Login); err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// findHook returns the hook of c's path, or 404.
func (rt *Routes) findHook(c *hookCall) (Hook, error) {
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
	return Hook{}, errNotFound
}

// findDelivery returns the hook and the delivery of c's path, or 404.
func (rt *Routes) findDelivery(c *hookCall) (Hook, Delivery, error) {
	h, err := rt.findHook(c)
	if err != nil {
		return Hook{}, Delivery{}, err
	}
	id, err := pathID(c.r, "delivery_id")
	if err != nil {
		return Hook{}, Delivery{}, err
	}
	d, err := rt.hooks.Delivery(c.ctx(), h.ID, id)
	return h, d, err
}

// pageLinks returns the Link header of page of last pages of c's list.
func (rt *Routes) pageLinks(c *hookCall, page, last int) string {
	var links []string
	add := func(rel string, n int) {
		u := *c.r.URL
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
func (rt *Routes) absolute(path, rawQuery string) string {
	u := rt.notifier.bodies.api + path
	if rawQuery != "" {
		u += "?" + rawQuery
	}
	return u
}

// parseCursor returns the delivery ID of a cursor of the deliveries list,
// v1_<id>, or 400.
func parseCursor(cursor string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimPrefix(cursor, "v1_"), 10, 64)
	if err != nil || id <= 0 || !strings.HasPrefix(cursor, "v1_") {
		return 0, &answer{status: http.StatusBadRequest, message: `"cursor" is not a cursor of this list: use the one its Link header gives.`}
	}
	return id, nil
}

// positiveOr parses s as a positive integer, or returns def.
func positiveOr(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return def
	}
	return n
}
