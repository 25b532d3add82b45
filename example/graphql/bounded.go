package graphql

import (
	"sync"

	"github.com/issuefields/issuefields/internal/ids"
)

// bounded is a map of at most max entries, safe for concurrent use, that
// keeps what is costly to make again: when it is full it forgets one entry
// at random to make room, which keeps it simple and cheap to read, and a
// client's few keys stay in it.
type bounded[K comparable, V any] struct {
	mu  sync.RWMutex
	max int
	m   map[K]V
}

// get returns the value of key, and whether there is one.
func (b *bounded[K, V]) get(key K) (V, bool) {
	b.mu.RLock()
	v, ok := b.m[key]
	b.mu.RUnlock()
	return v, ok
}

// put keeps v as the value of key.
func (b *bounded[K, V]) put(key K, v V) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = make(map[K]V)
	}
	if len(b.m) >= b.max {
		for k := range b.m {
			delete(b.m, k)
			break
		}
	}
	b.m[key] = v
}

// decodedID is what ids.Decode made of a node_id: the ID, or the error.
type decodedID struct {
	id  ids.ID
	err error
}

// maxDecoded bounds the node_ids kept decoded.
const maxDecoded = 4096

// decode returns what the node_id id names, as ids.Decode does, decoding
// each once: a client names the same fields and issues again and again.
func (s *Server) decode(id string) (ids.ID, error) {
	if d, ok := s.decoded.get(id); ok {
		return d.id, d.err
	}
	n, err := ids.Decode(id)
	s.decoded.put(id, decodedID{n, err})
	return n, err
}
