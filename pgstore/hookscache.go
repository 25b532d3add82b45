package pgstore

import (
	"slices"
	"sync"
	"time"

	"github.com/issuefields/issuefields/webhook"
)

const (
	// hooksFreshFor is how long HooksFor answers from what it read: a hook
	// that another Store on the database creates, changes or deletes takes
	// effect within it.
	hooksFreshFor = time.Second

	// maxCachedHookSets bounds how many repositories' hooks hooksCache
	// keeps; when it is full, it forgets them all.
	maxCachedHookSets = 1 << 14
)

// hooksCache keeps, for a second, the hooks that get the events of each
// repository that HooksFor was asked about, so that a write's event does not
// cost the database a query: with no hooks at all, as most servers have,
// every event would read the hooks table. A change of a hook through this
// Store forgets everything kept, so that the Store's own changes take effect
// at once.
type hooksCache struct {
	mu         sync.Mutex
	sets       map[hooksCacheKey]cachedHooks
	generation uint64 // counts the changes through this Store
}

// hooksCacheKey names a repository's hooks: its ID and, for a repository
// that an organization owns, the organization's name key ("" otherwise).
type hooksCacheKey struct {
	repositoryID int64
	organization string
}

// cachedHooks is the hooks that a query read, when, and the generation of
// the cache when the query started.
type cachedHooks struct {
	hooks      []webhook.Hook
	read       time.Time
	generation uint64
}

// get returns a copy of the hooks kept under key, if they were read less
// than hooksFreshFor ago and no hook changed through this Store since; and
// otherwise the generation that put must be given with what the caller then
// reads.
func (c *hooksCache) get(key hooksCacheKey, now time.Time) (hooks []webhook.Hook, ok bool, generation uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept, found := c.sets[key]
	if !found || kept.generation != c.generation || now.Sub(kept.read) >= hooksFreshFor {
		return nil, false, c.generation
	}
	return copyHooks(kept.hooks), true, c.generation
}

// put keeps a copy of hooks under key, read at now by a query that started
// at generation, unless a hook changed through this Store since.
func (c *hooksCache) put(key hooksCacheKey, hooks []webhook.Hook, now time.Time, generation uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if generation != c.generation {
		return
	}
	if c.sets == nil || len(c.sets) >= maxCachedHookSets {
		c.sets = make(map[hooksCacheKey]cachedHooks)
	}
	c.sets[key] = cachedHooks{hooks: copyHooks(hooks), read: now, generation: generation}
}

// forget drops everything kept, after a change of a hook through this Store.
func (c *hooksCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.generation++
	clear(c.sets)
}

// copyHooks returns a copy of hooks that shares no memory with them.
func copyHooks(hooks []webhook.Hook) []webhook.Hook {
	out := slices.Clone(hooks)
	for i := range out {
		out[i].Events = slices.Clone(out[i].Events)
	}
	return out
}
