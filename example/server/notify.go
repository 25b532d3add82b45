package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/internal/fieldvalue"
	"github.com/issuefields/issuefields/example/standin"
	"github.com/issuefields/issuefields/webhook"
)

// newNotifier returns the webhook.Notifier of the server, which delivers each
// event to the hooks that d's store holds, as GitHub delivers them, with the
// URLs of their bodies under urls, and the handler's notifier: hooks, and
// when the logger keeps debug lines, a line per event too. Closing hooks
// drains the deliveries still queued, within the bound of its context.
// changed, if not nil, is called after each delivery is recorded. A store
// that tells its epoch (webhook.Epochs), as one that several servers share
// does, tells hooks of resets through the other servers.
func newNotifier(opts options, urls publicURLs, d *dataset, changed func(), logger *slog.Logger) (hooks *webhook.Notifier, n issuefields.Notifier, err error) {
	store := d.store.Hooks
	if changed != nil {
		store = standin.TellDeliveries(store, changed)
	}
	epochs, _ := d.store.Data.(webhook.Epochs)
	hooks, err = webhook.New(webhook.Options{
		Store:     store,
		Epochs:    epochs,
		Directory: d.File.Directory(),
		BaseURL:   urls.api,
		WebURL:    urls.web,
		Vendor:    opts.vendor,
		Logger:    logger,
	})
	if err != nil {
		return nil, nil, err
	}
	if !logger.Enabled(context.Background(), slog.LevelDebug) {
		return hooks, hooks, nil
	}
	events := logEvents(logger)
	return hooks, issuefields.NotifierFunc(func(ctx context.Context, e issuefields.Event) error {
		_ = events.Notify(ctx, e)
		return hooks.Notify(ctx, e)
	}), nil
}

// withEpochMarks returns api, which gives each request that may write, for
// a store that tells its epoch (webhook.Epochs), a context with room for the
// epoch that its write is made in (webhook.WithEpochMark): the Notifier then
// drops the event of a write made before a reset through another server,
// and delivers the event of one made after it. With another store it
// returns api.
func withEpochMarks(api http.Handler, s Store) http.Handler {
	if _, ok := s.Data.(webhook.Epochs); !ok {
		return api
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions {
			r = r.WithContext(webhook.WithEpochMark(r.Context()))
		}
		api.ServeHTTP(w, r)
	})
}

// ensureHooks gives every organization of d an organization hook that sends
// the issue field events to url, signed with secret, unless it has a hook
// with that URL already: a server that restarts on a store that keeps its
// hooks adds none. Two servers starting at once on one database may each
// create one; each then keeps the oldest and deletes the others, so that one
// hook remains.
func ensureHooks(ctx context.Context, d *dataset, url, secret string) error {
	now := time.Now().UTC().Truncate(time.Second)
	for _, org := range d.organizations() {
		scope := webhook.Scope{Organization: org}
		hooks, err := hooksTo(ctx, d.store.Hooks, scope, url)
		if err != nil {
			return fmt.Errorf("-webhook: the hooks of %s: %w", org, err)
		}
		if len(hooks) > 0 {
			continue
		}
		_, err = d.store.Hooks.CreateHook(ctx, webhook.Hook{Scope: scope, Active: true, Events: []string{webhook.EventName},
			Config: webhook.Config{URL: url, ContentType: "json", Secret: secret, InsecureSSL: "0"}, CreatedAt: now, UpdatedAt: now}, webhook.MaxHooks)
		if err != nil {
			return fmt.Errorf("-webhook: a hook of %s: %w", org, err)
		}
		if hooks, err = hooksTo(ctx, d.store.Hooks, scope, url); err != nil {
			return fmt.Errorf("-webhook: the hooks of %s: %w", org, err)
		}
		for _, h := range hooks[1:] {
			if err := d.store.Hooks.DeleteHook(ctx, scope, h.ID); err != nil && !errors.Is(err, issuefields.ErrNotFound) {
				return fmt.Errorf("-webhook: a second hook of %s: %w", org, err)
			}
		}
	}
	return nil
}

// hooksTo returns the hooks of scope that deliver to url, oldest first.
func hooksTo(ctx context.Context, s webhook.Store, scope webhook.Scope, url string) ([]webhook.Hook, error) {
	hooks, err := s.Hooks(ctx, scope)
	hooks = slices.DeleteFunc(hooks, func(h webhook.Hook) bool { return h.Config.URL != url })
	slices.SortFunc(hooks, func(a, b webhook.Hook) int { return cmp.Compare(a.ID, b.ID) })
	return hooks, err
}

// logEvents is a notifier that writes each event to the log at debug level,
// with the value of each changed field before and after: the request's own
// line already says that a write succeeded.
func logEvents(logger *slog.Logger) issuefields.Notifier {
	return issuefields.NotifierFunc(func(ctx context.Context, e issuefields.Event) error {
		repo := e.Issue.Repository
		attrs := []slog.Attr{
			slog.String("id", e.ID),
			slog.String("action", string(e.Action)),
			slog.String("repository", repo.Owner+"/"+repo.Name),
			slog.Int64("issue", e.Issue.Number),
			slog.String("actor", e.Actor.Login),
		}
		for _, c := range e.Changes {
			attrs = append(attrs, slog.Group("field_"+strconv.FormatInt(c.Field.ID, 10),
				"before", fieldvalue.Shown(c.Field, c.Before), "after", fieldvalue.Shown(c.Field, c.After)))
		}
		logger.LogAttrs(ctx, slog.LevelDebug, "event", attrs...)
		return nil
	})
}
