package pgstore

import "context"

// Epoch returns how many times the store has been emptied ([Store.Empty],
// [Store.Reload]) through any Store on the database, as the database holds
// it now: the epoch of its data. A webhook.Notifier given the Store as
// webhook.Options.Epochs asks it before each delivery, and drops the
// delivery of a write made in an earlier epoch, which [Store.UpdateIssue]
// records (webhook.MarkEpoch). A count above the one s knew makes s forget
// what it keeps in memory, as after its own Empty.
func (s *Store) Epoch(ctx context.Context) (int64, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var resets int64
	if err := s.db.QueryRow(ctx, `SELECT count FROM resets`).Scan(&resets); err != nil {
		return 0, wrap("read the count of resets", err)
	}
	s.saw(resets)
	return resets, nil
}

// saw learns that the store has been emptied resets times. A count above
// the one s knew means that the data was replaced, through s or another
// Store on the database: s forgets what it keeps in memory of the data
// before (snapshots, values, fields, and hooks, so that the next event goes
// to the hooks of the new data at once), and every WriteLimiter of s its
// leases.
func (s *Store) saw(resets int64) {
	for {
		known := s.resets.Load()
		if resets <= known {
			return
		}
		if s.resets.CompareAndSwap(known, resets) {
			break
		}
	}
	s.recent.forgetAll()
	s.fields.forgetAll()
	s.hooks.forget()
	s.limiters.emptied(resets)
}
