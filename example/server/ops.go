package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/issuefields/issuefields"
)

// readyTimeout bounds how long GET /readyz waits for the store's answer.
const readyTimeout = 2 * time.Second

// documentationURL is the page of the API, which the 404 outside the mount
// prefix points to, as the API's own error bodies do.
const documentationURL = "https://docs.github.com/rest/issues/issue-field-values"

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
				"documentation_url": documentationURL,
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
	return mux
}

// storeAnswers asks store for a repository that does not exist, within
// readyTimeout, and returns nil when it answers, with the repository or with
// ErrNotFound.
func storeAnswers(ctx context.Context, store issuefields.Store) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	_, err := store.Snapshot(ctx, readinessProbe, readinessProbe, 1)
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
