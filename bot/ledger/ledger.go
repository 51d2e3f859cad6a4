// Package ledger is the team spend ledger: what each workspace actually spent
// on GPUs, by project, card, platform and billing mode. It stores entries in
// Redis, answers month and 30-day queries in the bot's time zone, rolls them
// up for reports and the monthly recap, imports bills as CSV, and decides who
// may delete, import and subscribe.
//
// # Redis layout
//
// Every key of a team carries the team id as a hash tag, so one team's keys
// live in one Redis Cluster slot and a MULTI/EXEC may touch all of them:
//
//	gpubot:ledger:{T}:e         hash  id → entry JSON (the record)
//	gpubot:ledger:{T}:t         zset  id scored by Entry.At in Unix milliseconds (month and window queries)
//	gpubot:ledger:{T}:u:<user>  list  ids the user added by hand, oldest first, last 100 (Undo)
//	gpubot:ledger:{T}:i         hash  CSV import key → id (re-import de-duplication)
//
// A write is one MULTI/EXEC over these keys (an import also WATCHes the
// entry and import hashes, so concurrent imports of one bill cannot both
// add it), followed by store.Persist (the embedded mode's snapshot). Only
// when both succeed is the entry confirmed; otherwise the change is rolled
// back where possible and the error wraps ErrNotSaved. Ids are random;
// HSETNX and ZADD NX make a colliding id a retry, never an overwrite.
// Entries are never modified in place, only added and removed. Import keys
// outlive a Delete, so re-importing a bill does not bring back a row someone
// removed on purpose.
//
// No key is written without a team, and no read crosses teams.
package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// undoDepth is how many of a user's hand-added entries Undo can walk back.
const undoDepth = 100

// maxTxRetries bounds optimistic-lock retries when an import races other
// writers of its team.
const maxTxRetries = 50

// maxIDTries bounds fresh ids drawn for one Add; with 2³⁰ ids a second draw
// is already rare.
const maxIDTries = 5

// Shanghai is Asia/Shanghai's offset, the default BOT_TIMEZONE; China has
// kept UTC+8 without daylight saving since 1991, so a fixed zone is exact
// and needs no tzdata.
var Shanghai = time.FixedZone("Asia/Shanghai", 8*3600)

// PriceQuery asks the catalogue what one card-hour cost.
type PriceQuery struct {
	Platform string // canonical platform id or the free text the user gave
	GPU      string // canonical card id
	Billing  Billing
	At       time.Time // when the spend happened: use the price observed then
}

// Price is the catalogue's price of one card for one hour.
type Price struct {
	PerCardHour float64
	Currency    knowledge.Currency
	Source      string // shown in Entry.Derived, e.g. "autodl rtx4090 on_demand, 2026-09-15"
}

// PriceFunc looks a price up; ok is false when the catalogue has none. It
// keeps the ledger independent of the catalogue package.
type PriceFunc func(ctx context.Context, q PriceQuery) (p Price, ok bool)

// Options configure a Ledger. The zero value works: no alias resolution, no
// derived amounts, Asia/Shanghai, CNY, the wall clock.
type Options struct {
	KB              *knowledge.Base    // resolves card and platform aliases; nil keeps names as typed (lower case)
	Location        *time.Location     // BOT_TIMEZONE; nil is Shanghai
	Price           PriceFunc          // derives an amount when none is given; nil never derives
	DefaultCurrency knowledge.Currency // for bare numbers; "" is CNY
	Now             func() time.Time   // nil is time.Now
}

// Ledger is the team spend ledger over a Store. It holds no state of its
// own and is safe for concurrent use by any number of handlers and replicas.
type Ledger struct {
	st    *store.Store
	rdb   redis.UniversalClient
	kb    *knowledge.Base
	loc   *time.Location
	price PriceFunc
	cur   knowledge.Currency
	now   func() time.Time
}

// New returns a Ledger writing to st.
func New(st *store.Store, opt Options) *Ledger {
	l := &Ledger{st: st, rdb: st.Redis, kb: opt.KB, loc: opt.Location, price: opt.Price, cur: opt.DefaultCurrency, now: opt.Now}
	if l.loc == nil {
		l.loc = Shanghai
	}
	if l.cur == "" {
		l.cur = knowledge.CNY
	}
	if l.now == nil {
		l.now = time.Now
	}
	l.rdb = st.Client() // one server or a Redis Cluster: a team's keys share the {team} tag
	return l
}

