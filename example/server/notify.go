package server

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
)

// newNotifier returns the notifier the options ask for: webhook deliveries to
// opts.webhookURL, with the URLs of their bodies under base, or else a log line per event at debug level, or none at
// all (nil) when the logger drops debug lines, as it does by default: the
// handler then builds no events. closeFn drains what is still queued, within
// the bound of its context.
func newNotifier(opts options, base string, logger *slog.Logger) (n issuefields.Notifier, closeFn func(context.Context) error, err error) {
	if opts.webhookURL == "" {
		noQueue := func(context.Context) error { return nil }
		if !logger.Enabled(context.Background(), slog.LevelDebug) {
			return nil, noQueue, nil
		}
		return logEvents(logger), noQueue, nil
	}
	hook, err := webhook.New(opts.webhookURL, webhook.Options{
		Secret:  []byte(opts.webhookSecret),
		Vendor:  opts.vendor,
		BaseURL: base,
		Logger:  logger,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("-webhook: %w", err)
	}
	return hook, hook.Close, nil
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
				"before", shownValue(c.Field, c.Before), "after", shownValue(c.Field, c.After)))
		}
		logger.LogAttrs(ctx, slog.LevelDebug, "event", attrs...)
		return nil
	})
}

// shownValue returns v, a value of field f, as a log line shows it: the
// text, number or date, the names of the selected options joined by ",", or
// "none" for nil.
func shownValue(f issuefields.Field, v *issuefields.Value) any {
	switch {
	case v == nil:
		return "none"
	case f.DataType == issuefields.DataTypeNumber:
		return v.Number
	case f.DataType == issuefields.DataTypeDate:
		return v.Date
	case f.DataType == issuefields.DataTypeText:
		return v.Text
	}
	var names []string
	for _, o := range f.Options {
		for _, id := range v.OptionIDs {
			if o.ID == id {
				names = append(names, o.Name)
			}
		}
	}
	return strings.Join(names, ",")
}
