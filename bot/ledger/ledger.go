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
//	gpubot:ledger:{T}:k         hash  idempotency key → id, or "-" once settled as not saved
//	gpubot:ledger:{T}:r         hash  removal request key → the entry it removed (or restored), or "-"
//	gpubot:ledger:{T}:x         hash  edit request key → {id, before, after} (replays and undo of spend edit)
//
// A hand-added entry is one script (addScript) keyed by its idempotency
// key — the Slack message, command or click it came from — so a retry, a
// redelivery or a write that stalled and landed late books it once. Its id
// is derived from the key, so every try of one request uses the same id.
// When a write's outcome is unknown (timeout), Settle either finds the
// entry or voids the key, after which the late write finds the key taken.
// An import is a MULTI/EXEC that WATCHes the entry and import hashes, so
// concurrent imports of one bill cannot both add it. Each write is followed
// by store.Persist (the embedded mode's journal fsync); only when both
// succeed is the entry confirmed.
// Entries change in place only through Edit (a user's correction, kept
// with its previous version so Undo restores it), a corrected bill line
// and Supersede; otherwise they are added and removed. Import keys
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
	"net"
	"sort"
	"strconv"
	"strings"
	"syscall"
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
	// FX is CNY per USD, used only to compare an entry's price with
	// catalogue prices in the other currency (the sanity check); 0 compares
	// same-currency prices only.
	FX float64
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
	fx    float64
}

