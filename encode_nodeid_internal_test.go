package issuefields

import (
	"regexp"
	"testing"
)

func TestFieldNodeIDIsDistinctAndURLSafe(t *testing.T) {
	urlSafe := regexp.MustCompile(`^IF_[A-Za-z0-9_-]+$`)
	seen := map[string]int64{}
	for _, id := range []int64{1, 2, 127, 128, 300, 1 << 40, 1<<63 - 1} {
		got := fieldNodeID(id)
		if !urlSafe.MatchString(got) {
			t.Errorf("fieldNodeID(%d) = %q, want IF_ and base64url", id, got)
		}
		if other, dup := seen[got]; dup {
			t.Errorf("fields %d and %d share the node_id %q", other, id, got)
		}
		seen[got] = id
	}
}
