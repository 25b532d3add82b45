package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/banner"
	"github.com/issuefields/issuefields/example/datafile"
	"github.com/issuefields/issuefields/example/ratelimit"
	"github.com/issuefields/issuefields/example/standin"
	"github.com/issuefields/issuefields/seed"
	"github.com/issuefields/issuefields/webhook"
)

// A resetter restores the state that the server started with, for POST
// /_issuefields/reset, as one atomic step: it shuts the gate of the API's
// requests, empties the store, drops the deliveries of the old state, loads
// the data file into the store again, re-creates the -webhook hooks, starts
// the tokens, the write limits, the primary rate limit's budgets and the
// recorded requests afresh, and opens the gate. A request is served wholly
// before a reset or wholly after it, and resets take turns. An error that wraps standin.ErrNoReset refuses the
// reset, having changed nothing; it is answered 501 with the error's
// message. What else a reset restores joins the same step: what the store
// keeps, in what fill loads (one transaction for a shared store), and what
// the process keeps, beside the tokens, the write limits and the budgets.
type resetter struct {
	mu sync.Mutex
	// replace empties the store and calls fill with the store to load the
	// data file into, as one step: the store's Reload, or its Empty and then
	// fill; nil for a store with neither.
	replace func(ctx context.Context, fill func(ctx context.Context, into Store) error) error
	// data is what the server started with, whose data file a reset loads.
	data    *dataset
	opts    options
	gate    *gate
	hooks   *webhook.Notifier
	tokens  *liveTokens
	limiter *freshLimiter // nil when the Command gives the limiter
	budgets *ratelimit.Limiter
	journal *standin.Journal
}

// A reloader is a store that several servers may share. Reload empties the
// store and calls fill with a Store to load the data file into, in one
// transaction that it commits only if fill returns nil, so that every
// server sees the data before or after the reset, never a part, and a reset
// that fails changes nothing; it calls fill while no other server sharing
// the store runs its own Reload or LoadIfEmpty's load (see onceLoader), so
// resets through several servers at once leave the data file loaded once.
// It returns fill's error, or one that wraps standin.ErrNoReset, having
// changed nothing, to refuse the reset. fill works with the context it is
// given, which may bound it. pgstore's command, issuefields-postgres, gives
// such a store.
type reloader interface {
	Reload(ctx context.Context, fill func(ctx context.Context, into Store) error) error
}

// newResetter returns the resetter of the server that serves d with the
// options opts, whose requests pass g and whose deliveries hooks sends, with
// the tokens and limiter that the handler uses, the primary rate limit's
// budgets, and journal.
func newResetter(d *dataset, opts options, g *gate, hooks *webhook.Notifier, tokens *liveTokens, limiter *freshLimiter, budgets *ratelimit.Limiter, journal *standin.Journal) *resetter {
	r := &resetter{data: d, opts: opts, gate: g, hooks: hooks, tokens: tokens, limiter: limiter, budgets: budgets, journal: journal}
	switch s := d.store.Data.(type) {
	case reloader:
		r.replace = s.Reload
	case seed.Emptier:
		r.replace = emptyThen(s, d.store)
	}
	return r
}

// emptyThen returns the replace of a store that is not shared: it empties
// s, and then calls fill with into, the store that s is the data of.
func emptyThen(s seed.Emptier, into Store) func(ctx context.Context, fill func(ctx context.Context, into Store) error) error {
	return func(ctx context.Context, fill func(ctx context.Context, into Store) error) error {
		if err := s.Empty(ctx); err != nil {
			if errors.Is(err, standin.ErrNoReset) {
				return err
			}
			return fmt.Errorf("emptying the store: %w", err)
		}
		return fill(ctx, into)
	}
}

// reset restores the start-up state. It returns an error that wraps
// standin.ErrNoReset when the command cannot empty its store, or refuses
// to, and one that wraps issuefields.ErrUnavailable when the requests in
// flight do not end in time.
func (r *resetter) reset(ctx context.Context) error {
	if r.replace == nil {
		return fmt.Errorf("%w: this command cannot empty its store, so restart it on an empty store instead", standin.ErrNoReset)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	open, err := r.gate.shut(ctx)
	if err != nil {
		return err
	}
	defer open()
	var d *dataset
	err = r.replace(ctx, func(ctx context.Context, into Store) (err error) {
		r.hooks.Reset()
		d, err = r.load(ctx, into)
		return err
	})
	if err != nil {
		return err
	}
	r.tokens.table.Store(d.Tokens)
	if r.limiter != nil {
		r.limiter.renew()
	}
	r.budgets.Reset()
	r.journal.Clear()
	return nil
}

// load loads the data file into s, an empty store, and re-creates the
// -webhook hooks, and returns the dataset it loaded.
func (r *resetter) load(ctx context.Context, s Store) (*dataset, error) {
	d, err := r.data.loadInto(ctx, s, banner.IntoEmpty)
	if err != nil {
		return nil, fmt.Errorf("loading the data file again: %w", err)
	}
	if r.opts.webhookURL != "" {
		if err := ensureHooks(ctx, d, r.opts.webhookURL, r.opts.webhookSecret); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// liveTokens are the tokens that the server verifies tokens with, which a
// reset replaces with those it loads.
type liveTokens struct {
	table atomic.Pointer[datafile.Tokens]
}

// newLiveTokens returns liveTokens that verify with t.
func newLiveTokens(t *datafile.Tokens) *liveTokens {
	l := new(liveTokens)
	l.table.Store(t)
	return l
}

// VerifyToken verifies token with the current tokens.
func (l *liveTokens) VerifyToken(ctx context.Context, token string) (*issuefields.Principal, error) {
	return l.table.Load().VerifyToken(ctx, token)
}

// login returns the login of token's user or app, or "" for a token that
// the current tokens do not include.
func (l *liveTokens) login(token string) string {
	if p := l.table.Load().Principal(token); p != nil {
		return p.Login
	}
	return ""
}

// freshLimiter is the in-process limiter of the secondary rate limit, which
// a reset replaces with a new one, so that every token's budget is whole
// again.
type freshLimiter struct {
	limits  issuefields.WriteLimits
	current atomic.Pointer[issuefields.WriteLimiter]
}

// newFreshLimiter returns a freshLimiter that enforces limits.
func newFreshLimiter(limits issuefields.WriteLimits) *freshLimiter {
	l := &freshLimiter{limits: limits}
	l.renew()
	return l
}

// renew starts every budget afresh.
func (l *freshLimiter) renew() {
	next := issuefields.NewWriteLimiter(l.limits)
	l.current.Store(&next)
}

// AllowWrite asks the current limiter.
func (l *freshLimiter) AllowWrite(ctx context.Context, key string) (bool, time.Duration) {
	return (*l.current.Load()).AllowWrite(ctx, key)
}
