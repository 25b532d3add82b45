package webhook

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// epochPollInterval is how often a Notifier whose Options.Epochs is set asks
// for the Store's epoch while deliveries are under way, so that a reset
// through another server cancels them even when no further delivery comes
// to ask.
const epochPollInterval = time.Second

// resetReason is the reason that the log gives for the events and
// deliveries that a reset drops.
const resetReason = "reset"

// Epochs tells the epoch of a Store's data: how many times a reset has
// emptied it and loaded it again. Give it as Options.Epochs for a Store that
// several servers share, where a reset through one of them replaces the data
// that every one of them delivers from. pgstore.Store is one.
type Epochs interface {
	// Epoch returns the epoch of the Store's data as the Store holds it
	// now, read from where the data is kept rather than from a copy in
	// memory, so that a reset through another server shows at once.
	Epoch(ctx context.Context) (int64, error)
}

// epochMarkKey is the key of a context's epochMark.
type epochMarkKey struct{}

// epochMark is where a Store records the epoch of the write made with a
// context (MarkEpoch) and Notify reads it. plusOne holds the epoch plus
// one, so that 0 means that no write recorded one.
type epochMark struct {
	plusOne atomic.Int64
}

// WithEpochMark returns a copy of ctx that carries room for the epoch of
// one write. The handler gives its request's context to the Store's write
// and then, the write done, to Notify; a Store whose Epoch a reset moves,
// such as pgstore.Store, records in the write (MarkEpoch) which epoch the
// write was made in, and Notify gives its event that epoch: a delivery goes
// out only while the Store is still in it. Without a mark, Notify gives an
// event the latest epoch that the Notifier has seen, which an event of a
// write made just before a reset through another server may not deserve.
// A server that delivers from a shared Store gives its write requests a
// context from WithEpochMark.
func WithEpochMark(ctx context.Context) context.Context {
	return context.WithValue(ctx, epochMarkKey{}, new(epochMark))
}

// MarkEpoch records in ctx's mark, if it has one (WithEpochMark), that the
// write made with ctx was made in epoch. A Store whose Epoch a reset moves
// calls it in every write that may give an event.
func MarkEpoch(ctx context.Context, epoch int64) {
	if m, ok := ctx.Value(epochMarkKey{}).(*epochMark); ok {
		m.plusOne.Store(epoch + 1)
	}
}

// markedEpoch returns the epoch that a write recorded in ctx's mark, and
// whether one did.
func markedEpoch(ctx context.Context) (int64, bool) {
	m, ok := ctx.Value(epochMarkKey{}).(*epochMark)
	if !ok {
		return 0, false
	}
	plusOne := m.plusOne.Load()
	return plusOne - 1, plusOne > 0
}

// An era is the time between two resets of the Store's data, as one
// Notifier knows it. Each job is queued in an era, and runs only while its
// era lasts: ctx, the context of the era's deliveries and of their calls to
// the Store, ends with it.
type era struct {
	// epoch is the Store's epoch in the era (Options.Epochs), or 0.
	epoch int64
	ctx   context.Context
	end   context.CancelFunc
}

// A stamp is what a job carries of when it was queued: its era, and the
// epoch of the write it tells of.
type stamp struct {
	era   *era
	epoch int64
}

// live reports whether the era of st has not ended.
func (st stamp) live() bool { return st.era.ctx.Err() == nil }

// eras holds a Notifier's era now.
type eras struct {
	// parent is the Notifier's context, of which every era's is a copy.
	parent context.Context
	mu     sync.Mutex
	now    *era
}

// begin makes the era that follows the one now, with epoch, and returns the
// one it follows, which the caller ends. es.mu is held.
func (es *eras) begin(epoch int64) (ended *era) {
	ended = es.now
	ctx, end := context.WithCancel(es.parent)
	es.now = &era{epoch: epoch, ctx: ctx, end: end}
	return ended
}

// stamp returns the stamp of a job queued now, whose write was made in
// written when marked: an epoch later than the era's begins the next era.
func (es *eras) stamp(written int64, marked bool) stamp {
	es.mu.Lock()
	defer es.mu.Unlock()
	if marked && written > es.now.epoch {
		es.begin(written).end()
	}
	if !marked {
		written = es.now.epoch
	}
	return stamp{era: es.now, epoch: written}
}