// New returns a Ledger writing to st.
func New(st *store.Store, opt Options) *Ledger {
	l := &Ledger{st: st, rdb: st.Redis, kb: opt.KB, loc: opt.Location, price: opt.Price, cur: opt.DefaultCurrency, now: opt.Now, fx: opt.FX}
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

type keys struct{ entries, times, imports, keys, removals, prefix string }

// removals maps a removal's request key to the entry it removed (its
// JSON) or the void mark, as keys does for additions.
func keysFor(team string) keys {
	p := "gpubot:ledger:{" + team + "}:"
	return keys{entries: p + "e", times: p + "t", imports: p + "i", keys: p + "k", removals: p + "r", prefix: p}
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
// embedded mode, on disk.
//
// e.Key is the write's idempotency key: the Slack message, command or
// click it came from ("msg:C1:1733.0001"). Add makes one when it is empty,
// before the first try. Whatever happens to the connection, one key books
// at most one entry: a second Add with a key already booked returns that
// entry with Replayed set, and nothing new.
//
// Errors: *InputError for bad input; one wrapping ErrNotSaved when the
// store confirms nothing was written (it refused, or was never reached);
// *UnconfirmedError when the write was sent but its outcome is unknown (a
// timeout, a dropped connection): call Settle with its key before telling
// the user anything.
func (l *Ledger) Add(ctx context.Context, e Entry) (Entry, error) {
	e.ID, e.ImportKey = "", ""
	if e.Source == "" {
		e.Source = SourceSlack
	}
	if e.Key == "" {
		e.Key = "r:" + newID() + newID()
	}
	e, err := l.prepare(ctx, e)
	if err != nil {
		return Entry{}, err
	}
	k := keysFor(e.Team)
	e.ID = idFor(e.Team, e.Key) // the same key gives the same id in every process and every try
	for range maxIDTries {
		status, id, err := l.addOnce(ctx, k, e)
		if err != nil {
			return Entry{}, l.writeErr(e.Team, e.Key, err)
		}
		switch status {
		case addTaken:
			e.ID = newID() // another key has this id: draw one (the key still guards)
			continue
		case addVoid:
			return Entry{}, notSaved(errVoid)
		case addKnown:
			prev, err := l.Get(ctx, e.Team, id)
			if err != nil {
				return Entry{}, fmt.Errorf("read replayed entry: %w", err)
			}
			prev.Replayed = true
			return prev, nil
		}
		if err := l.st.Persist(ctx); err != nil {
			if _, verr := l.voidKey(context.WithoutCancel(ctx), k, e.Key, e.ID); verr != nil {
				return Entry{}, &UnconfirmedError{Team: e.Team, Key: e.Key, Err: err}
			}
			return Entry{}, notSaved(err)
		}
		return e, nil
	}
	return Entry{}, notSaved(errors.New("no free entry id"))
}

// errVoid is the cause when a key was settled as not saved earlier: a
// replay of that request is refused too, or the stalled write could land
// after the user was told it did not.
var errVoid = errors.New("this request was already reported as not saved")

const (
	addOK = iota
	addKnown
	addTaken
	addVoid
)

// voidMark is the key map's value for a key settled as not saved.
const voidMark = "-"

// addScript books one entry under its idempotency key, atomically: a known
// key returns its id (or the void mark) and writes nothing; a taken id
// writes nothing. KEYS: entries, times, key map[, undo list]. ARGV: key, id,
// entry JSON, score, undo depth.
var addScript = redis.NewScript(`
local have = redis.call('HGET', KEYS[3], ARGV[1])
if have then
  if have == '` + voidMark + `' then return {3, have} end
  return {1, have}
end
if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 1 then return {2, ''} end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
if #KEYS >= 4 then
  redis.call('RPUSH', KEYS[4], ARGV[2])
  redis.call('LTRIM', KEYS[4], -tonumber(ARGV[5]), -1)
end
return {0, ARGV[2]}
`)

func (l *Ledger) addOnce(ctx context.Context, k keys, e Entry) (status int, id string, err error) {
	raw, err := json.Marshal(e)
	if err != nil {
		return 0, "", err
	}
	ks := []string{k.entries, k.times, k.keys}
	if e.Source == SourceSlack {
		ks = append(ks, k.user(e.User))
	}
	res, err := addScript.Run(ctx, l.rdb, ks, e.Key, e.ID, raw, score(e), undoDepth).Slice()
	if err != nil {
		return 0, "", err
	}
	if len(res) != 2 {
		return 0, "", fmt.Errorf("add script returned %v", res)
	}
	n, _ := res[0].(int64)
	id, _ = res[1].(string)
	return int(n), id, nil
}

// settleScript decides a key whose write went unconfirmed: if it booked an
// entry, that id; otherwise it marks the key void, so the stalled write,
// should it still arrive, finds the key taken and writes nothing. Either way
// the answer is final. KEYS: key map. ARGV: key.
var settleScript = redis.NewScript(`
local have = redis.call('HGET', KEYS[1], ARGV[1])
if have then return have end
redis.call('HSET', KEYS[1], ARGV[1], '` + voidMark + `')
return '` + voidMark + `'
`)

// voidScript takes back an entry whose write reached Redis but not the
// disk (embedded mode) and voids its key. KEYS: entries, times, key map.
// ARGV: key, id.
var voidScript = redis.NewScript(`
redis.call('HDEL', KEYS[1], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], '` + voidMark + `')
return 1
`)

func (l *Ledger) voidKey(ctx context.Context, k keys, key, id string) (bool, error) {
	err := voidScript.Run(ctx, l.rdb, []string{k.entries, k.times, k.keys}, key, id).Err()
	return err == nil, err
}

// Settle finds out what became of an unconfirmed write: the entry it booked
// (saved), or ErrNotSaved, in which case the key is void and the write can
// never land later. It retries until ctx ends; the error is then still an
// *UnconfirmedError. An unconfirmed removal (UnconfirmedError.Remove) is
// settled the same way: the entry it removed, or ErrNotSaved (the entry
// stays and the stalled removal can never apply).
func (l *Ledger) Settle(ctx context.Context, team, key string) (Entry, error) {
	return l.settle(ctx, team, key, false)
}

// SettleRemove is Settle for a removal's key (Undo, Delete).
func (l *Ledger) SettleRemove(ctx context.Context, team, key string) (Entry, error) {
	return l.settle(ctx, team, key, true)
}

func (l *Ledger) settle(ctx context.Context, team, key string, removal bool) (Entry, error) {
	if err := checkTeam(team); err != nil {
		return Entry{}, err
	}
	k := keysFor(team)
	hash := k.keys
	if removal {
		hash = k.removals
	}
	var last error
	for try := 0; ; try++ {
		v, err := settleScript.Run(ctx, l.rdb, []string{hash}, key).Text()
		if err == nil {
			if perr := l.st.Persist(ctx); perr != nil {
				err = perr
			}
		}
		if err == nil {
			if v == voidMark {
				return Entry{}, notSaved(errVoid)
			}
			var e Entry
			var gerr error
			if removal {
				e, gerr = decode(v) // the removed entry itself: it is no longer in the ledger
				e.At = e.At.In(l.loc)
			} else {
				e, gerr = l.Get(ctx, team, v)
			}
			if gerr == nil {
				return e, nil
			}
			err = gerr
		}
		last = err
		pause := time.Duration(100*(1<<min(try, 4))) * time.Millisecond
		select {
		case <-ctx.Done():
			return Entry{}, &UnconfirmedError{Team: team, Key: key, Remove: removal, Err: last}
		case <-time.After(pause):
		}
	}
}

// writeErr sorts a failed write: a reply from Redis (it refused) or a
// connection that was never made means nothing was written; anything else
// may have been applied.
func (l *Ledger) writeErr(team, key string, err error) error {
	if notSent(err) {
		return notSaved(err)
	}
	return &UnconfirmedError{Team: team, Key: key, Err: err}
}

func notSent(err error) bool {
	var rerr redis.Error
	if errors.As(err, &rerr) {
		return true // Redis answered: OOM, READONLY, LOADING, a script error before any write
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, redis.ErrClosed) || errors.Is(err, store.ErrNotWritable)
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
	switch e.Kind {
	case "":
		e.Kind = Spend
	case Spend, Refund, NonGPU:
	default:
		return e, inputErr("kind", "%q is not spend, refund or non_gpu", e.Kind)
	}
	e.CostCenter = strings.TrimSpace(e.CostCenter)
	if e.CostCenter != "" {
		e.CostCenter = normProject(e.CostCenter)
	}
	noCard := e.Kind == Spend && strings.TrimSpace(e.GPU) == "" && e.HoursUnknown && e.Hours == 0 && e.Priced()
	if e.Kind == NonGPU || noCard {
		e.GPU = "" // an invoice that names no card: GPU spend, card unknown
	} else if e.Kind == Spend || e.GPU != "" {
		gpu, err := l.gpu(e.GPU)
		if err != nil {
			return e, err
		}
		e.GPU = gpu
	}
	e.Platform = l.platform(e.Platform)
	e.Project = normProject(e.Project)
	e.Note = truncate(strings.TrimSpace(e.Note), maxNote)
	now := l.now().Round(0) // no monotonic reading: entries compare equal after a round trip
	if e.Kind == Refund {
		return l.prepareRefund(e, now)
	}
	if e.Kind == NonGPU {
		return l.prepareNonGPU(e, now)
	}
	switch {
	case noCard:
		e.Cards = 0 // nothing is known of the cards
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
	if e.Billing == "" {
		e.Billing = OnDemand
	}
	if b, ok := ParseBilling(string(e.Billing)); ok {
		e.Billing = b
	} else {
		return e, inputErr("billing", "%q is not on_demand, monthly or spot", e.Billing)
	}
	// A monthly plan is paid whether it runs or not: 0 h is an idle plan,
	// the case the recap must catch, not a mistake.
	if e.HoursUnknown {
		if e.Hours != 0 {
			e.HoursUnknown = false // hours were given after all
		} else if !e.Priced() {
			return e, inputErr("amount", "missing: an entry without hours needs the amount paid (¥1800)")
		}
	}
	if e.Hours == 0 && !(e.Billing == Monthly && e.Priced()) && !e.HoursUnknown {
		return e, inputErr("hours", "missing: say how long the cards ran (40h), or give start and end; for an invoice without hours give the amount and the word invoice (spend add invoice ¥1800 a100 @autodl)")
	}
	if e.Hours < 0 {
		return e, inputErr("hours", "%s h is negative; hours are how long the cards ran (40h). For money back use: spend refund ¥500", fmtNum(e.Hours))
	}
	if e.Hours > maxHours || e.Hours != e.Hours {
		return e, inputErr("hours", "%s h is out of range (more than 0, at most %d)", fmtNum(e.Hours), maxHours)
	}
	e.CreatedAt = now
	if e.At.IsZero() {
		e.At = e.Start
	}
	if e.At.IsZero() {
		e.At = now
	}
	e.At = e.At.In(l.loc)
	if err := l.notFuture(e.At, now); err != nil {
		return e, err
	}
	switch c := e.Amount.Currency; {
	case c != "" && !isCurrencyCode(c):
		return e, inputErr("currency", "%q is not a currency code like CNY or USD", c)
	case e.Amount.Minor < 0:
		return e, inputErr("amount", "%s is negative; a spend is what was paid (¥500). For money back use: spend refund ¥500", e.Amount)
	case e.Amount.IsZero() && e.Amount.Minor != 0:
		e.Amount.Currency = l.cur
	case e.Amount.IsZero() && l.price != nil:
		if p, ok := l.price(ctx, PriceQuery{Platform: e.Platform, GPU: e.GPU, Billing: e.Billing, At: e.At}); ok && p.PerCardHour > 0 && p.Currency != "" {
			e.Amount = MoneyFromFloat(p.PerCardHour*e.CardHours(), p.Currency)
			e.Derived = fmt.Sprintf("%s card-h × %s %s (%s)", fmtNum(e.CardHours()), strconv.FormatFloat(p.PerCardHour, 'f', -1, 64), p.Currency, p.Source)
		}
	}
	if !e.Confirm && e.Derived == "" && !e.HoursUnknown {
		if err := l.checkPrice(e); err != nil {
			return e, err
		}
	}
	return e, nil
}

// notFuture refuses a date after today (in the ledger's zone): spend is
// booked when it happened, and a mistyped year would otherwise open a
// month of its own (a bill dated 2027-01-15 made a January 2027 recap).
func (l *Ledger) notFuture(at, now time.Time) error {
	n := now.In(l.loc)
	tomorrow := time.Date(n.Year(), n.Month(), n.Day()+1, 0, 0, 0, 0, l.loc)
	if !at.Before(tomorrow) {
		return inputErr("date", "%s is in the future (today is %s); book spend on the day it happened",
			at.In(l.loc).Format("2006-01-02"), n.Format("2006-01-02"))
	}
	return nil
}

// prepareRefund checks a refund or credit: an amount of money coming back,
// written as a positive figure ("spend refund ¥500") and stored negative so
// every sum nets it; no hours, no card count.
func (l *Ledger) prepareRefund(e Entry, now time.Time) (Entry, error) {
	if e.Hours != 0 || e.Cards != 0 {
		return e, inputErr("hours", "a refund is money only; give the amount (spend refund ¥500 project=pretrain)")
	}
	if e.Amount.IsZero() || e.Amount.Minor == 0 {
		return e, inputErr("amount", "missing: how much came back (spend refund ¥500)")
	}
	if c := e.Amount.Currency; !isCurrencyCode(c) {
		return e, inputErr("currency", "%q is not a currency code like CNY or USD", c)
	}
	if e.Amount.Minor < 0 {
		e.Amount.Minor = -e.Amount.Minor // "refund -¥500" and "refund ¥500" mean the same
	}
	e.Amount.Minor = -e.Amount.Minor
	e.Billing = ""
	e.CreatedAt = now
	if e.At.IsZero() {
		e.At = now
	}
	e.At = e.At.In(l.loc)
	return e, l.notFuture(e.At, now)
}

// prepareNonGPU checks a non-GPU cost (tax, support, storage, network …):
// money only, no card and no hours. A negative one is a credit (Refund).
func (l *Ledger) prepareNonGPU(e Entry, now time.Time) (Entry, error) {
	if e.Amount.IsZero() || e.Amount.Minor == 0 {
		return e, inputErr("amount", "missing: a non-GPU cost is money only (tax ¥120)")
	}
	if c := e.Amount.Currency; !isCurrencyCode(c) {
		return e, inputErr("currency", "%q is not a currency code like CNY or USD", c)
	}
	if e.Amount.Minor < 0 {
		return e, inputErr("amount", "%s is negative; money back is a refund or credit", e.Amount)
	}
	if e.Category == "" {
		e.Category = CatOther
	}
	e.GPU, e.Cards, e.Hours, e.Billing, e.HoursUnknown = "", 0, 0, "", false
	e.CreatedAt = now
	if e.At.IsZero() {
		e.At = now
	}
	e.At = e.At.In(l.loc)
	return e, l.notFuture(e.At, now)
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

// reconciled is what one import did to the ledger.
type reconciled struct {
	added, changed []Entry
	replaced       []Revision
	unchanged      int
}

// insert reconciles a bill's lines with the team's ledger in one
// transaction: a line whose identity (Entry.ImportKey) is new is added; one
// whose identity is known but whose content (Entry.Line) differs replaces
// the entry it booked, keeping its id; one that is the same is left alone.
// legacy[i] is line i's key under the content-only scheme used before line
// identities, so bills imported then are recognised rather than booked
// again. It watches the entry and import hashes, so a concurrent import of
// the same bill makes it start over.
//
// replace[i], when set, is the entry of an earlier bill that line i (new
// by identity) corrects: the line takes its id and replaces it.
func (l *Ledger) insert(ctx context.Context, team string, es []Entry, legacy []string, replace map[int]Entry) (reconciled, error) {
	k := keysFor(team)
	var out reconciled
	batch := "batch:" + newID() + newID() // fences this attempt (settleImport)
	txf := func(tx *redis.Tx) error {
		out = reconciled{}
		fields := make([]string, 0, 2*len(es))
		for i, e := range es {
			fields = append(fields, e.ImportKey, legacy[i])
		}
		vals, err := tx.HMGet(ctx, k.imports, fields...).Result()
		if err != nil {
			return err
		}
		known := make([]string, len(es)) // id booked by line i, "" when new
		var ids []string
		for i := range es {
			for _, v := range vals[2*i : 2*i+2] {
				if id, ok := v.(string); ok && known[i] == "" {
					known[i] = id
					ids = append(ids, id)
				}
			}
			if o, ok := replace[i]; ok && known[i] == "" {
				known[i] = o.ID
				ids = append(ids, o.ID)
			}
		}
		prev := map[string]Entry{}
		if len(ids) > 0 {
			raws, err := tx.HMGet(ctx, k.entries, ids...).Result()
			if err != nil {
				return err
			}
			for _, r := range raws {
				if s, ok := r.(string); ok {
					if e, err := decode(s); err == nil {
						prev[e.ID] = e
					}
				}
			}
		}
		nfresh := 0
		for _, id := range known {
			if id == "" {
				nfresh++
			}
		}
		var fresh []Entry // nil when none is new, as before
		if nfresh > 0 {
			fresh = make([]Entry, 0, nfresh) // sized once: a bill's 50,000 new lines
		}
		var remap []Entry // legacy lines: record their identity, change nothing else
		for i, e := range es {
			id := known[i]
			rep, replacing := replace[i]
			replacing = replacing && rep.ID == id
			switch old, ok := prev[id]; {
			case id == "" || replacing && !ok:
				fresh = append(fresh, e) // new, or the line it would replace is gone
			case replacing:
				e.ID, e.Key, e.SupersededBy = old.ID, old.Key, old.SupersededBy
				out.changed = append(out.changed, e)
				out.replaced = append(out.replaced, Revision{Old: old, New: e})
			case !ok:
				out.unchanged++ // deleted on purpose: a re-import does not bring it back
			case old.Line == "" || old.Line == e.Line:
				out.unchanged++
				if old.ImportKey != e.ImportKey {
					remap = append(remap, old)
					remap[len(remap)-1].ImportKey = e.ImportKey
				}
			default:
				e.ID, e.Key = old.ID, old.Key
				if old.SupersededBy != "" {
					e.SupersededBy = old.SupersededBy
				}
				out.changed = append(out.changed, e)
			}
		}
		if len(fresh) > 0 {
			if err := assignIDs(ctx, tx, k, fresh); err != nil {
				return err
			}
		}
		out.added = fresh
		if len(fresh)+len(out.changed)+len(remap) == 0 {
			return nil
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			// Entries go in commands of up to insertChunk each, not three
			// commands an entry: a 50,000-row bill queued 150,000 (#28 item 9).
			var ents, imps []any
			var zs []redis.Z
			flush := func() {
				if len(zs) > 0 {
					p.HSet(ctx, k.entries, ents...)
					p.ZAdd(ctx, k.times, zs...)
					p.HSet(ctx, k.imports, imps...)
				}
				ents, imps, zs = nil, nil, nil
			}
			for _, part := range [][]Entry{fresh, out.changed} {
				for i := range part {
					e := &part[i]
					raw, err := json.Marshal(e)
					if err != nil {
						return err
					}
					ents = append(ents, e.ID, raw)
					zs = append(zs, redis.Z{Score: score(*e), Member: e.ID})
					imps = append(imps, e.ImportKey, e.ID)
					if len(zs) == insertChunk {
						flush()
					}
				}
			}
			flush()
			for _, e := range remap {
				p.HSet(ctx, k.imports, e.ImportKey, e.ID)
			}
			p.HSet(ctx, k.imports, batch, 1)
			return nil
		})
		return err
	}
	if err := l.watch(ctx, txf, k.entries, k.imports); err != nil {
		if errors.Is(err, ErrNotSaved) {
			return reconciled{}, err
		}
		if serr := l.settleImport(ctx, k, batch); serr != nil {
			return reconciled{}, serr
		}
	}
	if len(out.added)+len(out.changed) == 0 {
		return out, nil
	}
	if err := l.st.Persist(ctx); err != nil {
		l.rollback(ctx, k, out.added, nil)
		return reconciled{}, notSaved(err)
	}
	return out, nil
}

// insertChunk is how many entries one HSET or ZADD of an import carries.
const insertChunk = 512

// settleBatch reports whether an import's transaction ran: its batch mark
// is there (1), or it is not and the mark is set to void (0), which changes
// the watched import hash, so the EXEC, if it is still on its way, aborts.
var settleBatch = redis.NewScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 1 end
redis.call('HSET', KEYS[1], ARGV[1], '` + voidMark + `')
return 0
`)

// settleImport decides an import whose EXEC went unconfirmed, within a
// bounded wait: nil when it ran, ErrNotSaved when it never will, otherwise
// an *UnconfirmedError (importing the bill again later is safe: its lines
// are reconciled by identity).
func (l *Ledger) settleImport(ctx context.Context, k keys, batch string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var last error
	for try := 0; ; try++ {
		ran, err := settleBatch.Run(ctx, l.rdb, []string{k.imports}, batch).Int()
		if err == nil {
			if ran == 1 {
				return nil
			}
			return notSaved(errors.New("the import's transaction did not run"))
		}
		last = err
		select {
		case <-ctx.Done():
			return &UnconfirmedError{Key: batch, Err: last}
		case <-time.After(time.Duration(100*(1<<min(try, 4))) * time.Millisecond):
		}
	}
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
// jittered pause) when another writer touched the watched keys first. A
// failure that certainly wrote nothing wraps ErrNotSaved; any other error
// may have been applied and must be settled.
func (l *Ledger) watch(ctx context.Context, fn func(*redis.Tx) error, watched ...string) error {
	for try := range maxTxRetries {
		err := l.rdb.Watch(ctx, fn, watched...)
		if !errors.Is(err, redis.TxFailedErr) {
			if err != nil && notSent(err) {
				return notSaved(err)
			}
			return err // nil, or an outcome the caller must settle
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
	// ZRANGEBYSCORE rather than ZRANGE BYSCORE: it also works on Redis servers older than 6.2.
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
// ErrNotFound means there is nothing to undo. It is UndoOnce with a key of
// its own.
func (l *Ledger) Undo(ctx context.Context, team, user string) (Entry, error) {
	return l.UndoOnce(ctx, team, user, "")
}

// UndoOnce is Undo under the request's idempotency key (the Slack
// message's id), made before the first try: a redelivered or retried undo
// returns the entry the first one removed, with Replayed set, instead of
// removing the next one. Errors are Add's: ErrNotSaved only when nothing
// was removed for sure, *UnconfirmedError (Remove set) when the removal
// was sent but not acknowledged; settle it with SettleRemove.
func (l *Ledger) UndoOnce(ctx context.Context, team, user, key string) (Entry, error) {
	if err := checkTeam(team); err != nil {
		return Entry{}, err
	}
	k := keysFor(team)
	if key == "" {
		key = "r:" + newID() + newID()
	} else if e, done, err := l.removed(ctx, k, key); done || err != nil {
		return e, err
	}
	for range maxTxRetries {
		ids, err := l.rdb.LRange(ctx, k.user(user), 0, -1).Result()
		if err != nil {
			return Entry{}, notSaved(err)
		}
		var last Entry
		found := false
		for i := len(ids) - 1; i >= 0 && !found; i-- {
			if strings.HasPrefix(ids[i], editMark) {
				// The user's last change was an edit: undo restores the
				// entry as it was before it.
				e, ok, err := l.revertEdit(ctx, team, k, user, ids[i], key)
				if err != nil || ok {
					return e, err
				}
				continue
			}
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
		gone, err := l.remove(ctx, team, k, last, key)
		if errors.Is(err, ErrNotFound) {
			continue // someone deleted it between the read and the write: look again
		}
		return gone, err
	}
	return Entry{}, notSaved(errors.New("too much contention on the ledger"))
}

// removed reports a removal key already decided: the entry it removed
// (Replayed set), or ErrNotSaved when it was settled as not saved.
func (l *Ledger) removed(ctx context.Context, k keys, key string) (Entry, bool, error) {
	v, err := l.rdb.HGet(ctx, k.removals, key).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return Entry{}, false, nil
	case err != nil:
		return Entry{}, false, notSaved(err) // a read: nothing was written
	case v == voidMark:
		return Entry{}, true, notSaved(errVoid)
	}
	e, err := decode(v)
	if err != nil {
		return Entry{}, true, err
	}
	e.At, e.Replayed = e.At.In(l.loc), true
	return e, true, nil
}

// Delete removes entry id from the team's ledger. Users may delete their own
// entries; isAdmin (from Authorizer.IsAdmin) allows any. It returns the
// removed entry, ErrNotFound, ErrForbidden, or an error wrapping ErrNotSaved.
func (l *Ledger) Delete(ctx context.Context, team, id, user string, isAdmin bool) (Entry, error) {
	return l.DeleteOnce(ctx, team, id, user, isAdmin, "")
}

// DeleteOnce is Delete under the request's idempotency key; see UndoOnce.
func (l *Ledger) DeleteOnce(ctx context.Context, team, id, user string, isAdmin bool, key string) (Entry, error) {
	if err := checkTeam(team); err != nil {
		return Entry{}, err
	}
	id, ok := NormalizeID(id)
	if !ok {
		return Entry{}, ErrNotFound
	}
	k := keysFor(team)
	if key == "" {
		key = "r:" + newID() + newID()
	} else if e, done, err := l.removed(ctx, k, key); done || err != nil {
		return e, err
	}
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
	return l.remove(ctx, team, k, e, key)
}

// removeScript removes one entry under a request key, atomically: a known
// key returns what it removed (or the void mark) and removes nothing more.
// KEYS: entries, times, the owner's undo list, removals. ARGV: key, id.
var removeScript = redis.NewScript(`
local have = redis.call('HGET', KEYS[4], ARGV[1])
if have then
  if have == '` + voidMark + `' then return {3, have} end
  return {1, have}
end
local raw = redis.call('HGET', KEYS[1], ARGV[2])
if not raw then return {2, ''} end
redis.call('HDEL', KEYS[1], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('LREM', KEYS[3], 0, ARGV[2])
redis.call('HSET', KEYS[4], ARGV[1], raw)
return {0, raw}
`)

// remove deletes e under request key and persists. Entries never change
// once written, so the script's HGET tells whether this call removed it
// (ErrNotFound when another got there first). Its import key stays (see
// the package comment).
func (l *Ledger) remove(ctx context.Context, team string, k keys, e Entry, key string) (Entry, error) {
	res, err := removeScript.Run(ctx, l.rdb, []string{k.entries, k.times, k.user(e.User), k.removals}, key, e.ID).Slice()
	if err != nil {
		if notSent(err) {
			return Entry{}, notSaved(err)
		}
		return Entry{}, &UnconfirmedError{Team: team, Key: key, Remove: true, Err: err}
	}
	if len(res) != 2 {
		return Entry{}, fmt.Errorf("remove script returned %v", res)
	}
	status, _ := res[0].(int64)
	raw, _ := res[1].(string)
	switch status {
	case 2:
		return Entry{}, ErrNotFound
	case 3:
		return Entry{}, notSaved(errVoid)
	case 1:
		prev, err := decode(raw)
		if err != nil {
			return Entry{}, err
		}
		prev.At, prev.Replayed = prev.At.In(l.loc), true
		return prev, nil
	}
	if err := l.st.Persist(ctx); err != nil {
		l.rollback(ctx, k, nil, []Entry{e})
		if verr := l.rdb.HSet(context.WithoutCancel(ctx), k.removals, key, voidMark).Err(); verr != nil {
			return Entry{}, &UnconfirmedError{Team: team, Key: key, Remove: true, Err: err}
		}
		return Entry{}, notSaved(err)
	}
	e.At = e.At.In(l.loc)
	return e, nil
}

// fmtNum prints 40, 36.5 or 0.25 without trailing zeros.
func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