// Location is the time zone months are read in.
func (l *Ledger) Location() *time.Location { return l.loc }

type keys struct{ entries, times, imports, prefix string }

func keysFor(team string) keys {
	p := "gpubot:ledger:{" + team + "}:"
	return keys{entries: p + "e", times: p + "t", imports: p + "i", prefix: p}
}

func (k keys) user(u string) string { return k.prefix + "u:" + u }

func checkTeam(team string) error {
	if strings.TrimSpace(team) == "" || strings.ContainsAny(team, "{} \t\n") {
		return inputErr("team", "missing or malformed workspace id %q", team)
	}
	return nil
}

// Add validates e, fills what it can (canonical card and platform, project,
// card count 1, the amount from the catalogue price at e.At, the id and
// CreatedAt) and stores it. The returned entry is confirmed: stored and, in
// embedded mode, on disk. Input problems are *InputError; a storage failure
// wraps ErrNotSaved and nothing was kept.
func (l *Ledger) Add(ctx context.Context, e Entry) (Entry, error) {
	e.ID, e.ImportKey = "", ""
	if e.Source == "" {
		e.Source = SourceSlack
	}
	e, err := l.prepare(ctx, e)
	if err != nil {
		return Entry{}, err
	}
	k := keysFor(e.Team)
	for range maxIDTries {
		e.ID = newID()
		ok, err := l.addOnce(ctx, k, e)
		if err != nil {
			return Entry{}, notSaved(err)
		}
		if !ok {
			continue // the id was taken: draw another
		}
		if err := l.st.Persist(ctx); err != nil {
			l.rollback(ctx, k, []Entry{e}, nil)
			return Entry{}, notSaved(err)
		}
		return e, nil
	}
	return Entry{}, notSaved(errors.New("no free entry id"))
}

// addOnce writes e in one MULTI/EXEC. HSETNX and ZADD NX leave an existing
// entry with the same id untouched; ok is false then, and the undo-list push
// is taken back.
func (l *Ledger) addOnce(ctx context.Context, k keys, e Entry) (ok bool, err error) {
	raw, err := json.Marshal(e)
	if err != nil {
		return false, err
	}
	var set *redis.BoolCmd
	_, err = l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		set = p.HSetNX(ctx, k.entries, e.ID, raw)
		p.ZAddNX(ctx, k.times, redis.Z{Score: score(e), Member: e.ID})
		if e.Source == SourceSlack {
			p.RPush(ctx, k.user(e.User), e.ID)
			p.LTrim(ctx, k.user(e.User), -undoDepth, -1)
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	if !set.Val() {
		if e.Source == SourceSlack {
			l.rdb.LRem(ctx, k.user(e.User), -1, e.ID)
		}
		return false, nil
	}
	return true, nil
}

func score(e Entry) float64 { return float64(e.At.UnixMilli()) }

// prepare validates and normalises an entry before it is stored.
func (l *Ledger) prepare(ctx context.Context, e Entry) (Entry, error) {
	if err := checkTeam(e.Team); err != nil {
		return e, err
	}
	e.User = strings.TrimSpace(e.User)
	if e.User == "" {
		return e, inputErr("user", "missing")
	}
	gpu, err := l.gpu(e.GPU)
	if err != nil {
		return e, err
	}
	e.GPU = gpu
	e.Platform = l.platform(e.Platform)
	e.Project = normProject(e.Project)
	e.Note = truncate(strings.TrimSpace(e.Note), maxNote)
	switch {
	case e.Cards == 0:
		e.Cards = 1
	case e.Cards < 0 || e.Cards > maxCards:
		return e, inputErr("cards", "%d cards is out of range (1–%d)", e.Cards, maxCards)
	}
	if !e.Start.IsZero() && !e.End.IsZero() {
		if !e.End.After(e.Start) {
			return e, inputErr("end", "ends before it starts")
		}
		if e.Hours == 0 {
			e.Hours = e.End.Sub(e.Start).Hours()
		}
	}
	if e.Hours == 0 {
		return e, inputErr("hours", "missing: say how long the cards ran (40h), or give start and end")
	}
	if e.Hours < 0 || e.Hours > maxHours || e.Hours != e.Hours {
		return e, inputErr("hours", "%s h is out of range (more than 0, at most %d)", fmtNum(e.Hours), maxHours)
	}
	if e.Billing == "" {
		e.Billing = OnDemand
	}
	if b, ok := ParseBilling(string(e.Billing)); ok {
		e.Billing = b
	} else {
		return e, inputErr("billing", "%q is not on_demand, monthly or spot", e.Billing)
	}
	now := l.now().Round(0) // no monotonic reading: entries compare equal after a round trip
	e.CreatedAt = now
	if e.At.IsZero() {
		e.At = e.Start
	}
	if e.At.IsZero() {
		e.At = now
	}
	e.At = e.At.In(l.loc)
	switch c := e.Amount.Currency; {
	case c != "" && !isCurrencyCode(c):
		return e, inputErr("currency", "%q is not a currency code like CNY or USD", c)
	case e.Amount.Minor < 0:
		return e, inputErr("amount", "%s is negative", e.Amount)
	case e.Amount.IsZero() && e.Amount.Minor != 0:
		e.Amount.Currency = l.cur
	case e.Amount.IsZero() && l.price != nil:
		if p, ok := l.price(ctx, PriceQuery{Platform: e.Platform, GPU: e.GPU, Billing: e.Billing, At: e.At}); ok && p.PerCardHour > 0 && p.Currency != "" {
			e.Amount = MoneyFromFloat(p.PerCardHour*e.CardHours(), p.Currency)
			e.Derived = fmt.Sprintf("%s card-h × %s %s (%s)", fmtNum(e.CardHours()), strconv.FormatFloat(p.PerCardHour, 'f', -1, 64), p.Currency, p.Source)
		}
	}
	return e, nil
}

func isCurrencyCode(c knowledge.Currency) bool {
	return len(c) == 3 && strings.Trim(string(c), "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}

func (l *Ledger) gpu(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", inputErr("gpu", "missing: name the card (4090, a100, h100 …)")
	}
	if l.kb == nil {
		return strings.ToLower(name), nil
	}
	if g, ok := l.kb.GPU(name); ok {
		return g.ID, nil
	}
	return "", inputErr("gpu", "unknown card %q", name)
}

func (l *Ledger) platform(name string) string {
	name = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "@"))
	if name == "" {
		return ""
	}
	if l.kb != nil {
		if p, ok := l.kb.Platform(name); ok {
			return p.ID
		}
	}
	return truncate(strings.ToLower(strings.Join(strings.Fields(name), " ")), maxName)
}

