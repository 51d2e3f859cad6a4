package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/redis/go-redis/v9"
)

// DuplicateTolerance is how far apart (relative) the card-hours of a chat
// entry and a bill line may be for them to count as the same spend.
const DuplicateTolerance = 0.10

// ConfirmTolerance is how far apart (relative) the amounts of a hand-added
// estimate and a bill line may be for the line to confirm the estimate.
const ConfirmTolerance = 0.10

// Match pairs a hand-added estimate with the bill line that probably
// records the same spend.
type Match struct {
	Chat Entry `json:"chat"`
	Bill Entry `json:"bill"`
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

// reconcileEstimates compares a bill's GPU lines with the team's hand-added
// estimates of the same months:
//
//   - confirmed: same card and platform (named on both), same period (the
//     day; the month for a 包月 plan), the same project or either
//     unassigned, and the amounts within ConfirmTolerance (card-hours when
//     the estimate has no amount). The estimate is superseded by the line
//     at once, so the spend counts once, at the billed figure.
//   - probable: the older, looser match (project, card and day, card-hours
//     within DuplicateTolerance) that lacks a platform or amount to be
//     sure: listed for a person to confirm.
//   - unmatched: estimates in the bill's months on the bill's platforms
//     that no line confirmed: spend the bill does not show, or a line
//     booked with other figures.
//
// Each estimate is matched to one line at most.
//
// billed is the bill's added and changed lines; lines point into it rather
// than copy it (#28 item 9: a 50,000-row bill).
func (l *Ledger) reconcileEstimates(ctx context.Context, team string, billed ...[]Entry) (confirmed, probable []Match, unmatched []Entry, err error) {
	var lines []*Entry
	for _, part := range billed {
		for i := range part {
			if b := &part[i]; b.IsGPU() && b.SupersededBy == "" {
				lines = append(lines, b)
			}
		}
	}
	if len(lines) == 0 {
		return nil, nil, nil, nil
	}
	from, to := lines[0].At, lines[0].At
	platforms := map[string]bool{}
	for _, b := range lines {
		if b.At.Before(from) {
			from = b.At
		}
		if b.At.After(to) {
			to = b.At
		}
		platforms[b.Platform] = true
	}
	from, to = MonthOf(from, l.loc).Start(l.loc), MonthOf(to, l.loc).End(l.loc)
	es, err := l.Between(ctx, team, from, to)
	if err != nil {
		return nil, nil, nil, err
	}
	var estimates []Entry
	for _, c := range es {
		if c.Source == SourceSlack && c.SupersededBy == "" && c.IsGPU() {
			estimates = append(estimates, c)
		}
	}
	used := map[string]bool{}
	for _, b := range lines {
		for _, c := range estimates {
			if !used[c.ID] && l.confirms(*b, c) {
				used[c.ID] = true
				confirmed = append(confirmed, Match{Chat: c, Bill: *b})
				break
			}
		}
	}
	for _, b := range lines {
		for _, c := range estimates {
			if used[c.ID] || c.Project != b.Project || c.GPU != b.GPU || !l.day(c.At).Equal(l.day(b.At)) {
				continue
			}
			if bh := b.CardHours(); bh <= 0 || math.Abs(c.CardHours()-bh) > DuplicateTolerance*bh {
				continue
			}
			used[c.ID] = true
			probable = append(probable, Match{Chat: c, Bill: *b})
			break
		}
	}
	for _, c := range estimates {
		if !used[c.ID] && platforms[c.Platform] && c.Platform != "" {
			unmatched = append(unmatched, c)
		}
	}
	for i, m := range confirmed {
		c, err := l.Supersede(ctx, team, m.Chat.ID, m.Bill.ID)
		if err != nil {
			return confirmed[:i], probable, unmatched, err
		}
		confirmed[i].Chat = c
	}
	return confirmed, probable, unmatched, nil
}

// confirms reports whether bill line b records the estimate c (see
// reconcileEstimates).
func (l *Ledger) confirms(b, c Entry) bool {
	if c.GPU != b.GPU || c.Platform == "" || c.Platform != b.Platform {
		return false
	}
	if c.Project != b.Project && c.Project != Unassigned && b.Project != Unassigned {
		return false
	}
	if c.CostCenter != "" && b.CostCenter != "" && c.CostCenter != b.CostCenter {
		return false
	}
	samePeriod := l.day(c.At).Equal(l.day(b.At))
	if c.Billing == Monthly || b.Billing == Monthly {
		samePeriod = c.Billing == b.Billing && MonthOf(c.At, l.loc) == MonthOf(b.At, l.loc)
	}
	if !samePeriod {
		return false
	}
	if c.Priced() && b.Priced() {
		if c.Amount.Currency != b.Amount.Currency {
			return false
		}
		ba := math.Abs(float64(b.Amount.Minor))
		return ba > 0 && math.Abs(float64(c.Amount.Minor-b.Amount.Minor)) <= ConfirmTolerance*ba
	}
	bh := b.CardHours()
	return bh > 0 && math.Abs(c.CardHours()-bh) <= DuplicateTolerance*bh
}

// RepeatWindow is how recently an identical hand entry must have been
// added for a new one to be taken as the same message sent twice.
const RepeatWindow = 24 * time.Hour

// Repeat finds a hand-added entry of the team that e would repeat: added
// within RepeatWindow of now, for the same day, with the same card, cards,
// hours, amount, platform, project, team and kind. ok is false when there
// is none, or e is not valid (Add then says why). A redelivery of one
// request (its idempotency key already booked) is no repeat: Add replays it.
func (l *Ledger) Repeat(ctx context.Context, e Entry) (prev Entry, ok bool, err error) {
	if e.Source == "" {
		e.Source = SourceSlack
	}
	e.Confirm = true // the price check is Add's to make
	p, perr := l.prepare(ctx, e)
	if perr != nil {
		return Entry{}, false, nil
	}
	if e.Key != "" {
		known, err := l.rdb.HExists(ctx, keysFor(p.Team).keys, e.Key).Result()
		if err != nil {
			return Entry{}, false, fmt.Errorf("look up request key: %w", err)
		}
		if known {
			return Entry{}, false, nil
		}
	}
	day := l.day(p.At)
	es, err := l.Between(ctx, p.Team, day, day.AddDate(0, 0, 1))
	if err != nil {
		return Entry{}, false, err
	}
	now := l.now()
	for i := len(es) - 1; i >= 0; i-- {
		c := es[i]
		if c.Source != SourceSlack || c.SupersededBy != "" || now.Sub(c.CreatedAt) > RepeatWindow {
			continue
		}
		if c.Kind == p.Kind && c.GPU == p.GPU && c.Cards == p.Cards && c.Hours == p.Hours && c.Amount == p.Amount &&
			c.Platform == p.Platform && c.Project == p.Project && c.CostCenter == p.CostCenter && c.Billing == p.Billing {
			return c, true, nil
		}
	}
	return Entry{}, false, nil
}