// current reports whether a job of st may run: its era is the one now, and
// its write was made in the era's epoch.
func (es *eras) current(st stamp) bool {
	es.mu.Lock()
	defer es.mu.Unlock()
	return st.era == es.now && st.epoch == es.now.epoch && st.live()
}

// saw ends the era now if epoch, the Store's as just read, is later than
// its own: the data was reset through another server.
func (es *eras) saw(epoch int64) {
	es.mu.Lock()
	defer es.mu.Unlock()
	if epoch > es.now.epoch {
		es.begin(epoch).end()
	}
}

// Reset drops the deliveries of the Store's data as it was before a reset:
// the events and single deliveries queued are dropped, the deliveries under
// way are cancelled and not recorded, and Reset returns once none of them
// can still be sent or recorded. Each is counted in Stats.Dropped and logged
// with the reason "reset", once per interval with a count. Call it when the
// data is replaced: a server's reset calls it after emptying the Store and
// before loading it again, so that nothing of the old data reaches the
// hooks of the new. Events given to Notify after Reset are delivered as
// before, and one given while it runs is dropped with the old ones.
//
// Reset cancels the calls to the Store that the deliveries under way are
// making, so it may be called while the caller holds locks of the Store
// that those calls wait for, such as in the transaction of a reset.
func (n *Notifier) Reset() {
	n.mu.Lock()
	n.eras.mu.Lock()
	ended := n.eras.begin(n.eras.now.epoch)
	n.eras.mu.Unlock()
	dropped := 0
	for !n.closed && len(n.queue) > 0 {
		select {
		case <-n.queue:
			dropped++
		default:
		}
	}
	n.mu.Unlock()
	ended.end()
	// Every job under way holds underway's read lock until it has sent and
	// recorded what it will: with its era ended, each stops at its next
	// step.
	n.underway.Lock()
	n.underway.Unlock()
	for range dropped {
		n.droppedAtReset()
	}
}

// droppedAtReset counts one event or delivery that a reset dropped.
func (n *Notifier) droppedAtReset() {
	n.dropped.Add(1)
	n.resetDrops.add(resetReason)
}

// sendable reports whether a delivery of at may be sent now: its era lasts
// and, with Options.Epochs, the Store's epoch is still the one of at's
// write. A later epoch ends the era, cancelling every delivery under way in
// it. When the Store cannot tell its epoch, the delivery goes on: it cannot
// be recorded either if the Store's data went away.
func (n *Notifier) sendable(at stamp) bool {
	if !at.live() {
		return false
	}
	if n.epochs == nil {
		return true
	}
	ctx, cancel := context.WithTimeout(at.era.ctx, storeTimeout)
	epoch, err := n.epochs.Epoch(ctx)
	cancel()
	if err != nil {
		n.log.Debug("webhook: cannot read the store's epoch", "err", err)
		return at.live()
	}
	n.eras.saw(epoch)
	return epoch == at.epoch && at.live()
}

// recordContext returns the context of recording a delivery of at: bounded
// by storeTimeout, not ended when Close gives up, since a delivery that was
// answered is recorded, and ended with at's era by a reset, which may hold
// the locks of the Store that the record waits for.
func (n *Notifier) recordContext(at stamp) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(n.ctx), storeTimeout)
	stop := context.AfterFunc(at.era.ctx, func() {
		if n.ctx.Err() == nil {
			cancel()
		}
	})
	return ctx, func() {
		stop()
		cancel()
	}
}

// watchEpochs asks for the Store's epoch every epochPollInterval while
// deliveries are under way, until the workers have stopped, so that a reset
// through another server cancels them.
func (n *Notifier) watchEpochs() {
	t := time.NewTicker(epochPollInterval)
	defer t.Stop()
	for {
		select {
		case <-n.done:
			return
		case <-t.C:
		}
		if n.running.Load() == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(n.ctx, storeTimeout)
		if epoch, err := n.epochs.Epoch(ctx); err == nil {
			n.eras.saw(epoch)
		}
		cancel()
	}
}
