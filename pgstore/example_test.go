package pgstore_test

import (
	"context"
	"log"
	"net/http"
	"os"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
	"github.com/jackc/pgx/v5/pgxpool"
)

// This example starts a server on the database that DATABASE_URL names,
// loading initial data the first time it starts on it.
func Example() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	if err := pgstore.Migrate(ctx, pool); err != nil {
		log.Fatal(err)
	}
	store := pgstore.New(pool)
	empty, err := store.IsEmpty(ctx)
	if err != nil {
		log.Fatal(err)
	}
	if empty {
		if err := store.AddOrganization("octo-org"); err != nil {
			log.Fatal(err)
		}
		// ... AddField, AddRepository, AddIssue.
	}
	h, err := issuefields.New(issuefields.Config{
		Store: store,
		Verifier: issuefields.TokenVerifierFunc(func(ctx context.Context, token string) (*issuefields.Principal, error) {
			return nil, issuefields.ErrBadCredentials // Look the token up here.
		}),
	})
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", h))
}
