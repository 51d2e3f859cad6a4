package ledger

import (
	"context"
	"errors"
	"testing"
)

// One request (one Slack message) books one entry however often it is
// delivered: the second Add returns the first entry, marked Replayed.
func TestAddIsIdempotent(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	e := Entry{Team: tm, User: "U1", GPU: "4090", Hours: 40, Amount: cny(7500), Key: "msg:C1:1733.0001"}
	first := mustAdd(t, l, e)
	again, err := l.Add(ctx, e)
	if err != nil || !again.Replayed || again.ID != first.ID {
		t.Fatalf("second Add of one message = %+v, %v; want entry %s replayed", again, err, first.ID)
	}
	if first.Replayed {
		t.Error("the first Add says Replayed")
	}
	other := e
	other.Key = "msg:C1:1733.0002" // another message with the same words is another entry
	if o := mustAdd(t, l, other); o.ID == first.ID {
		t.Error("a different message reused the id")
	}
	if all, _ := l.List(ctx, tm, Month{}, ""); len(all) != 2 {
		t.Errorf("%d entries, want 2", len(all))
	}
}

// The stalled-write race, deterministically: Settle runs before the stalled
// write reaches Redis and voids its key, so the late write books nothing
// and the user, told "not saved", retries without creating a double.
func TestSettleBeforeLateWriteLeavesNoPhantom(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	e := Entry{Team: tm, User: "U1", GPU: "h100", Cards: 8, Hours: 24, Amount: cny(240000), Key: "msg:C1:9.0001"}
	if _, err := l.Settle(ctx, tm, e.Key); !errors.Is(err, ErrNotSaved) {
		t.Fatalf("Settle of a write that never arrived = %v, want ErrNotSaved", err)
	}
	if _, err := l.Add(ctx, e); !errors.Is(err, ErrNotSaved) { // the stalled write lands now
		t.Fatalf("late write after Settle = %v, want ErrNotSaved", err)
	}
	retry := e
	retry.Key = "msg:C1:9.0002"
	mustAdd(t, l, retry)
	if all, _ := l.List(ctx, tm, Month{}, ""); len(all) != 1 {
		t.Errorf("%d entries, want 1 (the retry)", len(all))
	}
}

// Settle after a write that did land reports it saved, with its id.
func TestSettleFindsLandedWrite(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	saved := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: cny(188), Key: "k1"})
	got, err := l.Settle(ctx, tm, "k1")
	if err != nil || got.ID != saved.ID {
		t.Errorf("Settle = %s, %v; want %s", got.ID, err, saved.ID)
	}
}

// A deleted entry stays deleted when its message is delivered again.
func TestReplayAfterDeleteDoesNotResurrect(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	e := Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: cny(188), Key: "k1"}
	saved := mustAdd(t, l, e)
	if _, err := l.Delete(ctx, tm, saved.ID, "U1", false); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Add(ctx, e); err == nil {
		if all, _ := l.List(ctx, tm, Month{}, ""); len(all) != 0 {
			t.Errorf("replay after delete brought back %d entries", len(all))
		}
	}
}
