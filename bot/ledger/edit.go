package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// EditFields lists what Edit may change, as users write it
// (spend edit #abc amount=1800 platform=火山引擎).
var EditFields = []string{"amount", "platform", "project", "team", "gpu", "cards", "hours", "date", "billing", "note"}

// editMark prefixes an edit's place on the user's undo list: Undo walks
// one list, so "undo" after an edit restores the entry as it was.
const editMark = "edit:"

// editScript replaces one entry in place under a request key, atomically:
// a known key returns the version it saved and changes nothing; an entry
// that changed since it was read (another edit) is not overwritten.
// KEYS: entries, times, edits, the editor's undo list. ARGV: key, id,
// expected current JSON, new JSON, score, undo depth, undo marker.
var editScript = redis.NewScript(`
local have = redis.call('HGET', KEYS[3], ARGV[1])
if have then return {1, have} end
local cur = redis.call('HGET', KEYS[1], ARGV[2])
if not cur then return {2, ''} end
if cur ~= ARGV[3] then return {3, ''} end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], cjson.encode({id = ARGV[2], before = ARGV[3], after = ARGV[4]}))
redis.call('RPUSH', KEYS[4], ARGV[7])
redis.call('LTRIM', KEYS[4], -tonumber(ARGV[6]), -1)
return {0, ARGV[4]}
`)

