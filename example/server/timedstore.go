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
	fm, isFM := store.(issuefields.FieldManager)
	sn, isSn := store.(issuefields.Snapshotter)
	up, isUp := store.(issuefields.Updater)
	tfm, tsn, tup := timedFieldManager{fm, m}, timedSnapshotter{sn, m}, timedUpdater{up, m}
	if kp, isKp := store.(issuefields.SnapshotKeeper); isKp && isSn {
		return timedWithKeeper(t, tfm, timedKeeper{tsn, kp}, tup, isFM, isUp)
	}
	switch {
	case isFM && isSn && isUp:
		return struct {
			timedStore
			timedFieldManager
			timedSnapshotter
			timedUpdater
		}{t, tfm, tsn, tup}
	case isSn && isUp:
		return struct {
			timedStore
			timedSnapshotter
			timedUpdater
		}{t, tsn, tup}
	case isFM && isSn:
		return struct {
			timedStore
			timedFieldManager
			timedSnapshotter
		}{t, tfm, tsn}
	case isFM && isUp:
		return struct {
			timedStore
			timedFieldManager
			timedUpdater
		}{t, tfm, tup}
	case isFM:
		return struct {
			timedStore
			timedFieldManager
		}{t, tfm}
	case isSn:
		return struct {
			timedStore
			timedSnapshotter
		}{t, tsn}
	case isUp:
		return struct {
			timedStore
			timedUpdater
		}{t, tup}
	}
	return t
}

// timedWithKeeper is timed for a store that is a Snapshotter and a
// SnapshotKeeper, and a FieldManager and an Updater as isFM and isUp say.
func timedWithKeeper(t timedStore, tfm timedFieldManager, tkp timedKeeper, tup timedUpdater, isFM, isUp bool) issuefields.Store {
	switch {
	case isFM && isUp:
		return struct {
			timedStore
			timedFieldManager
			timedKeeper
			timedUpdater
		}{t, tfm, tkp, tup}
	case isUp:
		return struct {
			timedStore
			timedKeeper
			timedUpdater
		}{t, tkp, tup}
	case isFM:
		return struct {
			timedStore
			timedFieldManager
			timedKeeper
		}{t, tfm, tkp}
	}
	return struct {
		timedStore
		timedKeeper
	}{t, tkp}
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

// timedSnapshotter is a Snapshotter that counts and times the calls of sn.
type timedSnapshotter struct {
	sn      issuefields.Snapshotter
	metrics *metrics
}

func (s timedSnapshotter) Snapshot(ctx context.Context, owner, name string, number int64) (issuefields.Snapshot, error) {
	defer s.metrics.observeStore("Snapshot", time.Now())
	return s.sn.Snapshot(ctx, owner, name, number)
}

// timedUpdater is an Updater that counts and times the calls of up.
type timedUpdater struct {
	up      issuefields.Updater
	metrics *metrics
}

func (s timedUpdater) Update(ctx context.Context, issue issuefields.IssueKey, change func([]issuefields.Value, issuefields.Version) ([]issuefields.Value, error)) (issuefields.Version, error) {
	defer s.metrics.observeStore("Update", time.Now())
	return s.up.Update(ctx, issue, change)
}

// timedKeeper is a Snapshotter and a SnapshotKeeper that counts and times
// the calls of kp that reach the store; KeptSnapshot only reads memory.
type timedKeeper struct {
	timedSnapshotter
	kp issuefields.SnapshotKeeper
}

func (s timedKeeper) KeptSnapshot(owner, name string, number int64) (issuefields.Snapshot, any, bool) {
	return s.kp.KeptSnapshot(owner, name, number)
}

func (s timedKeeper) SwapIfCurrent(ctx context.Context, check any, values []issuefields.Value) (issuefields.Version, error) {
	defer s.metrics.observeStore("SwapIfCurrent", time.Now())
	return s.kp.SwapIfCurrent(ctx, check, values)
}
