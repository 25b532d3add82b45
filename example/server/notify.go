package server

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// newNotifier returns the notifier the options ask for: webhook deliveries to
// opts.webhookURL, or else a log line per event at debug level, or none at
// all when the logger drops debug lines, as it does by default: the handler
// then builds no events. closeFn drains what is still queued, within the
// bound of its context.
func newNotifier(opts options, logger *slog.Logger) (n issuefields.Notifier, closeFn func(context.Context) error, err error) {
	if opts.webhookURL == "" {
		noQueue := func(context.Context) error { return nil }
		if !logger.Enabled(context.Background(), slog.LevelDebug) {
			return issuefields.DiscardNotifier, noQueue, nil
		}
		return logEvents(logger), noQueue, nil
	}
	hook, err := webhook.New(opts.webhookURL, webhook.Options{
		Secret: []byte(opts.webhookSecret),
		Vendor: opts.vendor,
		Logger: logger,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("-webhook: %w", err)
	}
	return hook, hook.Close, nil
}

// logEvents is a notifier that writes each event to the log, at debug level:
// the request's own line already says that a write succeeded. Like the
// handler's request line, it makes the record itself, without the caller's
// program counter that Logger.LogAttrs looks up on every call (the log
// writes no source position), and with room for all its attributes at once.
func logEvents(logger *slog.Logger) issuefields.Notifier {
	return issuefields.NotifierFunc(func(ctx context.Context, e issuefields.Event) error {
		h := logger.Handler()
		if !h.Enabled(ctx, slog.LevelDebug) {
			return nil
		}
		attrs := make([]slog.Attr, 0, 5+len(e.Changes))
		attrs = append(attrs,
			slog.String("id", e.ID),
			slog.String("action", string(e.Action)),
			slog.String("repository", e.Repository.Owner+"/"+e.Repository.Name),
			slog.Int64("issue", e.IssueNumber),
			slog.String("actor", e.Actor.Login),
		)
		for _, c := range e.Changes {
			// A group made of attributes, not of slog.Group's ...any, which
			// boxes each of them.
			attrs = append(attrs, slog.Attr{Key: "field_" + strconv.FormatInt(c.FieldID, 10), Value: slog.GroupValue(
				slog.Any("before", valueOrNone(c.Before)), slog.Any("after", valueOrNone(c.After)))})
		}
		r := slog.NewRecord(time.Now(), slog.LevelDebug, "event", 0)
		r.AddAttrs(attrs...)
		_ = h.Handle(ctx, r) // as LogAttrs: the log reports no failure of its own
		return nil
	})
}

// valueOrNone returns the value of item for a log line, or "none".
func valueOrNone(item *issuefields.FieldValue) any {
	if item == nil {
		return "none"
	}
	return item.Value
}
