package issuefields

import (
	"net/http"
	"testing"
)

// TestStatusTableRowsAreReachable checks that no row of statusTable is
// shadowed by an earlier one, and that a condition with a row for writes only
// has an answer for a list too.
func TestStatusTableRowsAreReachable(t *testing.T) {
	var list, write *route
	for _, rt := range routes {
		switch {
		case rt.op.writes() && write == nil:
			write = rt
		case !rt.op.writes() && list == nil:
			list = rt
		}
	}
	for i, row := range statusTable {
		rt := list
		if row.writesOnly {
			rt = write
		}
		got := answerTo(row.err, rt)
		if got.status != row.status || got.message != row.message {
			t.Errorf("row %d (%v): answered %d %q, want the row's %d %q", i, row.err, got.status, got.message, row.status, row.message)
		}
		if row.writesOnly {
			if got := answerTo(row.err, list); got.status == http.StatusInternalServerError {
				t.Errorf("row %d (%v) is for writes only, and a list gets 500", i, row.err)
			}
		}
	}
}