// editRecord is what the edits hash keeps per request key: the entry
// before and after, so a replay answers the same and Undo can restore.
type editRecord struct {
	ID     string `json:"id"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// Edit changes fields of entry id (see EditFields; values as the importer
// reads them: amount=¥1800, hours=40h, date=2026-11-03, billing=包月) and
// keeps its id. The changed entry is checked as a new one would be
// (card, range, price sanity unless confirm). Users may edit their own
// entries, admins any. key is the request's idempotency key: a replay
// returns the same result and changes nothing more. It returns the entry
// before and after; "spend undo" restores the before.
func (l *Ledger) Edit(ctx context.Context, team, id, user string, isAdmin bool, key string, fields map[string]string, confirm bool) (before, after Entry, err error) {
	if err := checkTeam(team); err != nil {
		return Entry{}, Entry{}, err
	}
	id, ok := NormalizeID(id)
	if !ok {
		return Entry{}, Entry{}, ErrNotFound
	}
	if len(fields) == 0 {
		return Entry{}, Entry{}, inputErr("edit", "nothing to change; give field=value (%s)", strings.Join(EditFields, ", "))
	}
	if key == "" {
		key = "r:" + newID() + newID()
	}
	k := keysFor(team)
	edits := k.prefix + "x"
	for range maxTxRetries {
		if raw, err := l.rdb.HGet(ctx, edits, key).Result(); err == nil {
			return l.replayedEdit(raw)
		} else if !errors.Is(err, redis.Nil) {
			return Entry{}, Entry{}, notSaved(err)
		}
		raw, err := l.rdb.HGet(ctx, k.entries, id).Result()
		if errors.Is(err, redis.Nil) {
			return Entry{}, Entry{}, ErrNotFound
		}
		if err != nil {
			return Entry{}, Entry{}, notSaved(err)
		}
		cur, err := decode(raw)
		if err != nil {
			return Entry{}, Entry{}, err
		}
		if cur.User != user && !isAdmin {
			return Entry{}, Entry{}, ErrForbidden
		}
		next, err := l.applyEdit(ctx, cur, fields, confirm)
		if err != nil {
			return Entry{}, Entry{}, err
		}
		nraw, err := json.Marshal(next)
		if err != nil {
			return Entry{}, Entry{}, err
		}
		res, err := editScript.Run(ctx, l.rdb, []string{k.entries, k.times, edits, k.user(user)},
			key, id, raw, nraw, score(next), undoDepth, editMark+key).Slice()
		if err != nil {
			if notSent(err) {
				return Entry{}, Entry{}, notSaved(err)
			}
			return Entry{}, Entry{}, &UnconfirmedError{Team: team, Key: key, Err: err}
		}
		status, _ := res[0].(int64)
		switch status {
		case 1:
			v, _ := res[1].(string)
			return l.replayedEdit(v)
		case 2:
			return Entry{}, Entry{}, ErrNotFound
		case 3:
			continue // edited by someone else between the read and the write: read again
		}
		if err := l.st.Persist(ctx); err != nil {
			return Entry{}, Entry{}, notSaved(err)
		}
		cur.At, next.At = cur.At.In(l.loc), next.At.In(l.loc)
		return cur, next, nil
	}
	return Entry{}, Entry{}, notSaved(errors.New("too much contention on the ledger"))
}

func (l *Ledger) replayedEdit(raw string) (Entry, Entry, error) {
	var rec editRecord
	if err := json.Unmarshal([]byte(raw), &rec); err != nil {
		return Entry{}, Entry{}, fmt.Errorf("decode edit record: %w", err)
	}
	b, err := decode(rec.Before)
	if err != nil {
		return Entry{}, Entry{}, err
	}
	a, err := decode(rec.After)
	if err != nil {
		return Entry{}, Entry{}, err
	}
	b.At, a.At = b.At.In(l.loc), a.At.In(l.loc)
	a.Replayed = true
	return b, a, nil
}

// applyEdit returns cur with fields changed and checked again.
func (l *Ledger) applyEdit(ctx context.Context, cur Entry, fields map[string]string, confirm bool) (Entry, error) {
	e := cur
	names := make([]string, 0, len(fields))
	for f := range fields {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		v := strings.TrimSpace(fields[f])
		switch f {
		case "amount":
			def := e.Amount.Currency
			if def == "" {
				def = l.cur
			}
			m, err := ParseAmount(billDecimalComma(v), def)
			if err != nil {
				return e, inputErr("amount", "%s", err.Error())
			}
			if e.IsRefund() {
				m.Minor = -abs64(m.Minor)
			}
			e.Amount, e.Derived = m, ""
		case "platform":
			e.Platform = v
		case "project":
			e.Project = v
		case "team":
			e.CostCenter = v
		case "gpu":
			e.GPU = v
		case "cards":
			n, err := parseCards(v)
			if err != nil {
				return e, inputErr("cards", "%q: %s", v, err.Error())
			}
			e.Cards = n
		case "hours":
			h, err := parseHours(v, false)
			if err != nil {
				return e, inputErr("hours", "%q: %s", v, err.Error())
			}
			e.Hours, e.HoursUnknown = h, false
		case "date":
			t, err := parseWhen(v, l.loc)
			if err != nil {
				return e, inputErr("date", "%q: %s", v, err.Error())
			}
			e.At, e.Start, e.End = t, time.Time{}, time.Time{}
		case "billing":
			b, ok := ParseBilling(v)
			if !ok {
				return e, inputErr("billing", "%q is not on_demand/按量, monthly/包月 or spot/竞价", v)
			}
			e.Billing = b
		case "note":
			e.Note = v
		default:
			return e, inputErr(f, "cannot be edited; edit one of %s", strings.Join(EditFields, ", "))
		}
	}
	keep := cur
	e.Confirm = confirm
	if e.IsRefund() {
		e.Amount.Minor = abs64(e.Amount.Minor) // prepareRefund stores it negative again
	}
	p, err := l.prepare(ctx, e)
	if err != nil {
		return p, err
	}
	// What identifies and dates the entry's history stays.
	p.ID, p.CreatedAt, p.Source, p.ImportKey, p.Line, p.Key, p.User, p.Channel = keep.ID, keep.CreatedAt, keep.Source, keep.ImportKey, keep.Line, keep.Key, keep.User, keep.Channel
	p.SupersededBy = keep.SupersededBy
	return p, nil
}

// revertEdit restores the entry an edit changed, under the undo's request
// key. KEYS: entries, times, the user's undo list, removals, edits. ARGV:
// key, marker, edit key.
var revertScript = redis.NewScript(`
local have = redis.call('HGET', KEYS[4], ARGV[1])
if have then return {1, have} end
local rec = redis.call('HGET', KEYS[5], ARGV[3])
if not rec then
  redis.call('LREM', KEYS[3], 0, ARGV[2])
  return {2, ''}
end
local r = cjson.decode(rec)
local cur = redis.call('HGET', KEYS[1], r.id)
if not cur then
  redis.call('LREM', KEYS[3], 0, ARGV[2])
  return {2, ''}
end
redis.call('HSET', KEYS[1], r.id, r.before)
redis.call('LREM', KEYS[3], 0, ARGV[2])
redis.call('HSET', KEYS[4], ARGV[1], r.before)
return {0, r.before}
`)

// revertEdit undoes the edit behind marker; ok is false when the entry or
// the record is gone (the marker is dropped and Undo looks further back).
func (l *Ledger) revertEdit(ctx context.Context, team string, k keys, user, marker, key string) (Entry, bool, error) {
	res, err := revertScript.Run(ctx, l.rdb, []string{k.entries, k.times, k.user(user), k.removals, k.prefix + "x"},
		key, marker, strings.TrimPrefix(marker, editMark)).Slice()
	if err != nil {
		if notSent(err) {
			return Entry{}, false, notSaved(err)
		}
		return Entry{}, false, &UnconfirmedError{Team: team, Key: key, Remove: true, Err: err}
	}
	status, _ := res[0].(int64)
	raw, _ := res[1].(string)
	if status == 2 {
		return Entry{}, false, nil
	}
	e, err := decode(raw)
	if err != nil {
		return Entry{}, false, err
	}
	// The restored version may be dated differently from the edited one.
	if err := l.rdb.ZAdd(ctx, k.times, redis.Z{Score: score(e), Member: e.ID}).Err(); err != nil {
		return Entry{}, false, notSaved(err)
	}
	if err := l.st.Persist(ctx); err != nil {
		return Entry{}, false, notSaved(err)
	}
	e.At, e.Restored, e.Replayed = e.At.In(l.loc), true, status == 1
	return e, true, nil
}
