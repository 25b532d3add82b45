package pgstore

import (
	"sync"

	"github.com/issuefields/issuefields"
)

// maxRecent bounds how many issues recentValues keeps.
const maxRecent = 1 << 14

// recentValues keeps, for the issues that this process read or wrote lately,
// the newest version of their values it saw in the database, and the values
// decoded. A snapshot of an issue whose version is the kept one skips
// decoding its JSON; a compare-and-set whose expected version is older than
// the kept one fails without a query; and a write that lost to another write
// of this process starts from the kept values. A version names one state of
// an issue's values for good and only grows, so what is kept is never wrong,
// only perhaps older than the database: every use is checked by a query that
// compares versions, except the early failure of a compare-and-set, which
// needs no check because the database's version is at least the kept one.
type recentValues struct {
	mu     sync.RWMutex
	issues map[issuefields.IssueKey]recent
}

// recent is a version of an issue's values and the values, which nobody
// changes.
type recent struct {
	version int64
	values  []issuefields.Value
}

// get returns what is kept of key.
func (c *recentValues) get(key issuefields.IssueKey) (recent, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r, ok := c.issues[key]
	return r, ok
}

// put keeps values as the values of key at version, unless a newer version
// is kept. When the map is full, an issue picked at random makes room.
func (c *recentValues) put(key issuefields.IssueKey, version int64, values []issuefields.Value) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if kept, ok := c.issues[key]; ok && kept.version >= version {
		return
	}
	if c.issues == nil {
		c.issues = make(map[issuefields.IssueKey]recent)
	}
	if len(c.issues) >= maxRecent {
		for other := range c.issues {
			delete(c.issues, other)
			break
		}
	}
	c.issues[key] = recent{version: version, values: values}
}
