package main

import (
	"fmt"
	"net/http"

	"github.com/issuefields/issuefields"
)

// newApp returns the application's handler: its own routes, and the API
// under /api/.
func newApp() (http.Handler, error) {
	store, err := seed()
	if err != nil {
		return nil, fmt.Errorf("seeding the store: %w", err)
	}
	api, err := issuefields.New(issuefields.Config{
		Store:    store,
		Verifier: verifier,
	})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "The application's own home page. The Issue Field Values API is under /api/.")
	})
	// StripPrefix hands the API paths that start at /repos/...; every URL
	// the API writes (Link, Location) keeps the /api prefix all the same.
	mux.Handle("/api/", http.StripPrefix("/api", api))
	return mux, nil
}
