package standin

import (
	"bytes"
	"context"
	"embed"
	"html/template"
	"log/slog"
	"net/http"

	"github.com/issuefields/issuefields/example/internal/jsonanswer"
)

// State is what the page shows of the data that the server serves.
type State struct {
	Organizations []Organization
	Repositories  []Repository
	Hooks         []Hook
}

// An Organization is an organization with its fields, in its order.
type Organization struct {
	Login  string
	Fields []Field
}

// A Field is a field's definition as the page shows it: Options holds the
// names of a select field's options.
type Field struct {
	ID       int64
	Name     string
	DataType string
	Options  []string
}

// A Repository is a repository with its issues.
type Repository struct {
	Owner, Name string
	Issues      []Issue
}

// An Issue is an issue with its current values; or, when Note is not "", an
// issue that has none to show, such as one that was deleted, and why.
type Issue struct {
	Number int64
	Note   string
	Values []Value
}

// A Value is the value of one field of an issue, written out.
type Value struct {
	Field, Value string
}

// assets are the page's template, style sheet and script.
//
//go:embed page.html style.css page.js
var assets embed.FS

var pageTemplate = template.Must(template.New("page.html").Funcs(template.FuncMap{
	"message": shownMessage,
	"url":     shownURL,
}).ParseFS(assets, "page.html"))

// pageSecurity is the Content-Security-Policy of the page: the style sheet
// and the script of the tools only, requests and forms to the server only,
// and no framing by another page.
const pageSecurity = "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; " +
	"frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// page serves GET /_issuefields/: the state that cfg.State returns and the
// recorded requests, as HTML, complete without its script, which only keeps
// it up to date.
func page(w http.ResponseWriter, r *http.Request, cfg Config) {
	state, err := cfg.State(r.Context())
	if err != nil {
		cfg.Logger.LogAttrs(r.Context(), slog.LevelError, "the page cannot read the store", slog.Any("error", err))
		jsonanswer.Write(w, http.StatusInternalServerError, message("The page cannot read the store: the server's log says why"))
		return
	}
	var body bytes.Buffer
	data := struct {
		State
		Requests []Request
	}{state, cfg.Journal.Requests()}
	if err := pageTemplate.Execute(&body, data); err != nil {
		cfg.Logger.LogAttrs(r.Context(), slog.LevelError, "the page cannot be rendered", slog.Any("error", err))
		jsonanswer.Write(w, http.StatusInternalServerError, message("The page cannot be rendered: the server's log says why"))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageSecurity)
	h.Set("Cache-Control", "no-store")
	_, _ = w.Write(body.Bytes())
}

// asset returns the handler that serves the file name of assets.
func asset(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, assets, name)
	}
}

// noState is the State of a Config without one: nothing.
func noState(context.Context) (State, error) { return State{}, nil }
