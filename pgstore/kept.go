package pgstore

import (
	_ "embed"
	"sync"

	"github.com/issuefields/issuefields"
)

// A place is an issue as a request names it: the name keys of a name of its
// repository (see nameKey) and its number.
type place struct {
	owner, name string
	number      int64
}

// placeOf returns the place of issue number of owner/name.
func placeOf(owner, name string, number int64) place {
	return place{nameKey(owner), nameKey(name), number}
}

// accountVersionSQL is schema step 10: one version of all that a Snapshot
// shows of an account and its repositories, which a write from a kept
// Snapshot checks with one lookup.
//
//go:embed migrations/010_snapshot_version.sql
var accountVersionSQL string

// A kept is a Snapshot of an issue that is live at the place asked for,
// with what a write from it checks: the owner's account and its snapshot
// version (of all that the Snapshot shows besides the issue), and the
// issue's version.
type kept struct {
	snap            issuefields.Snapshot
	ownerID         int64
	snapshotVersion int64
	version         int64
}

// keptSnapshots keeps, for the places that this process read or wrote
// lately, the newest Snapshot it read there or made by a write, so that a
// write can start from it and store its result with one statement. What it
// keeps may be stale; that statement checks it against the database.
type keptSnapshots struct {
	mu     sync.RWMutex
	places map[place]kept
}

// get returns what is kept of p.
func (k *keptSnapshots) get(p place) (kept, bool) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	r, ok := k.places[p]
	return r, ok
}

// put keeps r as the Snapshot of p. When the map is full, a place picked at
// random makes room.
func (k *keptSnapshots) put(p place, r kept) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.places == nil {
		k.places = make(map[place]kept)
	}
	if _, ok := k.places[p]; !ok && len(k.places) >= maxRecent {
		for other := range k.places {
			delete(k.places, other)
			break
		}
	}
	k.places[p] = r
}

// forget drops what is kept of p.
func (k *keptSnapshots) forget(p place) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.places, p)
}

// forgetAll drops everything kept.
func (k *keptSnapshots) forgetAll() {
	k.mu.Lock()
	defer k.mu.Unlock()
	clear(k.places)
}
