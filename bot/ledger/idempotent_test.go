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

// A redelivered undo (same request key) returns what the first removed and
// removes nothing more; before, it removed the user's next entry too.
func TestUndoOnceIsIdempotent(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	older := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 10, Amount: cny(1880), Key: "msg:C1:1"})
	newer := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 20, Amount: cny(3760), Key: "msg:C1:2"})
	first, err := l.UndoOnce(ctx, tm, "U1", "msg:C1:3")
	if err != nil || first.ID != newer.ID || first.Replayed {
		t.Fatalf("undo = %+v, %v; want %s removed", first, err, newer.ID)
	}
	again, err := l.UndoOnce(ctx, tm, "U1", "msg:C1:3")
	if err != nil || again.ID != newer.ID || !again.Replayed || again.Amount != cny(3760) {
		t.Fatalf("redelivered undo = %+v, %v; want %s again, replayed", again, err, newer.ID)
	}
	if all, _ := l.List(ctx, tm, Month{}, ""); len(all) != 1 || all[0].ID != older.ID {
		t.Errorf("after one undo delivered twice the ledger holds %v, want only %s", ids(all), older.ID)
	}
}

// A redelivered delete answers with the entry it deleted instead of "no
// such entry".
func TestDeleteOnceIsIdempotent(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	e := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 10, Amount: cny(1880), Key: "msg:C1:1"})
	if _, err := l.DeleteOnce(ctx, tm, e.ID, "U1", false, "cmd:T:trig1"); err != nil {
		t.Fatal(err)
	}
	again, err := l.DeleteOnce(ctx, tm, e.ID, "U1", false, "cmd:T:trig1")
	if err != nil || !again.Replayed || again.ID != e.ID {
		t.Errorf("redelivered delete = %+v, %v; want %s, replayed", again, err, e.ID)
	}
	if _, err := l.DeleteOnce(ctx, tm, e.ID, "U1", false, "cmd:T:trig2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a new delete of a deleted entry = %v, want ErrNotFound", err)
	}
}

// The stalled-removal race, deterministically: SettleRemove runs before a
// stalled delete reaches Redis, voids its key, and the late delete removes
// nothing, so "not removed" stays true.
func TestSettleRemoveBeforeLateDelete(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	e := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 10, Amount: cny(1880), Key: "msg:C1:1"})
	if _, err := l.SettleRemove(ctx, tm, "msg:C1:9"); !errors.Is(err, ErrNotSaved) {
		t.Fatalf("SettleRemove of a removal that never arrived = %v, want ErrNotSaved", err)
	}
	if _, err := l.DeleteOnce(ctx, tm, e.ID, "U1", false, "msg:C1:9"); !errors.Is(err, ErrNotSaved) {
		t.Fatalf("late delete after SettleRemove = %v, want ErrNotSaved", err)
	}
	if _, err := l.UndoOnce(ctx, tm, "U1", "msg:C1:9"); !errors.Is(err, ErrNotSaved) {
		t.Fatalf("late undo under the voided key = %v, want ErrNotSaved", err)
	}
	if all, _ := l.List(ctx, tm, Month{}, ""); len(all) != 1 {
		t.Errorf("%d entries, want the 1 nobody removed", len(all))
	}
	// A removal that did land settles to the entry it removed.
	if _, err := l.DeleteOnce(ctx, tm, e.ID, "U1", false, "msg:C1:10"); err != nil {
		t.Fatal(err)
	}
	if got, err := l.SettleRemove(ctx, tm, "msg:C1:10"); err != nil || got.ID != e.ID || got.Amount != cny(1880) {
		t.Errorf("SettleRemove after a landed delete = %+v, %v; want %s", got, err, e.ID)
	}
}
