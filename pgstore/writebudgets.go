package pgstore

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgxpool"
)

// writeBudgetsSQL is migration 7: the table write_budgets and the functions
// that take and give back the writes of its budgets.
//
//go:embed migrations/007_write_budgets.sql
var writeBudgetsSQL string

// Batches of the statements that maintain the write_budgets table, so that
// each statement is short, whatever the number of keys.
const (
	// giveBackBatch is the most keys whose leases one statement gives back.
	giveBackBatch = 500
	// forgetBatch is the most full budgets that one statement deletes, and
	// forgetRounds the most such statements in one sweep.
	forgetBatch  = 5000
	forgetRounds = 10
)

// budgets is the write_budgets table of migration 7, through the functions
// that it defines: each key's budget of writes under the limits of one
// WriteLimiter. Every call bounds each of its statements by wait.
type budgets struct {
	pool *pgxpool.Pool
	// minute and hour are the counts of the limits, or nil for a limit that
	// is off, as lease_writes takes them.
	minute, hour any
	wait         time.Duration
}

// take takes up to wanted writes of key's budget, at the database's time
// plus offset, and returns how many it granted; when it granted none, wait is
// how long until the budget holds one.
func (b budgets) take(ctx context.Context, key string, wanted int, offset time.Duration) (granted int, wait time.Duration, err error) {
	ctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	var seconds *float64
	err = b.pool.QueryRow(ctx, `SELECT granted, wait_seconds FROM lease_writes(ARRAY[$1::text], ARRAY[0], ARRAY[$2::integer], $3, $4, $5)`,
		key, wanted, offset, b.minute, b.hour).Scan(&granted, &seconds)
	if err != nil {
		return 0, 0, wrap("take writes of the shared write limit", err)
	}
	if seconds != nil {
		wait = time.Duration(*seconds * float64(time.Second))
	}
	return granted, wait, nil
}

// giveBack gives back to each of keys the unspent writes of the same index,
// at the database's time plus offset.
func (b budgets) giveBack(ctx context.Context, keys []string, writes []int32, offset time.Duration) error {
	for start := 0; start < len(keys); start += giveBackBatch {
		end := min(start+giveBackBatch, len(keys))
		if err := b.giveBackBatch(ctx, keys[start:end], writes[start:end], offset); err != nil {
			return err
		}
	}
	return nil
}

// giveBackBatch is giveBack of one statement.
func (b budgets) giveBackBatch(ctx context.Context, keys []string, writes []int32, offset time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	_, err := b.pool.Exec(ctx, `SELECT FROM lease_writes($1, $2, $3, $4, $5, $6)`,
		keys, writes, make([]int32, len(keys)), offset, b.minute, b.hour)
	if err != nil {
		return wrap("give back writes of the shared write limit", err)
	}
	return nil
}

// forgetFull deletes the rows of budgets that are full again at the
// database's time plus offset, which a missing row means too; rows that a
// take or a give-back holds locked are left for a later call.
func (b budgets) forgetFull(ctx context.Context, offset time.Duration) error {
	for range forgetRounds {
		deleted, err := b.forgetFullBatch(ctx, offset)
		if err != nil || deleted < forgetBatch {
			return err
		}
	}
	return nil
}

// forgetFullBatch is forgetFull of one statement; it returns how many rows
// it deleted.
func (b budgets) forgetFullBatch(ctx context.Context, offset time.Duration) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	tag, err := b.pool.Exec(ctx, `DELETE FROM write_budgets WHERE key IN (
		SELECT key FROM write_budgets WHERE full_at <= clock_timestamp() + $1::interval LIMIT $2 FOR UPDATE SKIP LOCKED)`,
		offset, forgetBatch)
	if err != nil {
		return 0, wrap("delete full budgets of the shared write limit", err)
	}
	return tag.RowsAffected(), nil
}

// maxBudgetKeyBytes is the longest key that the table keeps as it is.
const maxBudgetKeyBytes = 64

// budgetKey returns the key that the table keeps for key: key itself, or,
// for a key longer than maxBudgetKeyBytes or one that a text column cannot
// hold (invalid UTF-8, NUL), "sha256:" and its hash in hexadecimal, so that
// a row's size is bounded however long the logins that come.
func budgetKey(key string) string {
	if len(key) <= maxBudgetKeyBytes && utf8.ValidString(key) && !strings.ContainsRune(key, 0) {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// resets returns how many times the store was emptied (Store.Empty).
func (b budgets) resets(ctx context.Context) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	var resets int64
	if err := b.pool.QueryRow(ctx, `SELECT count FROM resets`).Scan(&resets); err != nil {
		return 0, wrap("read the count of resets", err)
	}
	return resets, nil
}

// A lease is what a WriteLimiter holds of one key's budget: writes that it
// took from the table and may spend without asking again, or the time until
// which the table has none to give.
type lease struct {
	// writes is how many writes are leased and not yet spent, and takenAt
	// when they were taken, by the limiter's clock.
	writes  int
	takenAt time.Time
	// refusedUntil is when the key's budget holds a whole write again, as
	// the table said when it refused a take; until then every write is
	// refused without asking it.
	refusedUntil time.Time
	// taking is set while a take from the table is in flight, and closed
	// when it has ended; waiting counts the writes that wait for it.
	taking  chan struct{}
	waiting int
}

// idle reports whether e holds nothing worth keeping at now: no writes, no
// refusal, no take in flight.
func (e *lease) idle(now time.Time) bool {
	return e.writes == 0 && e.taking == nil && !now.Before(e.refusedUntil)
}

// leases are the leases of a WriteLimiter, by key, at most max of them. They
// are not safe for concurrent use: the limiter's lock guards them.
type leases struct {
	max   int
	byKey map[string]*lease
}

// get returns key's lease, a new one if there is none. When the table is
// full, a key picked at random makes room; its unspent writes are lost, which
// leaves its budget short of them until it refills, as when a server dies.
func (ls *leases) get(key string) *lease {
	if e, ok := ls.byKey[key]; ok {
		return e
	}
	if ls.byKey == nil {
		ls.byKey = make(map[string]*lease)
	}
	if len(ls.byKey) >= ls.max {
		for other := range ls.byKey {
			delete(ls.byKey, other)
			break
		}
	}
	e := new(lease)
	ls.byKey[key] = e
	return e
}

// expire forgets the leases that hold nothing at now and takes the unspent
// writes of those taken before takenBefore, which the caller gives back. It
// returns their keys and writes.
func (ls *leases) expire(now, takenBefore time.Time) (keys []string, writes []int32) {
	for key, e := range ls.byKey {
		if e.writes > 0 && e.takenAt.Before(takenBefore) {
			keys, writes = append(keys, key), append(writes, int32(e.writes))
			e.writes = 0
		}
		if e.idle(now) {
			delete(ls.byKey, key)
		}
	}
	return keys, writes
}

// drain takes the unspent writes of every lease, which the caller gives back,
// and forgets every lease. It returns their keys and writes.
func (ls *leases) drain() (keys []string, writes []int32) {
	for key, e := range ls.byKey {
		if e.writes > 0 {
			keys, writes = append(keys, key), append(writes, int32(e.writes))
		}
	}
	ls.byKey = nil
	return keys, writes
}
