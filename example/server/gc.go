package server

import (
	"runtime/debug"
)

// The example's live heap is about 2 MB (its data, its caches, the buffers
// of its connections), and a request allocates a few kilobytes. At Go's
// default GOGC of 100 the garbage collector then runs whenever the heap
// reaches 4 MB, every 2 MB or so allocated: under load, about 75 times a
// second, for about a tenth of the server's CPU. The example collects at
// GOGC=400 instead, so that the heap grows to about 16 MB between
// collections, with a soft memory limit (Go's GOMEMLIMIT) that makes the
// collector work harder as the process nears it. The limit is soft: a live
// heap larger than it (from a large data file, say) grows past it, with
// the collector running often, and then GOMEMLIMIT should be set higher.
const (
	gcPercent   = 400
	memoryLimit = 192 << 20
)

// tuneGC sets the garbage collector's GOGC to gcPercent and its memory
// limit to memoryLimit, each unless getenv says that the environment sets
// it (GOGC, GOMEMLIMIT), which then rules as it would in any Go program.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
