package server

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/internal/jsonanswer"
	"github.com/issuefields/issuefields/example/internal/lookup"
	"github.com/issuefields/issuefields/example/internal/nosniff"
	"github.com/issuefields/issuefields/example/standin"
)

// readyTimeout bounds how long GET /readyz waits for the store's answer.
const readyTimeout = 2 * time.Second

// documentationURL is the page of the API, which the 404 outside the mount
// prefix points to, as the API's own error bodies do.
const documentationURL = "https://docs.github.com/rest/issues/issue-field-values"

// enterprisePrefix is the prefix of GitHub Enterprise Server's REST API,
// and enterpriseGraphQL the path of its GraphQL API beside it.
const (
	enterprisePrefix  = "/api/v3"
	enterpriseGraphQL = "/api/graphql"
)

// readinessProbe is the owner and name that GET /readyz looks up: no
// repository has them, so a store that answers says ErrNotFound.
const readinessProbe = ".readyz"

// routes returns the server's handler: api mounted at prefix ("" for the
// root, else "/segment..."), GET /healthz and GET /readyz beside it, tools,
// when not nil, at /_issuefields/ whatever prefix is, and a JSON 404 that
// says where the API is for every other path, the prefix without its
// trailing slash included: at base, the API's public URL, or when base is
// "", at the scheme and Host of the request and prefix. front wraps the API
// and that 404: the gate that makes a reset one step for them, and the
// recording of requests, so that what a client sends to the API is recorded
// with the path it sent. Every answer carries X-Content-Type-Options: nosniff.
//
// The paths are told apart by a switch rather than a second ServeMux, which
// would redirect a path with //, . or .. in it to its clean form with a
// text/html 307: such a path goes, under prefix, to api, which answers it
// with its JSON 404, and elsewhere to the JSON 404 of the server.
func routes(api, tools http.Handler, front func(http.Handler) http.Handler, prefix, base string, store issuefields.Store, logger *slog.Logger) http.Handler {
	notFound := front(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		jsonanswer.Write(w, http.StatusNotFound, map[string]string{
			"message":           "Not Found: the API is mounted at " + prefix + "/",
			"api_url":           cmp.Or(strings.TrimSuffix(base, "/"), requestOrigin(r)+prefix) + "/",
			"documentation_url": documentationURL,
		})
	}))
	mounted := front(api)
	if prefix != "" {
		mounted = front(http.StripPrefix(prefix, api))
	}
	// GitHub Enterprise Server serves GraphQL at /api/graphql beside the
	// REST API's /api/v3, where clients of a custom host send it: the
	// path is the API's /graphql, through the same front and handler.
	var graphqlAlias http.Handler
	if prefix == enterprisePrefix {
		graphqlAlias = front(http.StripPrefix("/api", api))
	}
	healthz := getOnly(func(w http.ResponseWriter, r *http.Request) {
		jsonanswer.Write(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	readyz := getOnly(func(w http.ResponseWriter, r *http.Request) {
		if err := storeAnswers(r.Context(), store); err != nil {
			logger.LogAttrs(r.Context(), slog.LevelWarn, "not ready", slog.Any("error", err))
			w.Header().Set("Retry-After", "1")
			jsonanswer.Write(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "message": "the store does not answer"})
			return
		}
		jsonanswer.Write(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	return nosniff.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case tools != nil && strings.HasPrefix(p, standin.Path):
			tools.ServeHTTP(w, r)
		case p == "/healthz":
			healthz.ServeHTTP(w, r)
		case p == "/readyz":
			readyz.ServeHTTP(w, r)
		case graphqlAlias != nil && p == enterpriseGraphQL:
			graphqlAlias.ServeHTTP(w, r)
		case prefix == "" || strings.HasPrefix(p, prefix+"/"):
			mounted.ServeHTTP(w, r)
		default:
			notFound.ServeHTTP(w, r)
		}
	}))
}

// storeAnswers asks store for a repository that does not exist, within
// readyTimeout, and returns nil when it answers, with the repository or with
// ErrNotFound.
func storeAnswers(ctx context.Context, store issuefields.Store) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	_, err := lookup.Repository(ctx, store, readinessProbe, readinessProbe)
	if err == nil || errors.Is(err, issuefields.ErrNotFound) {
		return nil
	}
	return err
}

// getOnly serves GET and HEAD with h, and answers other methods with a JSON
// 405.
func getOnly(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			jsonanswer.Write(w, http.StatusMethodNotAllowed, map[string]string{"message": "Method Not Allowed"})
			return
		}
		h(w, r)
	}
}

// requestOrigin returns the scheme and host that r was sent to, as
// "http://host".
func requestOrigin(r *http.Request) string {
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}
