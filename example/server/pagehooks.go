package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/standin"
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

// allHooks returns the hooks of the organizations of d's data file, then
// those of its repositories, each owner's by ID. An owner that the store does
// not have is left out.
func allHooks(ctx context.Context, d *dataset) ([]ownedHook, error) {
	var all []ownedHook
	add := func(owner string, scope webhook.Scope) error {
		hooks, err := d.store.Hooks(ctx, scope)
		if err != nil && !errors.Is(err, issuefields.ErrNotFound) {
			return fmt.Errorf("the hooks of %s: %w", owner, err)
		}
		for _, h := range hooks {
			all = append(all, ownedHook{h, owner})
		}
		return nil
	}
	for _, login := range d.organizations() {
		if err := add(login, webhook.Scope{Organization: login}); err != nil {
			return nil, err
		}
	}
	for _, rd := range d.file.Repositories {
		snap, err := d.store.Snapshot(ctx, rd.Owner, rd.Name, 1)
		if errors.Is(err, issuefields.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("the repository %s/%s: %w", rd.Owner, rd.Name, err)
		}
		repo := snap.Repository
		if err := add(repo.Owner+"/"+repo.Name, webhook.Scope{RepositoryID: repo.ID}); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// shownHooks returns the hooks of d as the page shows them: each with its
// newest deliveries, whole. A delivery forgotten while they are read is
// left out.
func shownHooks(ctx context.Context, d *dataset) ([]standin.Hook, error) {
	hooks, err := allHooks(ctx, d)
	if err != nil {
		return nil, err
	}
	shown := make([]standin.Hook, len(hooks))
	for i, h := range hooks {
		shown[i] = standin.Hook{ID: h.ID, Owner: h.owner, URL: h.Config.URL, ContentType: h.Config.ContentType,
			Events: h.Events, Active: h.Active, Signed: h.Config.Secret != ""}
		list, err := d.store.Deliveries(ctx, h.ID, webhook.DeliveryQuery{Limit: recentDeliveries})
		if err != nil && !errors.Is(err, issuefields.ErrNotFound) {
			return nil, fmt.Errorf("the deliveries of hook %d: %w", h.ID, err)
		}
		for _, item := range list {
			whole, err := d.store.Delivery(ctx, h.ID, item.ID)
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
func shownDelivery(d webhook.Delivery) standin.Delivery {
	return standin.Delivery{ID: d.ID, GUID: d.GUID, Event: d.Event, Action: d.Action, Redelivery: d.Redelivery,
		StatusCode: d.StatusCode, Status: d.Status, Time: d.DeliveredAt.UTC(),
		DurationMS: float64(d.Duration.Microseconds()) / 1000,
		Request:    standin.Message(d.Request), Response: standin.Message(d.Response)}
}

// redeliverer returns the page's Redeliver: it sends delivery deliveryID of
// hook hookID, one of d's hooks, again with n, as the API's attempts route
// does: the same payload and GUID, to the hook as it is now.
func redeliverer(d *dataset, n *webhook.Notifier) func(ctx context.Context, hookID, deliveryID int64) error {
	return func(ctx context.Context, hookID, deliveryID int64) error {
		hooks, err := allHooks(ctx, d)
		if err != nil {
			return err
		}
		for _, h := range hooks {
			if h.ID != hookID {
				continue
			}
			delivery, err := d.store.Delivery(ctx, hookID, deliveryID)
			if err != nil {
				return err
			}
			err = n.Redeliver(h.Hook, delivery)
			if err != nil && !errors.Is(err, webhook.ErrClosed) {
				err = fmt.Errorf("%w: %w", standin.ErrNoRedelivery, err)
			}
			return err
		}
		return fmt.Errorf("hook %d: %w", hookID, issuefields.ErrNotFound)
	}
}

// deliveryTeller is a webhook.Store that calls changed after it records a
// delivery, so that an open page of the tools shows it.
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
