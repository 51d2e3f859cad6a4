package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"time"

	"github.com/redis/go-redis/v9"
)

// DuplicateTolerance is how far apart (relative) the card-hours of a chat
// entry and a bill line may be for them to count as the same spend.
const DuplicateTolerance = 0.10

// Match pairs a hand-added estimate with the bill line that probably
// records the same spend.
type Match struct {
	Chat Entry `json:"chat"`
	Bill Entry `json:"bill"`
}

// probableDuplicates finds, for each billed line, the hand-added entries of
// the team on the same day (in the ledger's zone) with the same project and
// card whose card-hours are within DuplicateTolerance of the line's. Each
// chat entry is matched to one line at most.
func (l *Ledger) probableDuplicates(ctx context.Context, team string, billed []Entry) ([]Match, error) {
	if len(billed) == 0 {
		return nil, nil
	}
	from, to := billed[0].At, billed[0].At
	for _, b := range billed {
		if b.At.Before(from) {
			from = b.At
		}
		if b.At.After(to) {
			to = b.At
		}
	}
	from, to = l.day(from), l.day(to).AddDate(0, 0, 1)
	es, err := l.Between(ctx, team, from, to)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	var out []Match
	for _, b := range billed {
		for _, c := range es {
			if used[c.ID] || c.Source != SourceSlack || c.SupersededBy != "" || c.IsRefund() ||
				c.Project != b.Project || c.GPU != b.GPU || !l.day(c.At).Equal(l.day(b.At)) {
				continue
			}
			if bh := b.CardHours(); bh <= 0 || math.Abs(c.CardHours()-bh) > DuplicateTolerance*bh {
				continue
			}
			used[c.ID] = true
			out = append(out, Match{Chat: c, Bill: b})
			break
		}
	}
	return out, nil
}

func (l *Ledger) day(t time.Time) time.Time {
	t = t.In(l.loc)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, l.loc)
}

// Supersede confirms that hand-added entry chatID and bill line billID are
// the same spend: the chat entry stays in the ledger, marked as superseded
// by the bill, and leaves every total, so the spend is counted once, at
// the billed figure. It returns the updated chat entry.
func (l *Ledger) Supersede(ctx context.Context, team, chatID, billID string) (Entry, error) {
	if err := checkTeam(team); err != nil {
		return Entry{}, err
	}
	chatID, ok1 := NormalizeID(chatID)
	billID, ok2 := NormalizeID(billID)
	if !ok1 || !ok2 {
		return Entry{}, ErrNotFound
	}
	k := keysFor(team)
	var out Entry
	err := l.watch(ctx, func(tx *redis.Tx) error {
		raws, err := tx.HMGet(ctx, k.entries, chatID, billID).Result()
		if err != nil {
			return err
		}
		cs, ok1 := raws[0].(string)
		_, ok2 := raws[1].(string)
		if !ok1 || !ok2 {
			return ErrNotFound
		}
		c, err := decode(cs)
		if err != nil {
			return err
		}
		if c.Source != SourceSlack {
			return inputErr("id", "#%s is a bill line, not a chat entry", chatID)
		}
		c.SupersededBy = billID
		raw, err := json.Marshal(c)
		if err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.HSet(ctx, k.entries, c.ID, raw)
			return nil
		})
		out = c
		return err
	}, k.entries)
	var in *InputError
	if errors.Is(err, ErrNotFound) || errors.As(err, &in) {
		return Entry{}, err
	}
	if err != nil {
		if errors.Is(err, ErrNotSaved) {
			return Entry{}, err
		}
		return Entry{}, notSaved(err) // a flag only: retrying it is harmless
	}
	if err := l.st.Persist(ctx); err != nil {
		return Entry{}, notSaved(err)
	}
	out.At = out.At.In(l.loc)
	return out, nil
}
