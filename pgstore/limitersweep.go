package pgstore

import (
	"context"
	"time"
)

// sweepEvery sweeps every sweepInterval until ctx is done. A sweep that has
// begun ends: each of its statements is bounded, and what it gives back
// would be lost if it stopped.
func (l *WriteLimiter) sweepEvery(ctx context.Context) {
	defer close(l.swept)
	ticker := time.NewTicker(sweepInterval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			l.sweep()
		}
	}
}

// sweep forgets the leases that hold nothing, gives back the unspent writes
// of leases older than leaseLifetime, deletes the budgets that are full
// again, and forgets every lease after a reset through another Store. While
// the limiter falls back it gives nothing back, and the deletion tells
// whether the database answers again.
func (l *WriteLimiter) sweep() {
	l.mu.Lock()
	now := l.now()
	takenBefore := now.Add(-leaseLifetime)
	if l.down {
		takenBefore = time.Time{} // keep the leases until the database answers
	}
	keys, writes := l.leases.expire(now, takenBefore)
	l.mu.Unlock()
	ctx := context.Background()
	err := l.budgets.giveBack(ctx, keys, writes, l.offset())
	if err == nil {
		err = l.budgets.forgetFull(ctx, l.offset())
	}
	if err == nil {
		err = l.readResets(ctx)
	}
	l.reached(err)
}

// reached records whether the database answered the limiter: err is nil
// when it did. The limiter falls back when it did not, and logs a line when
// this changes whether it falls back.
func (l *WriteLimiter) reached(err error) {
	l.mu.Lock()
	wasDown := l.down
	l.down = err != nil
	l.mu.Unlock()
	switch {
	case err != nil && !wasDown:
		l.log.Warn("pgstore: the shared write limit cannot use the database: this server limits writes alone until it can",
			"error", err)
	case err == nil && wasDown:
		l.log.Info("pgstore: the shared write limit uses the database again")
	}
}

// Close stops the limiter's background work and gives back the unspent
// writes of its leases, waiting for the database at most the limiter's
// bound for each statement; writes it cannot give back are lost, as when a
// server dies. After Close, the in-process limiter decides every write. Close
// may be called more than once.
func (l *WriteLimiter) Close() {
	l.closeOnce.Do(func() {
		if l.stopSweep != nil {
			l.deregister()
			l.stopSweep()
			<-l.swept
		}
		l.mu.Lock()
		l.closed = true
		l.mu.Unlock()
		l.takes.Wait()
		l.mu.Lock()
		down := l.down
		keys, writes := l.leases.drain()
		l.mu.Unlock()
		if !down {
			_ = l.budgets.giveBack(context.Background(), keys, writes, l.offset())
		}
	})
}
