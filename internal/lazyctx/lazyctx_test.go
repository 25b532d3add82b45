package lazyctx_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/issuefields/issuefields/internal/lazyctx"
)

type key struct{}

// isDone reports whether ctx's Done channel is closed.
func isDone(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return true
	default:
		return false
	}
}

// TestLikeContextWithTimeout checks that the context behaves as
// context.WithTimeout's in each way it can end, whether or not Done was
// called before it ended.
func TestLikeContextWithTimeout(t *testing.T) {
	for name, armFirst := range map[string]bool{"Done not called": false, "Done called first": true} {
		t.Run(name, func(t *testing.T) {
			parent := context.WithValue(context.Background(), key{}, "v")

			ctx, cancel := lazyctx.WithTimeout(parent, time.Hour)
			if armFirst {
				_ = ctx.Done()
			}
			if err := ctx.Err(); err != nil {
				t.Errorf("Err before its end = %v, want nil", err)
			}
			if got := ctx.Value(key{}); got != "v" {
				t.Errorf("Value = %v, want the parent's", got)
			}
			if d, ok := ctx.Deadline(); !ok || time.Until(d) < 59*time.Minute {
				t.Errorf("Deadline = %v, %v, want an hour from now", d, ok)
			}
			cancel()
			if err := ctx.Err(); !errors.Is(err, context.Canceled) {
				t.Errorf("Err after cancel = %v, want context.Canceled", err)
			}
			if !isDone(ctx) {
				t.Error("Done is not closed after cancel")
			}

			ctx, cancel = lazyctx.WithTimeout(parent, time.Millisecond)
			defer cancel()
			if armFirst {
				select {
				case <-ctx.Done():
				case <-time.After(10 * time.Second):
					t.Fatal("Done was not closed at the deadline")
				}
			} else {
				time.Sleep(2 * time.Millisecond)
			}
			if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Err after the deadline = %v, want context.DeadlineExceeded", err)
			}
			cancel()
			if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Err after the deadline and cancel = %v, want the same context.DeadlineExceeded", err)
			}
			if !isDone(ctx) {
				t.Error("Done is not closed after the deadline")
			}

			p, cancelParent := context.WithCancel(parent)
			ctx, cancel = lazyctx.WithTimeout(p, time.Hour)
			defer cancel()
			if armFirst {
				_ = ctx.Done()
			}
			cancelParent()
			if err := ctx.Err(); !errors.Is(err, context.Canceled) {
				t.Errorf("Err after the parent's cancel = %v, want context.Canceled", err)
			}
			if !isDone(ctx) {
				t.Error("Done is not closed after the parent's cancel")
			}
		})
	}
}

// TestEarlierParentDeadline checks that the deadline is the parent's when
// the parent's is earlier.
func TestEarlierParentDeadline(t *testing.T) {
	parent, cancelParent := context.WithTimeout(context.Background(), time.Minute)
	defer cancelParent()
	ctx, cancel := lazyctx.WithTimeout(parent, time.Hour)
	defer cancel()
	want, _ := parent.Deadline()
	if got, ok := ctx.Deadline(); !ok || !got.Equal(want) {
		t.Errorf("Deadline = %v, %v, want the parent's %v", got, ok, want)
	}
}

// TestDerivedContextEndsWithIt checks that a context made from the lazy one
// ends when the lazy one is canceled.
func TestDerivedContextEndsWithIt(t *testing.T) {
	ctx, cancel := lazyctx.WithTimeout(context.Background(), time.Hour)
	child, cancelChild := context.WithCancel(ctx)
	defer cancelChild()
	cancel()
	select {
	case <-child.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the derived context was not canceled")
	}
	if err := child.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("the derived context's Err = %v, want context.Canceled", err)
	}
}

// TestConcurrentUse calls every method from several goroutines at once, for
// the race detector.
func TestConcurrentUse(t *testing.T) {
	ctx, cancel := lazyctx.WithTimeout(context.Background(), time.Millisecond)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = ctx.Err()
			_ = ctx.Value(key{})
			<-ctx.Done()
			cancel()
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err == nil {
		t.Error("Err = nil after Done was closed")
	}
}
