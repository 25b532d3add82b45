package issuefields

import (
	"context"
	"errors"
	"testing"
	"time"
)

type notifyTestKey struct{}

// The context of a Notifier call keeps the request's values, outlives the
// request's cancellation and ends at its deadline, as
// context.WithTimeout(context.WithoutCancel(parent)) does.
func TestNotifyContextEndsAtItsDeadline(t *testing.T) {
	parent, cancelParent := context.WithCancel(context.WithValue(context.Background(), notifyTestKey{}, "v"))
	cancelParent()
	ctx, cancel := newNotifyContext(parent, 50*time.Millisecond)
	defer cancel()
	if got := ctx.Value(notifyTestKey{}); got != "v" {
		t.Errorf("Value = %v, want the request's value", got)
	}
	if err := ctx.Err(); err != nil {
		t.Fatalf("Err before the deadline = %v, want nil although the request was cancelled", err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done was not closed at the deadline")
	}
	if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Err after the deadline = %v, want context.DeadlineExceeded", err)
	}
	if err := context.Cause(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Cause after the deadline = %v, want context.DeadlineExceeded", err)
	}
}

// Ending the call closes Done, whether it was asked for before or after, and
// Err says the context was cancelled.
func TestNotifyContextEndsWithItsCall(t *testing.T) {
	for _, doneFirst := range []bool{true, false} {
		ctx, cancel := newNotifyContext(context.Background(), time.Hour)
		var done <-chan struct{}
		if doneFirst {
			done = ctx.Done()
		}
		cancel()
		if !doneFirst {
			done = ctx.Done()
		}
		select {
		case <-done:
		default:
			t.Errorf("Done asked for first %v: not closed after the call ended", doneFirst)
		}
		if err := ctx.Err(); !errors.Is(err, context.Canceled) {
			t.Errorf("Done asked for first %v: Err = %v, want context.Canceled", doneFirst, err)
		}
		cancel() // a second end changes nothing
		if err := ctx.Err(); !errors.Is(err, context.Canceled) {
			t.Errorf("Err after a second cancel = %v, want context.Canceled", err)
		}
	}
}

// A context that has passed its deadline reports it from Err even before
// anyone asked for Done, and Done is then closed at once.
func TestNotifyContextErrWithoutDone(t *testing.T) {
	ctx, cancel := newNotifyContext(context.Background(), time.Millisecond)
	defer cancel()
	time.Sleep(5 * time.Millisecond)
	if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Err = %v, want context.DeadlineExceeded", err)
	}
	select {
	case <-ctx.Done():
	default:
		t.Error("Done was not closed for a context past its deadline")
	}
	cancel()
	if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Err after cancel = %v, want context.DeadlineExceeded to stay", err)
	}
}
