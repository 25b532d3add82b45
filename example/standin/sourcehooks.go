package standin

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/internal/lookup"
	"github.com/issuefields/issuefields/webhook"
)

// recentDeliveries is how many deliveries of each hook the page shows: the
// newest.
const recentDeliveries = 10

// ownedHook is a hook with its owner as the page names it: an
// organization's login, or a repository's owner/name.
type ownedHook struct {
	webhook.Hook
	owner string
}

// allHooks returns the hooks of s's organizations, then those of its
// repositories, each owner's by ID. An owner that the store does not have
// is left out, and so is a repository listed again, by the same name or
// another that it had, so that no hook shows twice.
func (s Source) allHooks(ctx context.Context) ([]ownedHook, error) {
	var all []ownedHook
	add := func(owner string, scope webhook.Scope) error {
		hooks, err := s.Hooks.Hooks(ctx, scope)
		if err != nil && !errors.Is(err, issuefields.ErrNotFound) {
			return fmt.Errorf("the hooks of %s: %w", owner, err)
		}
		for _, h := range hooks {
			all = append(all, ownedHook{h, owner})
		}
		return nil
	}
	for _, login := range s.Organizations {
		if err := add(login, webhook.Scope{Organization: login}); err != nil {
			return nil, err
		}
	}
	seen := make(map[int64]bool, len(s.Repositories))
	for _, ri := range s.Repositories {
		repo, err := lookup.Repository(ctx, s.Store, ri.Owner, ri.Name)
		if errors.Is(err, issuefields.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("the repository %s/%s: %w", ri.Owner, ri.Name, err)
		}
		if seen[repo.ID] {
			continue
		}
		seen[repo.ID] = true
		if err := add(repo.Owner+"/"+repo.Name, webhook.Scope{RepositoryID: repo.ID}); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// hooks returns the hooks of s as the page shows them: each with its
// newest deliveries, whole. A delivery forgotten while they are read is
// left out.
func (s Source) hooks(ctx context.Context) ([]Hook, error) {
	hooks, err := s.allHooks(ctx)
	if err != nil {
		return nil, err
	}
	shown := make([]Hook, len(hooks))
	for i, h := range hooks {
		shown[i] = Hook{ID: h.ID, Owner: h.owner, URL: h.Config.URL, ContentType: h.Config.ContentType,
			Events: h.Events, Active: h.Active, Signed: h.Config.Secret != ""}
		list, err := s.Hooks.Deliveries(ctx, h.ID, webhook.DeliveryQuery{Limit: recentDeliveries})
		if err != nil && !errors.Is(err, issuefields.ErrNotFound) {
			return nil, fmt.Errorf("the deliveries of hook %d: %w", h.ID, err)
		}
		for _, item := range list {
			whole, err := s.Hooks.Delivery(ctx, h.ID, item.ID)
			if errors.Is(err, issuefields.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("delivery %d of hook %d: %w", item.ID, h.ID, err)
			}
			shown[i].Deliveries = append(shown[i].Deliveries, shownDelivery(whole))
		}
	}
	return shown, nil
}

// shownDelivery returns d as the page shows it.
func shownDelivery(d webhook.Delivery) Delivery {
	return Delivery{ID: d.ID, GUID: d.GUID, Event: d.Event, Action: d.Action, Redelivery: d.Redelivery,
		StatusCode: d.StatusCode, Status: d.Status, Time: d.DeliveredAt.UTC(),
		DurationMS: float64(d.Duration.Microseconds()) / 1000,
		Request:    Message(d.Request), Response: Message(d.Response)}
}

// errNoNotifier is the error of a Redeliver of a Source without a Notifier.
var errNoNotifier = errors.New("the page's source has no webhook notifier to send deliveries with")

// Redeliver sends delivery deliveryID of hook hookID, a hook of s's
// organizations or repositories, again with s.Notifier, as the API's
// attempts route does: the same payload and GUID, to the hook as it is
// now. It returns an error that wraps issuefields.ErrNotFound for another
// hook or an unknown delivery, one that wraps ErrNoRedelivery for a
// delivery that cannot be sent again, webhook.ErrClosed once the notifier
// is closed, and another error when s has no Notifier.
func (s Source) Redeliver(ctx context.Context, hookID, deliveryID int64) error {
	hooks, err := s.allHooks(ctx)
	if err != nil {
		return err
	}
	for _, h := range hooks {
		if h.ID != hookID {
			continue
		}
		delivery, err := s.Hooks.Delivery(ctx, hookID, deliveryID)
		if err != nil {
			return err
		}
		if s.Notifier == nil {
			return errNoNotifier
		}
		err = s.Notifier.Redeliver(h.Hook, delivery)
		if err != nil && !errors.Is(err, webhook.ErrClosed) {
			err = fmt.Errorf("%w: %w", ErrNoRedelivery, err)
		}
		return err
	}
	return fmt.Errorf("hook %d: %w", hookID, issuefields.ErrNotFound)
}

// TellDeliveries returns a webhook.Store that stores in s and calls changed
// after each delivery it records, so that an open page shows it: give it,
// with Journal.Changed, to the webhook.Notifier whose deliveries the page
// shows.
func TellDeliveries(s webhook.Store, changed func()) webhook.Store {
	return deliveryTeller{Store: s, changed: changed}
}

// deliveryTeller is a webhook.Store that calls changed after it records a
// delivery.
type deliveryTeller struct {
	webhook.Store
	changed func()
}

// AddDelivery records d, and calls changed once it is recorded.
func (s deliveryTeller) AddDelivery(ctx context.Context, d webhook.Delivery) (webhook.Delivery, error) {
	d, err := s.Store.AddDelivery(ctx, d)
	if err == nil {
		s.changed()
	}
	return d, err
}
