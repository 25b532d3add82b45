package pgstore_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
)

// TestFieldChangeSeenByOtherServers changes a field's name through one store
// while a handler over another store on the same database keeps the
// organization's fields in memory: the handler's next list must show the new
// name under a new ETag, and an If-None-Match with the old ETag must not
// answer 304.
func TestFieldChangeSeenByOtherServers(t *testing.T) {
	cfg, _ := newBoundedStore(t, 2, 1)
	h := newHandler(t, openStore(t, cfg))
	other := pgstore.New(newPool(t, cfg))
	path := valuesPath("octo-org", "hello-world", 1)
	if rec := serve(h, "POST", path, textBody(1, "kept")); rec.Code != http.StatusOK {
		t.Fatalf("POST: status %d: %s", rec.Code, rec.Body)
	}
	before := serve(h, "GET", path, "")
	tag := before.Header().Get("ETag")

	_, err := other.ChangeFields(context.Background(), "octo-org", func(current []issuefields.Field) ([]issuefields.Field, error) {
		changed := slices.Clone(current)
		changed[0].Name = "Renamed elsewhere"
		return changed, nil
	})
	if err != nil {
		t.Fatal(err)
	}

	after := serve(h, "GET", path, "", "If-None-Match", tag)
	if after.Code != http.StatusOK || after.Header().Get("ETag") == tag {
		t.Fatalf("after the rename through another store: status %d, ETag %q (before %q); want 200 and a new ETag",
			after.Code, after.Header().Get("ETag"), tag)
	}
	if items := decodeItems(t, after); len(items) != 1 || items[0].IssueFieldName != "Renamed elsewhere" {
		t.Errorf("after the rename through another store the list is %s, want the field's new name", after.Body)
	}
}
