package server

import (
	"context"
	"time"

	"github.com/issuefields/issuefields"
)

// timed returns store with each of its calls counted and timed in m. The
// handler asks a store for optional interfaces; the store timed returns
// implements exactly those of store, so that timing changes no answer.
func timed(store issuefields.Store, m *metrics) issuefields.Store {
	t := timedStore{store: store, metrics: m}
	if fm, ok := store.(issuefields.FieldManager); ok {
		return struct {
			timedStore
			timedFieldManager
		}{t, timedFieldManager{fm, m}}
	}
	return t
}

// timedStore is a Store that counts and times the calls of store.
type timedStore struct {
	store   issuefields.Store
	metrics *metrics
}

func (s timedStore) Repository(ctx context.Context, owner, name string) (issuefields.Repository, error) {
	defer s.metrics.observeStore("Repository", time.Now())
	return s.store.Repository(ctx, owner, name)
}

func (s timedStore) Issue(ctx context.Context, repo issuefields.Repository, number int64) (issuefields.Issue, error) {
	defer s.metrics.observeStore("Issue", time.Now())
	return s.store.Issue(ctx, repo, number)
}

func (s timedStore) Fields(ctx context.Context, repo issuefields.Repository) ([]issuefields.Field, error) {
	defer s.metrics.observeStore("Fields", time.Now())
	return s.store.Fields(ctx, repo)
}

func (s timedStore) Values(ctx context.Context, issue issuefields.IssueKey) ([]issuefields.Value, issuefields.Version, error) {
	defer s.metrics.observeStore("Values", time.Now())
	return s.store.Values(ctx, issue)
}

func (s timedStore) CompareAndSwap(ctx context.Context, issue issuefields.IssueKey, expected issuefields.Version, values []issuefields.Value) (issuefields.Version, error) {
	defer s.metrics.observeStore("CompareAndSwap", time.Now())
	return s.store.CompareAndSwap(ctx, issue, expected, values)
}

// timedFieldManager is a FieldManager that counts and times the calls of fm.
type timedFieldManager struct {
	fm      issuefields.FieldManager
	metrics *metrics
}

func (s timedFieldManager) OrganizationFields(ctx context.Context, org string) ([]issuefields.Field, error) {
	defer s.metrics.observeStore("OrganizationFields", time.Now())
	return s.fm.OrganizationFields(ctx, org)
}

func (s timedFieldManager) ChangeFields(ctx context.Context, org string, change func(current []issuefields.Field) ([]issuefields.Field, error)) ([]issuefields.Field, error) {
	defer s.metrics.observeStore("ChangeFields", time.Now())
	return s.fm.ChangeFields(ctx, org, change)
}
