package main

import (
	"fmt"
	"net/http"
	"testing"
)

// TestServersShareTheWriteLimit starts two servers on one database with a
// limit of 3 writes a minute: a token's writes to both count against one
// budget, so its fourth write is refused whichever server takes it.
func TestServersShareTheWriteLimit(t *testing.T) {
	dsn := newDatabase(t)
	servers := []*running{start(t, "-postgres", dsn, "-write-limit", "3"), start(t, "-postgres", dsn, "-write-limit", "3")}
	for i := range 4 {
		r := servers[i%len(servers)]
		body := fmt.Sprintf(`{"issue_field_values": [{"field_id": 4, "value": "Write %d"}]}`, i+1)
		status, answer := do(t, http.MethodPost, valuesURL(r, "octo-org/roadmap", 2), "demo-writer-token", body)
		if want := map[bool]int{true: http.StatusOK, false: http.StatusUnprocessableEntity}[i < 3]; status != want {
			t.Errorf("write %d, to server %d: status %d %s, want %d", i+1, i%len(servers)+1, status, answer, want)
		}
	}
}
