package pgstore

import (
	"context"
	_ "embed"
	"time"
)

// requestBudgetsSQL is migration 12: the table request_budgets and the
// function that counts the requests of its windows.
//
//go:embed migrations/012_request_budgets.sql
var requestBudgetsSQL string

// requestBudgets is the request_budgets table of migration 12, through the
// function that it defines. Every call bounds each of its statements by
// the wait of b.
type requestBudgets struct{ budgets }

// requestCount is what a key's row holds: the requests counted in its
// window, and the window's end by the database's clock.
type requestCount struct {
	used int
	end  time.Time
}

// count adds counts[i] to the window of keys[i], each of which lasts
// periods[i] seconds, at the database's time plus offset, and returns each
// key's count after it, by key. keys hold each key at most once.
func (b requestBudgets) count(ctx context.Context, keys []string, counts []int32, periods []float64, offset time.Duration) (map[string]requestCount, error) {
	out := make(map[string]requestCount, len(keys))
	for start := 0; start < len(keys); start += giveBackBatch {
		end := min(start+giveBackBatch, len(keys))
		if err := b.countBatch(ctx, keys[start:end], counts[start:end], periods[start:end], offset, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// countBatch is count of one statement, which adds its counts to out.
func (b requestBudgets) countBatch(ctx context.Context, keys []string, counts []int32, periods []float64, offset time.Duration, out map[string]requestCount) error {
	ctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	rows, err := b.pool.Query(ctx, `SELECT budget_key, used, window_end FROM count_requests($1, $2, $3, $4)`, keys, counts, periods, offset)
	if err != nil {
		return wrap("count requests of the shared rate limit", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var c requestCount
		if err := rows.Scan(&key, &c.used, &c.end); err != nil {
			return wrap("count requests of the shared rate limit", err)
		}
		out[key] = c
	}
	if err := rows.Err(); err != nil {
		return wrap("count requests of the shared rate limit", err)
	}
	return nil
}

// read returns key's count, and whether its window runs at the database's
// time plus offset, without counting.
func (b requestBudgets) read(ctx context.Context, key string, offset time.Duration) (c requestCount, running bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	rows, err := b.pool.Query(ctx, `SELECT used, window_end FROM request_budgets
		WHERE key = $1 AND window_end > clock_timestamp() + $2::interval`, key, offset)
	if err != nil {
		return c, false, wrap("read requests of the shared rate limit", err)
	}
	defer rows.Close()
	if rows.Next() {
		if err := rows.Scan(&c.used, &c.end); err != nil {
			return c, false, wrap("read requests of the shared rate limit", err)
		}
		running = true
	}
	if err := rows.Err(); err != nil {
		return c, false, wrap("read requests of the shared rate limit", err)
	}
	return c, running, nil
}

// forgetEnded deletes up to forgetBatch rows of windows that have ended at
// the database's time plus offset, which a missing row means too; rows that
// a count holds locked are left for a later call.
func (b requestBudgets) forgetEnded(ctx context.Context, offset time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	_, err := b.pool.Exec(ctx, `DELETE FROM request_budgets WHERE key IN (
		SELECT key FROM request_budgets WHERE window_end <= clock_timestamp() + $1::interval LIMIT $2 FOR UPDATE SKIP LOCKED)`,
		offset, forgetBatch)
	if err != nil {
		return wrap("delete ended windows of the shared rate limit", err)
	}
	return nil
}
