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
	"github.com/issuefields/issuefields/example/standin"
	"github.com/issuefields/issuefields/memstore"
)

// A resetter restores the state that the server started with, for POST
// /_issuefields/reset: it empties the store, loads the data file into it
// again, re-creates the -webhook hooks, and starts the tokens, the write
// limits and the recorded requests afresh. Resets take turns; a request
// served during one may see the store part-way loaded. An error of
// Command.EmptyStore that wraps standin.ErrNoReset refuses the reset, which
// is answered 501 with the error's message.
type resetter struct {
	mu sync.Mutex
	// empty empties the store; nil when the command cannot.
	empty func(ctx context.Context) error
	// data is what the server started with, whose data file a reset loads.
	data    *dataset
	opts    options
	tokens  *liveTokens
	limiter *freshLimiter // nil when the Command gives the limiter
	journal *standin.Journal
}

// newResetter returns the resetter of the server that serves d with the
// options opts, the tokens and limiter that the handler uses, and journal.
func (c Command) newResetter(d *dataset, opts options, tokens *liveTokens, limiter *freshLimiter, journal *standin.Journal) *resetter {
	r := &resetter{data: d, opts: opts, tokens: tokens, limiter: limiter, journal: journal}
	switch {
	case c.Open == nil:
		r.empty = func(context.Context) error { d.store.(*memstore.Store).Empty(); return nil }
	case c.EmptyStore != nil:
		r.empty = func(ctx context.Context) error { return c.EmptyStore(ctx, d.store) }
	}
	return r
}

// A reloader is a store that several servers may share, whose resets then
// take turns across the servers. Reload calls reload, which empties the
// store and loads it again, while no other server sharing the store runs
// reload, or LoadIfEmpty's load (see onceLoader), and returns reload's
// error; so resets through several servers at once leave the data file
// loaded once, not twice or in part. reload works with the context it is
// given, which may bound it. pgstore's command, issuefields-postgres, gives
// such a store.
type reloader interface {
	Reload(ctx context.Context, reload func(ctx context.Context) error) error
}

// reset restores the start-up state. It returns an error that wraps
// standin.ErrNoReset when the command cannot empty its store, or refuses
// to.
func (r *resetter) reset(ctx context.Context) error {
	if r.empty == nil {
		return fmt.Errorf("%w: this command cannot empty its store, so restart it on an empty store instead", standin.ErrNoReset)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var d *dataset
	reload := func(ctx context.Context) (err error) {
		d, err = r.reload(ctx)
		return err
	}
	var err error
	if s, ok := r.data.store.(reloader); ok {
		err = s.Reload(ctx, reload)
	} else {
		err = reload(ctx)
	}
	if err != nil {
		return err
	}
	r.tokens.table.Store(d.Tokens)
	if r.limiter != nil {
		r.limiter.renew()
	}
	r.journal.Clear()
	return nil
}

// reload empties the store, loads the data file into it again and
// re-creates the -webhook hooks, and returns the dataset it loaded.
func (r *resetter) reload(ctx context.Context) (*dataset, error) {
	if err := r.empty(ctx); err != nil {
		if errors.Is(err, standin.ErrNoReset) {
			return nil, err
		}
		return nil, fmt.Errorf("emptying the store: %w", err)
	}
	d, err := r.data.loadInto(ctx, r.data.store, banner.IntoEmpty)
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
