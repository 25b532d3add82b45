package server

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
)

// TestGateWaitsForTheRequestsInside checks that shutting the gate waits for
// the request inside to leave, and that a request that comes while it is
// shut is served only once it opens again.
func TestGateWaitsForTheRequestsInside(t *testing.T) {
	g := new(gate)
	var left, opened atomic.Bool
	if !g.enter(context.Background()) {
		t.Fatal("enter on an open gate = false")
	}
	type shutResult struct {
		open     func()
		leftSeen bool
	}
	shut := make(chan shutResult)
	go func() {
		open, err := g.shut(context.Background())
		if err != nil {
			t.Errorf("shut = %v", err)
		}
		shut <- shutResult{open, left.Load()}
	}()
	left.Store(true)
	g.leave()
	var r shutResult
	select {
	case r = <-shut:
	case <-time.After(deliveryBound):
		t.Fatalf("shut did not return within %v of the last request leaving", deliveryBound)
	}
	if !r.leftSeen {
		t.Error("shut returned while a request was inside")
	}

	served := make(chan bool)
	go func() {
		if err := g.pass(context.Background(), func() error { served <- opened.Load(); return nil }); err != nil {
			t.Errorf("pass = %v", err)
		}
	}()
	opened.Store(true)
	r.open()
	select {
	case afterOpening := <-served:
		if !afterOpening {
			t.Error("a request that came while the gate was shut was served before it opened")
		}
	case <-time.After(deliveryBound):
		t.Fatalf("a request that came while the gate was shut was not served within %v of its opening", deliveryBound)
	}
}

// TestGateGivesUp checks that a shut that does not see the requests inside
// leave before its context ends says so, with an error that the reset
// answers with 503, and opens the gate again.
func TestGateGivesUp(t *testing.T) {
	g := new(gate)
	if !g.enter(context.Background()) {
		t.Fatal("enter on an open gate = false")
	}
	defer g.leave()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if open, err := g.shut(ctx); open != nil || !errors.Is(err, issuefields.ErrUnavailable) {
		t.Errorf("shut with requests inside and an ended context = %v, want an error that wraps ErrUnavailable", err)
	}
	if err := g.pass(context.Background(), func() error { return nil }); err != nil {
		t.Errorf("pass after the shut gave up = %v, want the gate open", err)
	}
}

// TestGateServesNothingForAClientGone checks that a request whose client
// goes away while it waits outside the shut gate is not served.
func TestGateServesNothingForAClientGone(t *testing.T) {
	g := new(gate)
	open, err := g.shut(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer open()
	var served atomic.Bool
	h := g.serve(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { served.Store(true) }))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequestWithContext(ctx, http.MethodGet, "/", nil))
	if served.Load() {
		t.Error("the gate served a request whose client had gone, while a reset held it shut")
	}
}

// BenchmarkGate measures what passing the open gate costs a request, beside
// the same handler without it.
func BenchmarkGate(b *testing.B) {
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	w := httptest.NewRecorder()
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{{"without", h}, {"through", new(gate).serve(h)}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					bc.h.ServeHTTP(w, req)
				}
			})
		})
	}
}
