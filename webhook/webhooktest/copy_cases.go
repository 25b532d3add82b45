package webhooktest

import (
	"github.com/issuefields/issuefields/webhook"
)

// copyCases check that a webhook.Store copies what it is given and what
// it hands out, for a store that implements it; for another store each case
// passes without a call.
var copyCases = []testCase{
	{"CreateHook, UpdateHook and AddDelivery copy the hooks and deliveries they are given", hookCopiesIn},
	{"Hooks, HooksFor, CreateHook, UpdateHook, AddDelivery and Delivery hand out copies that the caller may change", hookCopiesOut},
}

// changeHook changes every slice of h in place.
func changeHook(h webhook.Hook) {
	h.Events[0] = "changed"
}

// changeDelivery changes every map and slice of d in place.
func changeDelivery(d webhook.Delivery) {
	for _, m := range []webhook.Message{d.Request, d.Response} {
		for _, vs := range m.Header {
			vs[0] = "changed"
		}
		m.Header["Added"] = []string{"added"}
		m.Body[0] = 'X'
	}
}

func hookCopiesIn(e *env) {
	h := e.s
	org, _ := e.hookScopes()
	hook := aHook(org, "https://hooks.example.com/a")
	created := e.createHook(hook)
	changeHook(hook)
	want := aHook(org, "https://hooks.example.com/a")
	want.ID = created.ID
	e.wantHooks(org, []webhook.Hook{want}, "after the caller changed the Events it passed to CreateHook")

	var next webhook.Hook
	_, err := h.UpdateHook(e.ctx, org, created.ID, func(current webhook.Hook) (webhook.Hook, error) {
		next = current
		next.Events = []string{"issues", "pull_request"}
		return next, nil
	})
	if err != nil {
		e.r.Fatalf("UpdateHook: %v", err)
	}
	changeHook(next)
	want.Events = []string{"issues", "pull_request"}
	e.wantHooks(org, []webhook.Hook{want}, "after the caller changed the Events that its change returned to UpdateHook")

	d := aDelivery(created.ID, 200)
	added := e.addDelivery(d)
	changeDelivery(d)
	wantDelivery := aDelivery(created.ID, 200)
	wantDelivery.ID = added.ID
	e.wantDelivery(wantDelivery, "after the caller changed the headers and bodies it passed to AddDelivery")
}

func hookCopiesOut(e *env) {
	h := e.s
	org, repo := e.hookScopes()
	created := e.createHook(aHook(org, "https://hooks.example.com/a"))
	want := aHook(org, "https://hooks.example.com/a")
	want.ID = created.ID
	changeHook(created)
	changeHook(e.hooksOf(org)[0])
	changeHook(e.hooksFor(helloWorld)[0])
	updated, err := h.UpdateHook(e.ctx, org, want.ID, func(current webhook.Hook) (webhook.Hook, error) { return current, nil })
	if err != nil {
		e.r.Fatalf("UpdateHook: %v", err)
	}
	changeHook(updated)
	e.wantHooks(org, []webhook.Hook{want}, "after the caller changed the Events of hooks handed out")
	e.wantHooks(repo, nil, "after the caller changed the Events of hooks handed out")

	added := e.addDelivery(aDelivery(want.ID, 200))
	wantDelivery := aDelivery(want.ID, 200)
	wantDelivery.ID = added.ID
	changeDelivery(added)
	got, err := h.Delivery(e.ctx, want.ID, added.ID)
	if err != nil {
		e.r.Fatalf("Delivery: %v", err)
	}
	changeDelivery(got)
	e.wantDelivery(wantDelivery, "after the caller changed the headers and bodies of deliveries handed out")
}
