package webhooktest

import (
	"errors"
	"slices"
	"strings"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// deliveryCases check webhook.Store's deliveries, for a store that
// implements it; for another store each case passes without a call.
var deliveryCases = []testCase{
	{"AddDelivery gives each delivery an ID greater than every delivery ID before it, even of a deleted hook", deliveryIDsGrow},
	{"Delivery returns the delivery whole, with its headers and bodies exactly as given", deliveryWhole},
	{"AddDelivery keeps the newest KeptDeliveries deliveries of each hook, and forgets the older ones", deliveriesKept},
	{"AddDelivery does not record a delivery of a hook that no longer exists, and returns no error", deliveryOfDeletedHook},
	{"Deliveries returns the deliveries of the hook newest first, without their Request and Response, as Before and Limit select", deliveriesNewestFirst},
	{"Deliveries with Status success selects the deliveries whose StatusCode is 200 to 399, and with failure the others", deliveriesByStatus},
	{"Deliveries and Delivery return ErrNotFound for a hook or a delivery that does not exist", deliveryNotFound},
}

// addDelivery records d and returns it as recorded.
func (e *env) addDelivery(d webhook.Delivery) webhook.Delivery {
	e.r.Helper()
	added, err := e.s.AddDelivery(e.ctx, d)
	if err != nil {
		e.r.Fatalf("AddDelivery(%+v): %v", d, err)
	}
	return added
}

// deliveries returns the deliveries of hook hookID that q selects.
func (e *env) deliveries(hookID int64, q webhook.DeliveryQuery) []webhook.Delivery {
	e.r.Helper()
	ds, err := e.s.Deliveries(e.ctx, hookID, q)
	if err != nil {
		e.r.Fatalf("Deliveries(%d, %+v): %v", hookID, q, err)
	}
	return ds
}

// wantDeliveries reports a failure, citing when, unless the deliveries of
// hook hookID that q selects are want, listed: without Request and Response.
func (e *env) wantDeliveries(hookID int64, q webhook.DeliveryQuery, want []webhook.Delivery, when string) {
	e.r.Helper()
	wantListed := make([]webhook.Delivery, len(want))
	for i, d := range want {
		wantListed[i] = listed(d)
	}
	switch got := e.deliveries(hookID, q); {
	case !slices.Equal(idsOfDeliveries(got), idsOfDeliveries(want)):
		e.r.Errorf("%s: Deliveries(%d, %+v) = deliveries %v, want %v", when, hookID, q, idsOfDeliveries(got), idsOfDeliveries(want))
	case !equalDeliveries(got, wantListed):
		e.r.Errorf("%s: Deliveries(%d, %+v) = %+v, want %+v", when, hookID, q, got, wantListed)
	}
}

// wantDelivery reports a failure, citing when, unless Delivery returns
// want, whole.
func (e *env) wantDelivery(want webhook.Delivery, when string) {
	e.r.Helper()
	got, err := e.s.Delivery(e.ctx, want.HookID, want.ID)
	if err != nil {
		e.r.Fatalf("%s: Delivery(%d, %d): %v", when, want.HookID, want.ID, err)
	}
	if !equalDeliveries([]webhook.Delivery{got}, []webhook.Delivery{want}) {
		e.r.Errorf("%s: Delivery(%d, %d) = %+v, want %+v", when, want.HookID, want.ID, got, want)
	}
}

// twoHooks adds octo-org's hook and a hook of its repository hello-world,
// and returns their IDs.
func (e *env) twoHooks() (int64, int64) {
	e.r.Helper()
	org, repo := e.hookScopes()
	return e.createHook(aHook(org, "https://hooks.example.com/org")).ID, e.createHook(aHook(repo, "https://hooks.example.com/repo")).ID
}

func deliveryIDsGrow(e *env) {
	h := e.s
	first, second := e.twoHooks()
	var last int64
	check := func(d webhook.Delivery) {
		e.r.Helper()
		if d.ID <= last {
			e.r.Errorf("AddDelivery gave the ID %d after %d, want a greater one", d.ID, last)
		}
		last = d.ID
	}
	for range 3 {
		check(e.addDelivery(aDelivery(first, 200)))
		check(e.addDelivery(aDelivery(second, 500)))
	}
	if err := h.DeleteHook(e.ctx, webhook.Scope{Organization: "octo-org"}, first); err != nil {
		e.r.Fatalf("DeleteHook: %v", err)
	}
	check(e.addDelivery(aDelivery(second, 0)))
}

func deliveryWhole(e *env) {
	first, second := e.twoHooks()
	for _, c := range []struct {
		what string
		d    webhook.Delivery
	}{
		{"a delivery with every attribute set", aDelivery(first, 302)},
		{"a delivery without headers or bodies", webhook.Delivery{HookID: first, GUID: "g", Status: "timed out", Event: "ping"}},
		{"a delivery with empty headers and bodies", func() webhook.Delivery {
			d := aDelivery(second, 200)
			d.Request.Header, d.Request.Body = map[string][]string{}, []byte{}
			d.Response = webhook.Message{Header: map[string][]string{}, Body: []byte{}}
			return d
		}()},
		{"a delivery with bodies of MaxRecordedBody bytes", func() webhook.Delivery {
			d := aDelivery(second, 500)
			d.Request.Body = make([]byte, webhook.MaxRecordedBody)
			for i := range d.Request.Body {
				d.Request.Body[i] = byte(i * 7)
			}
			d.Response.Body = slices.Clone(d.Request.Body[1:])
			d.Response.Truncated = false
			return d
		}()},
		{"a delivery at the bounds of a record: a URL of MaxHookURLBytes, an answer of MaxRecordedResponse bytes, headers and body, cut", func() webhook.Delivery {
			d := aDelivery(first, 200)
			d.URL = "https://hooks.example.com/" + strings.Repeat("u", webhook.MaxHookURLBytes-len("https://hooks.example.com/"))
			d.Response = recordAtTheBound()
			return d
		}()},
	} {
		added := e.addDelivery(c.d)
		want := c.d
		want.ID = added.ID
		if !equalDeliveries([]webhook.Delivery{added}, []webhook.Delivery{want}) {
			e.r.Errorf("AddDelivery of %s returned %+v, want it with an ID: %+v", c.what, added, want)
		}
		e.wantDelivery(want, "after AddDelivery of "+c.what)
	}
}

func deliveriesKept(e *env) {
	busy, quiet := e.twoHooks()
	const more = 5
	var added, quietAdded []webhook.Delivery
	quietAdded = append(quietAdded, e.addDelivery(aDelivery(quiet, 200)))
	for i := range webhook.KeptDeliveries + more {
		d := aDelivery(busy, 200)
		if i != more { // all but the oldest kept are small, to be quick
			d.Request, d.Response = webhook.Message{}, webhook.Message{}
		}
		added = append(added, e.addDelivery(d))
	}
	quietAdded = append(quietAdded, e.addDelivery(aDelivery(quiet, 404)))
	newest := slices.Clone(added[more:])
	slices.Reverse(newest)
	e.wantDeliveries(busy, webhook.DeliveryQuery{Limit: webhook.KeptDeliveries + more}, newest,
		"after KeptDeliveries+5 deliveries of one hook")
	for _, d := range added[:more] {
		if got, err := e.s.Delivery(e.ctx, busy, d.ID); !errors.Is(err, issuefields.ErrNotFound) {
			e.r.Errorf("Delivery(%d, %d), one of the oldest past KeptDeliveries = %+v, %v; want ErrNotFound", busy, d.ID, got, err)
		}
	}
	e.wantDelivery(added[more], "the oldest delivery kept")
	slices.Reverse(quietAdded)
	e.wantDeliveries(quiet, webhook.DeliveryQuery{Limit: 10}, quietAdded, "a hook with two deliveries, while another hook had many")
}

func deliveryOfDeletedHook(e *env) {
	h := e.s
	gone, kept := e.twoHooks()
	keptDelivery := e.addDelivery(aDelivery(kept, 200))
	if err := h.DeleteHook(e.ctx, webhook.Scope{Organization: "octo-org"}, gone); err != nil {
		e.r.Fatalf("DeleteHook: %v", err)
	}
	if _, err := h.AddDelivery(e.ctx, aDelivery(gone, 200)); err != nil {
		e.r.Errorf("AddDelivery for a deleted hook: %v, want no error", err)
	}
	if got, err := h.Deliveries(e.ctx, gone, webhook.DeliveryQuery{Limit: 10}); !errors.Is(err, issuefields.ErrNotFound) {
		e.r.Errorf("Deliveries of a deleted hook, after AddDelivery for it = %+v, %v; want ErrNotFound", got, err)
	}
	e.wantDeliveries(kept, webhook.DeliveryQuery{Limit: 10}, []webhook.Delivery{keptDelivery}, "after AddDelivery for a deleted hook")
}

func deliveriesNewestFirst(e *env) {
	hook, other := e.twoHooks()
	var added []webhook.Delivery
	for i := range 10 {
		added = append(added, e.addDelivery(aDelivery(hook, 200+i)))
		e.addDelivery(aDelivery(other, 200))
	}
	newest := slices.Clone(added)
	slices.Reverse(newest)
	for _, c := range []struct {
		q    webhook.DeliveryQuery
		want []webhook.Delivery
	}{
		{webhook.DeliveryQuery{Limit: 100}, newest},
		{webhook.DeliveryQuery{Limit: 10}, newest},
		{webhook.DeliveryQuery{Limit: 3}, newest[:3]},
		{webhook.DeliveryQuery{Limit: 1}, newest[:1]},
		{webhook.DeliveryQuery{Before: newest[2].ID, Limit: 3}, newest[3:6]},
		{webhook.DeliveryQuery{Before: newest[2].ID + 1, Limit: 3}, newest[2:5]},
		{webhook.DeliveryQuery{Before: newest[7].ID, Limit: 100}, newest[8:]},
		{webhook.DeliveryQuery{Before: newest[0].ID + 1000, Limit: 2}, newest[:2]},
		{webhook.DeliveryQuery{Before: newest[9].ID, Limit: 100}, nil},
	} {
		e.wantDeliveries(hook, c.q, c.want, "ten deliveries")
	}
}

func deliveriesByStatus(e *env) {
	hook, _ := e.twoHooks()
	var success, failure []webhook.Delivery
	for _, code := range []int{0, 100, 199, 200, 204, 299, 301, 399, 400, 404, 500, 503} {
		d := e.addDelivery(aDelivery(hook, code))
		if code >= 200 && code <= 399 {
			success = append(success, d)
		} else {
			failure = append(failure, d)
		}
	}
	slices.Reverse(success)
	slices.Reverse(failure)
	e.wantDeliveries(hook, webhook.DeliveryQuery{Limit: 100, Status: "success"}, success, "deliveries of every kind of answer")
	e.wantDeliveries(hook, webhook.DeliveryQuery{Limit: 100, Status: "failure"}, failure, "deliveries of every kind of answer")
	e.wantDeliveries(hook, webhook.DeliveryQuery{Limit: 2, Status: "success"}, success[:2], "deliveries of every kind of answer")
	e.wantDeliveries(hook, webhook.DeliveryQuery{Before: failure[1].ID, Limit: 3, Status: "failure"}, failure[2:5], "deliveries of every kind of answer")
}

func deliveryNotFound(e *env) {
	h := e.s
	first, second := e.twoHooks()
	d := e.addDelivery(aDelivery(first, 200))
	other := e.addDelivery(aDelivery(second, 200))
	unknown := first + second + 1000
	if got, err := h.Deliveries(e.ctx, unknown, webhook.DeliveryQuery{Limit: 10}); !errors.Is(err, issuefields.ErrNotFound) {
		e.r.Errorf("Deliveries of a hook that does not exist = %+v, %v; want ErrNotFound", got, err)
	}
	for _, c := range []struct {
		hookID, id int64
		what       string
	}{
		{second, d.ID, "a delivery of another hook"},
		{first, other.ID + 1000, "an ID that no delivery has"},
		{unknown, d.ID, "a hook that does not exist"},
	} {
		if got, err := h.Delivery(e.ctx, c.hookID, c.id); !errors.Is(err, issuefields.ErrNotFound) {
			e.r.Errorf("Delivery(%d, %d) of %s = %+v, %v; want ErrNotFound", c.hookID, c.id, c.what, got, err)
		}
	}
}
