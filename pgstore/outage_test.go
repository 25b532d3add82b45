package pgstore_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5/pgxpool"
)

// TestDatabaseGoesAway checks that a handler over a database that goes away
// answers 503, never 500, and serves again once the database is back, without
// a restart.
func TestDatabaseGoesAway(t *testing.T) {
	databaseURL(t)
	t.Run("connections cut", func(t *testing.T) {
		o := newOutage(t)
		o.wantServing(t, "before the cut")
		o.proxy.cut()
		for i := range 3 {
			o.want503(t, "GET", o.path, "")
			o.want503(t, "POST", o.path, textBody(1, fmt.Sprint("while cut ", i)))
		}
		o.proxy.restore(t)
		o.waitServing(t, "after the restore")
		o.wantServing(t, "after the restore")
	})
	t.Run("backends terminated", func(t *testing.T) {
		o := newOutage(t)
		o.wantServing(t, "before the termination")
		admin(t, databaseURL(t), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, o.appName)
		o.waitServing(t, "after the termination")
		o.wantServing(t, "after the termination")
	})
}

// An outage is a handler whose store reaches the database through a proxy,
// and a store that reaches it directly, to check what the handler wrote.
type outage struct {
	proxy   *proxy
	handler http.Handler
	direct  *pgstore.Store
	appName string // the application_name of the handler's connections
	path    string // the values of the issue that the test writes to
	writes  int
}

// newOutage returns an outage over a new schema holding an organization with
// one text field, its repository hello-world, and the repository's issue 1.
func newOutage(t *testing.T) *outage {
	t.Helper()
	ctx := context.Background()
	schema, cfg := newSchema(t)
	pool := newPool(t, cfg.Copy())
	if err := pgstore.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	o := &outage{direct: pgstore.New(pool), appName: schema + "_served", path: valuesPath("octo-org", "hello-world", 1)}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(o.direct.AddOrganization("octo-org"))
	must(o.direct.AddField("octo-org", issuefields.Field{ID: 1, Name: "Notes", DataType: issuefields.DataTypeText}))
	_, err := o.direct.AddRepository("octo-org", "hello-world", false)
	must(err)
	must(o.direct.AddIssue("octo-org", "hello-world", 1))
	var proxied *pgxpool.Config
	o.proxy, proxied = newProxy(t, cfg)
	proxied.ConnConfig.RuntimeParams["application_name"] = o.appName
	proxied.ConnConfig.ConnectTimeout = 2 * time.Second
	o.handler = newHandler(t, pgstore.New(newPool(t, proxied)))
	return o
}

// wantServing checks that the handler answers a list and a write with 200,
// and that the write reached the database.
func (o *outage) wantServing(t *testing.T, when string) {
	t.Helper()
	o.writes++
	value := fmt.Sprintf("%s, write %d", when, o.writes)
	if rec := serve(o.handler, "POST", o.path, textBody(1, value)); rec.Code != http.StatusOK {
		t.Fatalf("%s: POST %s: status %d, want 200: %s", when, o.path, rec.Code, rec.Body)
	}
	if rec := serve(o.handler, "GET", o.path, ""); rec.Code != http.StatusOK || decodeList(t, rec)[1] != value {
		t.Fatalf("%s: GET %s: status %d, %s; want 200 and %q", when, o.path, rec.Code, rec.Body, value)
	}
	if values, _ := storedValues(t, o.direct, "octo-org", "hello-world", 1); len(values) != 1 || values[0].Text != value {
		t.Fatalf("%s: the database holds %+v; want %q", when, values, value)
	}
}

// want503 checks that the handler answers the request with 503, Retry-After
// and the code service_unavailable.
func (o *outage) want503(t *testing.T, method, path, body string) {
	t.Helper()
	rec := serve(o.handler, method, path, body)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" ||
		!strings.Contains(rec.Body.String(), `"code":"service_unavailable"`) {
		t.Errorf("%s %s while the database is away: status %d, Retry-After %q, %s; want 503 service_unavailable with Retry-After",
			method, path, rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
}

// waitServing lists the issue's values until the handler answers 200, as a
// client that retries would, and fails if an answer is anything but 200 or
// 503, or if the handler does not serve again within ten seconds.
func (o *outage) waitServing(t *testing.T, when string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for attempt := 1; ; attempt++ {
		rec := serve(o.handler, "GET", o.path, "")
		switch {
		case rec.Code == http.StatusOK:
			t.Logf("%s: answer %d was 200", when, attempt)
			return
		case rec.Code != http.StatusServiceUnavailable:
			t.Fatalf("%s: GET %s: status %d, want 200 or 503: %s", when, o.path, rec.Code, rec.Body)
		case time.Now().After(deadline):
			t.Fatalf("%s: the handler still answers 503 after %d attempts", when, attempt)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