// insert stores imported entries of one team in a single transaction,
// skipping those whose ImportKey is already known, and persists. It returns
// the stored entries (ids set) and how many were duplicates. It watches the
// entries and import hashes, so a concurrent import of the same rows, or an
// id taken meanwhile, makes it start over.
func (l *Ledger) insert(ctx context.Context, team string, es []Entry) ([]Entry, int, error) {
	k := keysFor(team)
	var added []Entry
	var dups int
	txf := func(tx *redis.Tx) error {
		added, dups = added[:0], 0
		seen, err := knownImports(ctx, tx, k, es)
		if err != nil {
			return err
		}
		for _, e := range es {
			if seen[e.ImportKey] {
				dups++
				continue
			}
			seen[e.ImportKey] = true // the same key twice in one batch
			added = append(added, e)
		}
		if len(added) == 0 {
			return nil
		}
		if err := assignIDs(ctx, tx, k, added); err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			for _, e := range added {
				raw, err := json.Marshal(e)
				if err != nil {
					return err
				}
				p.HSet(ctx, k.entries, e.ID, raw)
				p.ZAdd(ctx, k.times, redis.Z{Score: score(e), Member: e.ID})
				p.HSet(ctx, k.imports, e.ImportKey, e.ID)
			}
			return nil
		})
		return err
	}
	if err := l.watch(ctx, txf, k.entries, k.imports); err != nil {
		return nil, 0, err
	}
	if len(added) == 0 {
		return nil, dups, nil
	}
	if err := l.st.Persist(ctx); err != nil {
		l.rollback(ctx, k, added, nil)
		return nil, 0, notSaved(err)
	}
	return added, dups, nil
}

// knownImports reports which of the batch's import keys are already stored.
func knownImports(ctx context.Context, tx *redis.Tx, k keys, es []Entry) (map[string]bool, error) {
	seen := map[string]bool{}
	var ks []string
	for _, e := range es {
		ks = append(ks, e.ImportKey)
	}
	if len(ks) == 0 {
		return seen, nil
	}
	vals, err := tx.HMGet(ctx, k.imports, ks...).Result()
	if err != nil {
		return nil, err
	}
	for i, v := range vals {
		if v != nil {
			seen[ks[i]] = true
		}
	}
	return seen, nil
}

