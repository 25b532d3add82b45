package standin

import (
	"sync"
)

// journalSize is how many requests a Journal keeps at most: the newest ones.
const journalSize = 1000

// journalBudget is how many bytes the records of a Journal hold together at
// most, as Request.size counts them: the newest records that fit are kept.
// Each record is within a few bytes over maxTarget+maxBody, so that a full
// budget holds at least 120 records of the largest kind, and 1,000 of up
// to 8 KiB each.
const journalBudget = 8 << 20

// A Journal keeps the newest requests to the API in memory, for tests to
// read back: at most 1,000 of them, which hold at most 8 MiB together (the
// oldest go first when either bound is reached). Record adds them. It also
// tells the page's open event streams of each change: each request it
// records, each Clear, and each call of Changed. It is safe for concurrent
// use. The zero value is an empty Journal.
type Journal struct {
	mu    sync.Mutex
	ring  [journalSize]Request
	next  int // the index that the next request takes
	n     int // how many the ring holds
	bytes int // what the records the ring holds count together
	// changes tells the open event streams of each change.
	changes changes
}

// Changed tells the open pages that the server's state changed in a way
// that the journal does not record, such as a webhook delivery, so that they
// show it. It costs one atomic load while no page is open.
func (j *Journal) Changed() { j.changes.changed() }

// Requests returns the recorded requests, newest first, each write's body
// with its secrets masked.
func (j *Journal) Requests() []Request {
	out := j.snapshot()
	for i := range out {
		out[i] = out[i].masked()
	}
	return out
}

// snapshot returns the recorded requests, newest first, as they were
// recorded: the records are copied, the bytes they point to shared, since
// no record changes once it is recorded.
func (j *Journal) snapshot() []Request {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]Request, j.n)
	for i := range out {
		out[i] = j.ring[(j.next-1-i+journalSize)%journalSize]
	}
	return out
}

// Clear forgets the recorded requests.
func (j *Journal) Clear() {
	j.mu.Lock()
	j.ring, j.next, j.n, j.bytes = [journalSize]Request{}, 0, 0, 0
	j.mu.Unlock()
	j.Changed()
}

// add records req, a record that newRequest made, and tells j's listeners.
// The oldest records go first, for as long as the ring is full or req does
// not fit in the budget beside the records it holds.
func (j *Journal) add(req Request) {
	size := req.size()
	j.mu.Lock()
	for j.n > 0 && (j.n == journalSize || j.bytes+size > journalBudget) {
		oldest := (j.next - j.n + journalSize) % journalSize
		j.bytes -= j.ring[oldest].size()
		j.ring[oldest] = Request{}
		j.n--
	}
	j.ring[j.next] = req
	j.next = (j.next + 1) % journalSize
	j.n++
	j.bytes += size
	j.mu.Unlock()
	j.Changed()
}
