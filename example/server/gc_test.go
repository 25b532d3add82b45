package server

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGC checks that tuneGC sets GOGC and the memory limit, but leaves
// each as it is when the environment sets it.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	for _, tc := range []struct {
		env                    map[string]string
		wantPercent, wantLimit int64
	}{
		{nil, gcPercent, memoryLimit},
		{map[string]string{"GOGC": "100"}, 100, memoryLimit},
		{map[string]string{"GOMEMLIMIT": "1GiB"}, gcPercent, math.MaxInt64},
		{map[string]string{"GOGC": "off", "GOMEMLIMIT": "1GiB"}, 100, math.MaxInt64},
	} {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		tuneGC(func(name string) string { return tc.env[name] })
		if percent, limit := int64(debug.SetGCPercent(100)), debug.SetMemoryLimit(-1); percent != tc.wantPercent || limit != tc.wantLimit {
			t.Errorf("with environment %v: GOGC %d and memory limit %d, want %d and %d", tc.env, percent, limit, tc.wantPercent, tc.wantLimit)
		}
	}
}
