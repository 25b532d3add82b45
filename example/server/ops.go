package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/issuefields/issuefields"
)

// readyTimeout bounds how long GET /readyz waits for the store's answer.
const readyTimeout = 2 * time.Second

// readinessProbe is the owner and name that GET /readyz looks up: no
// repository has them, so a store that answers says ErrNotFound.
const readinessProbe = ".readyz"

// routes returns the server's handler: api mounted at prefix ("" for the
// root, else "/segment..."), GET /healthz and GET /readyz beside it, and a
// JSON 404 that says where the API is for every other path.
func routes(api http.Handler, prefix string, store issuefields.Store, logger *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	if prefix == "" {
		mux.Handle("/", api)
	} else {
		mux.Handle(prefix+"/", http.StripPrefix(prefix, api))
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, http.StatusNotFound, map[string]string{
				"message":           "Not Found: the API is mounted at " + prefix + "/",
				"api_url":           baseURL(r) + prefix + "/",
				"documentation_url": issuefields.DefaultDocumentationURL,
			})
		})
	}
	healthz := getOnly(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	readyz := getOnly(func(w http.ResponseWriter, r *http.Request) {
		if err := storeAnswers(r.Context(), store); err != nil {
			logger.LogAttrs(r.Context(), slog.LevelWarn, "not ready", slog.Any("error", err))
			w.Header().Set("Retry-After", "1")
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "message": "the store does not answer"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.Handle("/healthz", healthz)
	mux.Handle("/readyz", readyz)
	if prefix == "" {
		return &directRoutes{mux: mux, api: api, healthz: healthz, readyz: readyz}
	}
	return mux
}

// directRoutes serves the routes of an API mounted at the root as mux does,
// but routes the requests that mux would pass on as they are without mux's
// lookup, which cost every request of the API a second one besides the
// handler's own. Any other request (CONNECT, "*", a path that mux would
// redirect to its clean form) goes through mux.
type directRoutes struct {
	mux                  *http.ServeMux
	api, healthz, readyz http.Handler
}

func (d *directRoutes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if r.Method == http.MethodConnect || r.RequestURI == "*" || r.URL.RawPath != "" || !muxKeepsPath(p) {
		d.mux.ServeHTTP(w, r)
		return
	}
	// r.Pattern is set as mux sets it, for the handlers that read it.
	switch p {
	case "/healthz":
		r.Pattern = "/healthz"
		d.healthz.ServeHTTP(w, r)
	case "/readyz":
		r.Pattern = "/readyz"
		d.readyz.ServeHTTP(w, r)
	default:
		r.Pattern = "/"
		d.api.ServeHTTP(w, r)
	}
}

// muxKeepsPath reports whether http.ServeMux serves the path p as it is,
// rather than redirecting to its clean form: p is rooted and path.Clean
// leaves it as it is, but for a trailing slash. That is, p has no empty
// segment but at its end and no segment "." or "..", which a few searches
// find in a tenth of path.Clean's time.
func muxKeepsPath(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.Contains(p, "//") &&
		!strings.Contains(p, "/./") && !strings.HasSuffix(p, "/.") &&
		!strings.Contains(p, "/../") && !strings.HasSuffix(p, "/..")
}

// storeAnswers asks store for a repository that does not exist, within
// readyTimeout, and returns nil when it answers, with the repository or with
// ErrNotFound.
func storeAnswers(ctx context.Context, store issuefields.Store) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	_, err := store.Repository(ctx, readinessProbe, readinessProbe)
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
			writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"message": "Method Not Allowed"})
			return
		}
		h(w, r)
	}
}

// baseURL returns the scheme and host that r was sent to, as
// "http://host".
func baseURL(r *http.Request) string {
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}

// writeJSON answers with status and v as JSON, ending with a newline as the
// API's bodies do.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, "Internal server error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(body.Bytes())
}