// assignIDs gives each entry a fresh id not used in the team.
func assignIDs(ctx context.Context, tx *redis.Tx, k keys, es []Entry) error {
	taken := map[string]bool{}
	pending := make([]int, len(es))
	for i := range es {
		pending[i] = i
	}
	for round := 0; len(pending) > 0; round++ {
		if round == 10 {
			return errors.New("no free entry id after 10 rounds")
		}
		ids := make([]string, len(pending))
		for j := range pending {
			id := newID()
			for taken[id] {
				id = newID()
			}
			taken[id] = true
			ids[j] = id
		}
		vals, err := tx.HMGet(ctx, k.entries, ids...).Result()
		if err != nil {
			return err
		}
		var again []int
		for j, i := range pending {
			if vals[j] != nil {
				again = append(again, i)
				continue
			}
			es[i].ID = ids[j]
		}
		pending = again
	}
	return nil
}

// watch runs an optimistic transaction, retrying (with a short, growing,
// jittered pause) when another writer touched the watched keys first. Any
// failure wraps ErrNotSaved.
func (l *Ledger) watch(ctx context.Context, fn func(*redis.Tx) error, watched ...string) error {
	for try := range maxTxRetries {
		err := l.rdb.Watch(ctx, fn, watched...)
		if !errors.Is(err, redis.TxFailedErr) {
			if err != nil {
				return notSaved(err)
			}
			return nil
		}
		pause := time.Duration(1+mrand.IntN(1<<min(try, 6))) * time.Millisecond
		select {
		case <-ctx.Done():
			return notSaved(ctx.Err())
		case <-time.After(pause):
		}
	}
	return notSaved(errors.New("too much contention on the ledger"))
}

// rollback undoes a write whose snapshot failed: it removes added and puts
// back removed. Best effort: the store already failed once.
func (l *Ledger) rollback(ctx context.Context, k keys, added, removed []Entry) {
	ctx = context.WithoutCancel(ctx)
	_, _ = l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, e := range added {
			p.HDel(ctx, k.entries, e.ID)
			p.ZRem(ctx, k.times, e.ID)
			if e.ImportKey != "" {
				p.HDel(ctx, k.imports, e.ImportKey)
			}
			if e.Source == SourceSlack {
				p.LRem(ctx, k.user(e.User), 0, e.ID)
			}
		}
		for _, e := range removed {
			raw, _ := json.Marshal(e)
			p.HSet(ctx, k.entries, e.ID, raw)
			p.ZAdd(ctx, k.times, redis.Z{Score: score(e), Member: e.ID})
			if e.Source == SourceSlack {
				p.RPush(ctx, k.user(e.User), e.ID)
			}
		}
		return nil
	})
}

// Get returns one entry of the team.
func (l *Ledger) Get(ctx context.Context, team, id string) (Entry, error) {
	if err := checkTeam(team); err != nil {
		return Entry{}, err
	}
	id, ok := NormalizeID(id)
	if !ok {
		return Entry{}, ErrNotFound
	}
	raw, err := l.rdb.HGet(ctx, keysFor(team).entries, id).Result()
	if errors.Is(err, redis.Nil) {
		return Entry{}, ErrNotFound
	}
	if err != nil {
		return Entry{}, fmt.Errorf("read ledger entry: %w", err)
	}
	return decode(raw)
}

func decode(raw string) (Entry, error) {
	var e Entry
	if err := json.Unmarshal([]byte(raw), &e); err != nil {
		return Entry{}, fmt.Errorf("decode ledger entry: %w", err)
	}
	return e, nil
}

// List returns the team's entries booked to month m in the ledger's time
// zone, oldest first; a non-empty project keeps only that project (names
// are folded as Add folds them). A zero m lists every entry.
func (l *Ledger) List(ctx context.Context, team string, m Month, project string) ([]Entry, error) {
	var from, to time.Time
	if !m.IsZero() {
		from, to = m.Start(l.loc), m.End(l.loc)
	}
	es, err := l.Between(ctx, team, from, to)
	if err != nil || project == "" {
		return es, err
	}
	p := normProject(project)
	out := es[:0]
	for _, e := range es {
		if e.Project == p {
			out = append(out, e)
		}
	}
	return out, nil
}

