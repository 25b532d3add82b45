package pgstore

import (
	"context"
	"sync"
)

// turns makes the writers of one place (an issue by one of its names) in
// this process take turns before
// they take a connection of the pool. Without it, each of them would hold a
// connection while it waits for the row lock in the database, and an
// issue locked elsewhere (a slow transaction, a migration) would soon hold
// every connection, stalling requests for other issues too. With it, one
// writer per issue waits in the database and the others wait here, without a
// connection, within their deadline.
type turns struct {
	mu     sync.Mutex
	places map[place]*turn
}

// A turn is the right to write to one place. ch holds a token while a
// writer has it; users counts the writers that have it or wait for it.
type turn struct {
	ch    chan struct{}
	users int
}

// take waits for the turn of the place key, until ctx ends, and returns the
// function that gives it back.
func (t *turns) take(ctx context.Context, key place) (release func(), err error) {
	t.mu.Lock()
	if t.places == nil {
		t.places = make(map[place]*turn)
	}
	tr := t.places[key]
	if tr == nil {
		tr = &turn{ch: make(chan struct{}, 1)}
		t.places[key] = tr
	}
	tr.users++
	t.mu.Unlock()
	select {
	case tr.ch <- struct{}{}:
		return func() {
			<-tr.ch
			t.leave(key, tr)
		}, nil
	case <-ctx.Done():
		t.leave(key, tr)
		return nil, ctx.Err()
	}
}

// leave forgets tr, the turn of key, when nobody has it or waits for it.
func (t *turns) leave(key place, tr *turn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if tr.users--; tr.users == 0 {
		delete(t.places, key)
	}
}
