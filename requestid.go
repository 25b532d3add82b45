package issuefields

import (
	"crypto/rand"
	"strconv"
	"sync/atomic"
)

// requestIDs hands out request ids: a random prefix per Handler, so that ids
// from several servers do not collide, and a counter.
type requestIDs struct {
	prefix string
	count  atomic.Uint64
}

func newRequestIDs() *requestIDs {
	return &requestIDs{prefix: rand.Text()[:10] + "-"}
}

// next returns a new request id, built in one allocation.
func (ids *requestIDs) next() string {
	var buf [32]byte
	id := append(buf[:0], ids.prefix...)
	return string(strconv.AppendUint(id, ids.count.Add(1), 16))
}