// Between returns the team's entries with from ≤ At < to, oldest first (ties
// by id). A zero bound is open.
func (l *Ledger) Between(ctx context.Context, team string, from, to time.Time) ([]Entry, error) {
	if err := checkTeam(team); err != nil {
		return nil, err
	}
	k := keysFor(team)
	rng := &redis.ZRangeBy{Min: "-inf", Max: "+inf"}
	if !from.IsZero() {
		rng.Min = strconv.FormatInt(from.UnixMilli(), 10)
	}
	if !to.IsZero() {
		rng.Max = "(" + strconv.FormatInt(to.UnixMilli(), 10)
	}
	ids, err := l.rdb.ZRangeByScore(ctx, k.times, rng).Result()
	if err != nil {
		return nil, fmt.Errorf("list ledger: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	vals, err := l.rdb.HMGet(ctx, k.entries, ids...).Result()
	if err != nil {
		return nil, fmt.Errorf("list ledger: %w", err)
	}
	out := make([]Entry, 0, len(vals))
	for _, v := range vals {
		s, ok := v.(string)
		if !ok {
			continue // removed between the two reads
		}
		e, err := decode(s)
		if err != nil {
			return nil, err
		}
		e.At = e.At.In(l.loc)
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// Undo removes the user's most recent hand-added entry in the team and
// returns it. Imported rows are not on the undo list; delete them by id.
// ErrNotFound means there is nothing to undo.
func (l *Ledger) Undo(ctx context.Context, team, user string) (Entry, error) {
	if err := checkTeam(team); err != nil {
		return Entry{}, err
	}
	k := keysFor(team)
	for range maxTxRetries {
		ids, err := l.rdb.LRange(ctx, k.user(user), 0, -1).Result()
		if err != nil {
			return Entry{}, notSaved(err)
		}
		var last Entry
		found := false
		for i := len(ids) - 1; i >= 0 && !found; i-- {
			raw, err := l.rdb.HGet(ctx, k.entries, ids[i]).Result()
			if errors.Is(err, redis.Nil) { // deleted meanwhile; Delete also cleans the list
				l.rdb.LRem(ctx, k.user(user), 0, ids[i])
				continue
			}
			if err != nil {
				return Entry{}, notSaved(err)
			}
			if last, err = decode(raw); err != nil {
				return Entry{}, err
			}
			found = true
		}
		if !found {
			return Entry{}, ErrNotFound
		}
		gone, err := l.remove(ctx, k, last)
		if errors.Is(err, ErrNotFound) {
			continue // someone deleted it between the read and the write: look again
		}
		return gone, err
	}
	return Entry{}, notSaved(errors.New("too much contention on the ledger"))
}

// Delete removes entry id from the team's ledger. Users may delete their own
// entries; isAdmin (from Authorizer.IsAdmin) allows any. It returns the
// removed entry, ErrNotFound, ErrForbidden, or an error wrapping ErrNotSaved.
func (l *Ledger) Delete(ctx context.Context, team, id, user string, isAdmin bool) (Entry, error) {
	if err := checkTeam(team); err != nil {
		return Entry{}, err
	}
	id, ok := NormalizeID(id)
	if !ok {
		return Entry{}, ErrNotFound
	}
	k := keysFor(team)
	raw, err := l.rdb.HGet(ctx, k.entries, id).Result()
	if errors.Is(err, redis.Nil) {
		return Entry{}, ErrNotFound
	}
	if err != nil {
		return Entry{}, notSaved(err)
	}
	e, err := decode(raw)
	if err != nil {
		return Entry{}, err
	}
	if e.User != user && !isAdmin {
		return Entry{}, ErrForbidden
	}
	return l.remove(ctx, k, e)
}

// remove deletes e in one MULTI/EXEC and persists. Entries never change
// once written, so no WATCH is needed: HDEL's count tells whether this call
// removed it (ErrNotFound when another got there first). Its import key
// stays (see the package comment).
func (l *Ledger) remove(ctx context.Context, k keys, e Entry) (Entry, error) {
	var del *redis.IntCmd
	_, err := l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		del = p.HDel(ctx, k.entries, e.ID)
		p.ZRem(ctx, k.times, e.ID)
		p.LRem(ctx, k.user(e.User), 0, e.ID)
		return nil
	})
	if err != nil {
		return Entry{}, notSaved(err)
	}
	if del.Val() == 0 {
		return Entry{}, ErrNotFound
	}
	if err := l.st.Persist(ctx); err != nil {
		l.rollback(ctx, k, nil, []Entry{e})
		return Entry{}, notSaved(err)
	}
	e.At = e.At.In(l.loc)
	return e, nil
}

// fmtNum prints 40, 36.5 or 0.25 without trailing zeros.
func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
