package issuefields

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// maxTurnWait bounds how long a write waits for its turn at a place, within
// the request's context.
const maxTurnWait = 3 * time.Second

// writeTurns makes the writers of one place in this process take turns from
// the moment they decide a write until it is stored, holding nothing else
// while they wait. So the writer that has the turn decides on the Snapshot
// that the one before kept, and its store's compare-and-set almost never
// fails for a write of this process; and when a store's write waits in a
// database for a row that is locked elsewhere, one connection waits per
// place, not one per writer.
// Writers of different places never wait for each other.
type writeTurns struct {
	mu     sync.Mutex
	places map[place]*turn
	// free holds turns that nobody uses, so that taking one allocates
	// nothing.
	free sync.Pool
}

// A turn is the right to write at one place. ch holds a token while a
// writer has it; users counts the writers that have it or wait for it.
type turn struct {
	ch    chan struct{}
	users int
}

// take waits for the turn of p, at most maxTurnWait and until ctx ends, and
// returns it; the caller gives it back with release. Past the wait it
// returns an error that wraps ErrUnavailable.
func (t *writeTurns) take(ctx context.Context, p place) (*turn, error) {
	t.mu.Lock()
	if t.places == nil {
		t.places = make(map[place]*turn)
	}
	tr := t.places[p]
	if tr == nil {
		tr, _ = t.free.Get().(*turn)
		if tr == nil {
			tr = &turn{ch: make(chan struct{}, 1)}
		}
		t.places[p] = tr
	}
	tr.users++
	t.mu.Unlock()
	select {
	case tr.ch <- struct{}{}:
		return tr, nil
	default:
	}
	return tr, t.wait(ctx, p, tr)
}

// wait waits for tr, the turn of p, which another writer has.
func (t *writeTurns) wait(ctx context.Context, p place, tr *turn) error {
	timer := time.NewTimer(maxTurnWait)
	defer timer.Stop()
	select {
	case tr.ch <- struct{}{}:
		return nil
	case <-ctx.Done():
		t.leave(p, tr)
		return fmt.Errorf("%w: wait for the turn to write: %w", ErrUnavailable, ctx.Err())
	case <-timer.C:
		t.leave(p, tr)
		return fmt.Errorf("%w: the turn to write did not come within %v", ErrUnavailable, maxTurnWait)
	}
}

// release gives back tr, the turn of p that take returned.
func (t *writeTurns) release(p place, tr *turn) {
	<-tr.ch
	t.leave(p, tr)
}

// leave forgets tr, the turn of p, when nobody has it or waits for it.
func (t *writeTurns) leave(p place, tr *turn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if tr.users--; tr.users == 0 {
		delete(t.places, p)
		t.free.Put(tr)
	}
}
