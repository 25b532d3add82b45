package issuefields

import (
	"sync"

	"github.com/issuefields/issuefields/internal/reponame"
)

// maxKeptSnapshots bounds the places whose Snapshot a Handler keeps.
const maxKeptSnapshots = 1 << 14

// A place is an issue as a request names it: the keys of its repository's
// owner and name (reponame.Key), and its number.
type place struct {
	owner, name string
	number      int64
}

// placeOf returns the place of issue number of owner/name.
func placeOf(owner, name string, number int64) place {
	return place{reponame.Key(owner), reponame.Key(name), number}
}

// keptSnapshots keeps, for the places that the handler wrote lately, the
// Snapshot that its last successful write there made: the one it was decided
// on, with the values and version that the write stored. The next write of
// the place starts from it, which spares a store that reads over a network a
// round trip. What it keeps may be stale, since others may write too:
// Store.UpdateIssue checks it. Lists neither read nor fill it, so that a list
// costs nothing more. When it holds maxKeptSnapshots places, a new one takes
// the place of one picked at random.
type keptSnapshots struct {
	mu     sync.RWMutex
	places map[place]Snapshot
}

// get returns the Snapshot kept for p.
func (k *keptSnapshots) get(p place) (Snapshot, bool) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	snap, ok := k.places[p]
	return snap, ok
}

// put keeps snap as the Snapshot of p.
func (k *keptSnapshots) put(p place, snap Snapshot) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.places == nil {
		k.places = make(map[place]Snapshot)
	}
	if _, ok := k.places[p]; !ok && len(k.places) >= maxKeptSnapshots {
		for other := range k.places {
			delete(k.places, other)
			break
		}
	}
	k.places[p] = snap
}

// forget drops the Snapshot kept for p, which proved stale.
func (k *keptSnapshots) forget(p place) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.places, p)
}
