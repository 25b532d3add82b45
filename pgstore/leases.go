package pgstore

import "time"

// A lease is what a WriteLimiter holds of one key's budget: writes that it
// took from the table and may spend without asking again, or the time until
// which the table has none to give.
type lease struct {
	// writes is how many writes are leased and not yet spent, and takenAt
	// when they were taken, by the limiter's clock.
	writes  int
	takenAt time.Time
	// refusedUntil is when the key's budget holds a whole write again, as
	// the table said when it refused a take; until then every write is
	// refused without asking it.
	refusedUntil time.Time
	// taking is set while a take from the table is in flight, and closed
	// when it has ended; waiting counts the writes that wait for it.
	taking  chan struct{}
	waiting int
}

// idle reports whether e holds nothing worth keeping at now: no writes, no
// refusal, no take in flight.
func (e *lease) idle(now time.Time) bool {
	return e.writes == 0 && e.taking == nil && !now.Before(e.refusedUntil)
}

// leases are the leases of a WriteLimiter, by key, at most max of them. They
// are not safe for concurrent use: the limiter's lock guards them.
type leases struct {
	max   int
	byKey map[string]*lease
}

// get returns key's lease, a new one if there is none. When the table is
// full, a key picked at random makes room; its unspent writes are lost, which
// leaves its budget short of them until it refills, as when a server dies.
func (ls *leases) get(key string) *lease {
	if e, ok := ls.byKey[key]; ok {
		return e
	}
	if ls.byKey == nil {
		ls.byKey = make(map[string]*lease)
	}
	if len(ls.byKey) >= ls.max {
		for other := range ls.byKey {
			delete(ls.byKey, other)
			break
		}
	}
	e := new(lease)
	ls.byKey[key] = e
	return e
}

// expire forgets the leases that hold nothing at now and takes the unspent
// writes of those taken before takenBefore, which the caller gives back. It
// returns their keys and writes.
func (ls *leases) expire(now, takenBefore time.Time) (keys []string, writes []int32) {
	for key, e := range ls.byKey {
		if e.writes > 0 && e.takenAt.Before(takenBefore) {
			keys, writes = append(keys, key), append(writes, int32(e.writes))
			e.writes = 0
		}
		if e.idle(now) {
			delete(ls.byKey, key)
		}
	}
	return keys, writes
}

// drain takes the unspent writes of every lease, which the caller gives back,
// and forgets every lease. It returns their keys and writes.
func (ls *leases) drain() (keys []string, writes []int32) {
	for key, e := range ls.byKey {
		if e.writes > 0 {
			keys, writes = append(keys, key), append(writes, int32(e.writes))
		}
	}
	ls.byKey = nil
	return keys, writes
}
