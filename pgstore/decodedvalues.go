package pgstore

import (
	"sync"

	"github.com/issuefields/issuefields"
)

// maxRecent bounds how many issues recentValues keeps.
const maxRecent = 1 << 14

// recentValues keeps, for the issues that this process read or wrote lately,
// the newest version of their values it saw in the database, and the values
// decoded. A Snapshot of an issue whose version is the kept one skips
// decoding its JSON. A version names one state of an issue's values for good
// and only grows, so what is kept is never wrong, only perhaps older than
// the database: it is used only for the version that the database shows.
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

// forget drops what is kept of key, an issue that is no longer live, whose
// values no Snapshot decodes again.
func (c *recentValues) forget(key issuefields.IssueKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.issues, key)
}

// forgetAll drops everything kept.
func (c *recentValues) forgetAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.issues)
}
