package transport

// Answer families: buttons re-render answers that were stored, never run a
// command again.
//
// When an answer offers currency or 8-bit buttons, the variants those
// buttons lead to (the other currency; 8-bit; both) are asked right after
// it, in the background, as the same read-only question with the setting,
// and stored with the answer as one family. Every button of every variant points into the same family:
// its value carries the family's key and the settings it asks for, and a
// click renders that variant without asking the bot anything. Working and
// More render a variant's other views the same way.
//
// Keys:
//
//	gpubot:answer:{id}  a family (JSON); id is the first 12 bytes of the
//	                    SHA-256 of its content, in hex, so the same family is
//	                    stored once and a button's value says nothing a user
//	                    could not see; answerTTL
//	gpubot:answer:index zset: family id → when it was last stored (unix µs);
//	                    at most maxFamilies, the oldest dropped with their
//	                    families
//
// The families share the Redis that holds the ledger, so they are bounded
// three ways (issue #28 item 6: ~25 KB per distinct question for 7 days
// filled a 256Mi Redis in about 10,000 questions): a family over
// maxFamilyBytes is not stored, at most maxFamilies are kept (storing one
// more drops the oldest), and each lives answerTTL. Every family key has a
// TTL and no ledger key does, so the deploy manifests' maxmemory with
// volatile-lru evicts families, never ledger entries.
//
// A family that is gone (expired, Redis down, stored before families) makes
// the click ask the read-only question again, on its own (never merged into
// its conversation, whose last request may be a write); write commands
// never get these buttons and a value asking to re-run one is refused, so
// neither path writes anything.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

// Family limits (see the package comment above).
const (
	answerTTL      = 24 * time.Hour
	maxFamilyBytes = 48 << 10
	maxFamilies    = 2000
	familyIndex    = "gpubot:answer:index"
)

func answerKey(id string) string { return "gpubot:answer:" + id }

func validKey(k string) bool {
	if len(k) != 24 {
		return false
	}
	_, err := hex.DecodeString(k)
	return err == nil
}

// family is an answer and the variants its buttons lead to.
type family struct {
	// Currency is the first answer's currency (lower case, as a button
	// writes it): a variant asking for it is that answer, so a button
	// back to it finds it.
	Currency string `json:"currency,omitempty"`
	// Bits says the family holds an answer and its 8-bit variant, so each
	// offers the button to the other (the bot offers 8-bit only to an
	// answer that is not 8-bit already; here the way back is stored too).
	Bits bool `json:"bits,omitempty"`
	// Variants by the settings that ask for them (variant).
	Variants map[string]stored `json:"variants"`
}

// stored is what is kept of an answer for its buttons.
type stored struct {
	Intent   parse.Intent `json:"intent"`
	Lang     string       `json:"lang"`
	Doc      present.Doc  `json:"doc"`
	Text     string       `json:"text"`
	Currency string       `json:"currency,omitempty"`
	Buttons  []bot.Button `json:"buttons,omitempty"`
	// Blocks are the short view exactly as it was shown.
	Blocks slack.Blocks `json:"blocks"`
}

// variant names the variant that settings ask for: sorted key=value pairs,
// without a currency that is the first answer's own.
func (f family) variant(set map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(set)) {
		if k == "currency" && set[k] == f.Currency {
			continue
		}
		parts = append(parts, k+"="+set[k])
	}
	return strings.Join(parts, " ")
}

// toggle is a state a button leads to and the button that leads there
// ("" for both changes together, which no single button makes).
type toggle struct {
	st     state
	button bot.Button
}

// toggles are the states the answer's currency and 8-bit buttons lead to,
// and both changes together.
func toggles(ans bot.Answer, st state) []toggle {
	var out []toggle
	var cur *state
	if slices.Contains(ans.Buttons, bot.ButtonCurrency) {
		other := "usd"
		if currency(ans, st) == "USD" {
			other = "cny"
		}
		c := st.with("currency", other)
		cur = &c
		out = append(out, toggle{c, bot.ButtonCurrency})
	}
	var b8 state
	switch {
	case st.Set["bits"] == "8": // reached by the 8-bit button: the way back
		b8 = st.with("bits", "")
	case slices.Contains(ans.Buttons, bot.ButtonBits8):
		b8 = st.with("bits", "8")
	default:
		return out
	}
	out = append(out, toggle{b8, bot.ButtonBits8})
	if cur != nil {
		out = append(out, toggle{cur.with("bits", b8.Set["bits"]), ""})
	}
	return out
}

// remember stores an answer for its buttons and returns the family's key;
// "" when it has nothing to show beyond itself or Redis is unavailable (the
// buttons then ask the read-only question again). m is the message that
// asked it; each variant is m with st's settings changed.
//
// The answer itself is stored at once; its variants are asked in the
// background (variantBuilds at a time, none when every slot is taken) and
// the family is stored again, under the same key, when they are in. So a
// button costs the answer no time, and a click that comes before its
// variant is stored, or after a busy spell skipped it, asks the read-only
// question again, as when the family has expired. A button whose setting
// the parser would not reach (a question longer than it reads) is taken
// off ans: it could only show the same answer again.
func (a *App) remember(ctx context.Context, st state, m bot.Message, ans *bot.Answer) string {
	if a.rdb == nil || ans.Ephemeral || len(ans.Buttons) == 0 || a.writes(ans.Intent) {
		return ""
	}
	fam := family{Currency: strings.ToLower(ans.Currency), Variants: map[string]stored{}}
	if c := st.Set["currency"]; c != "" {
		fam.Currency = c // asked for by a button: the answer is in it
	}
	var todo []toggle
	for _, t := range toggles(*ans, st) {
		if utf8.RuneCountInString(t.st.text()) > parse.MaxMessage {
			if t.button != "" {
				ans.Buttons = slices.DeleteFunc(slices.Clone(ans.Buttons), func(b bot.Button) bool { return b == t.button })
			}
			continue
		}
		todo = append(todo, t)
	}
	fam.Variants[fam.variant(st.Set)] = keep(*ans)
	raw, err := json.Marshal(fam)
	if err != nil {
		return ""
	}
	// The key is the hash of the answer and the question: the same answer
	// to the same question is one family, and a button's value says
	// nothing a user could not see.
	sum := sha256.Sum256(append(raw, st.text()...))
	id := hex.EncodeToString(sum[:12])
	if !a.storeFamily(ctx, id, raw) {
		return ""
	}
	if len(todo) > 0 {
		a.buildVariants(ctx, id, fam, m, *ans, todo)
	}
	return id
}

// variantBuilds is how many families may be completed at once; an answer
// given while that many are being completed, or while questions wait in
// the queue, skips its variants (its buttons ask again).
const variantBuilds = 2

// buildVariants asks the variants the toggles lead to and stores the whole
// family under id, in the background; it returns at once.
func (a *App) buildVariants(ctx context.Context, id string, fam family, m bot.Message, ans bot.Answer, todo []toggle) {
	if len(a.jobs) > 0 || a.convs.waitingCount() > 0 {
		// Questions are waiting: they come first. The buttons ask again.
		a.log.DebugContext(ctx, "answer variants skipped: questions are waiting; their buttons will ask again", "key", id)
		return
	}
	select {
	case a.variantSlots <- struct{}{}:
	default:
		a.log.DebugContext(ctx, "answer variants skipped: every slot is busy; their buttons will ask again", "key", id)
		return
	}
	a.inflight.Add(1)
	bg := context.WithoutCancel(ctx)
	go func() {
		defer func() { <-a.variantSlots; a.inflight.Done() }()
		bctx, cancel := context.WithTimeout(bg, a.cfg.AnswerTimeout)
		defer cancel()
		for _, t := range todo {
			vm := m
			vm.Text, vm.ID, vm.Variant = t.st.text(), m.ID+"|"+fam.variant(t.st.Set), true
			va := a.bot.Answer(bctx, vm)
			if va.Ephemeral || va.Err != "" || va.Intent != ans.Intent || !took(va, t.st) {
				continue // not stored: its button asks again
			}
			fam.Variants[fam.variant(t.st.Set)] = keep(va)
			fam.Bits = fam.Bits || t.button == bot.ButtonBits8
		}
		if len(fam.Variants) < 2 {
			return
		}
		if raw, err := json.Marshal(fam); err == nil {
			a.storeFamily(bctx, id, raw)
		}
	}()
}

// storeFamily writes a family under its key for answerTTL, indexes it, and
// drops the oldest families past maxFamilies. A family over maxFamilyBytes
// is not stored: its buttons ask again.
func (a *App) storeFamily(ctx context.Context, id string, raw []byte) bool {
	if len(raw) > maxFamilyBytes {
		a.log.DebugContext(ctx, "answer family too large to store; its buttons will ask again", "key", id, "bytes", len(raw))
		return false
	}
	probe, ok := a.redis.enter()
	if !ok {
		return false
	}
	rctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	now := time.Now()
	// A pipeline, not a transaction: the family and the index are in
	// different cluster slots.
	pipe := a.rdb.Pipeline()
	pipe.Set(rctx, answerKey(id), raw, answerTTL)
	pipe.ZAdd(rctx, familyIndex, redis.Z{Score: float64(now.UnixMicro()), Member: id})
	pipe.ZRemRangeByScore(rctx, familyIndex, "-inf", "("+strconv.FormatInt(now.Add(-answerTTL).UnixMicro(), 10)) // expired on their own
	n := pipe.ZCard(rctx, familyIndex)
	_, err := pipe.Exec(rctx)
	if err == nil && n.Val() > maxFamilies {
		err = a.dropOldestFamilies(rctx, n.Val()-maxFamilies)
	}
	a.redis.leave(ctx, a.log, probe, err)
	if err != nil {
		a.log.WarnContext(ctx, "answer not stored for its buttons", "err", err)
		return false
	}
	return true
}

// dropOldestFamilies deletes the n families stored longest ago.
func (a *App) dropOldestFamilies(ctx context.Context, n int64) error {
	old, err := a.rdb.ZPopMin(ctx, familyIndex, n).Result()
	if err != nil || len(old) == 0 {
		return err
	}
	pipe := a.rdb.Pipeline()
	for _, z := range old {
		if id, ok := z.Member.(string); ok {
			pipe.Del(ctx, answerKey(id))
		}
	}
	_, err = pipe.Exec(ctx)
	return err
}

// took reports whether an answer is in the variant v asked for.
func took(a bot.Answer, v state) bool {
	if c := v.Set["currency"]; c != "" && !strings.EqualFold(a.Currency, c) {
		return false
	}
	return v.Set["bits"] != "8" || a.Slots.Bits == 8
}

func keep(a bot.Answer) stored {
	return stored{Intent: a.Intent, Lang: a.Lang, Doc: a.Doc, Text: a.Text, Currency: a.Currency, Buttons: a.Buttons,
		Blocks: slack.Blocks{BlockSet: a.Blocks}}
}

// recall loads the variant of a stored family that set asks for.
func (a *App) recall(ctx context.Context, key string, set map[string]string) (bot.Answer, bool) {
	if a.rdb == nil || key == "" {
		return bot.Answer{}, false
	}
	probe, ok := a.redis.enter()
	if !ok {
		return bot.Answer{}, false
	}
	rctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	raw, err := a.rdb.Get(rctx, answerKey(key)).Bytes()
	if errors.Is(err, redis.Nil) {
		err = nil
	}
	a.redis.leave(ctx, a.log, probe, err)
	var f family
	if err != nil || len(raw) == 0 || json.Unmarshal(raw, &f) != nil {
		return bot.Answer{}, false
	}
	s, ok := f.Variants[f.variant(set)]
	if !ok {
		return bot.Answer{}, false
	}
	btns := s.Buttons
	if f.Bits && !slices.Contains(btns, bot.ButtonBits8) {
		btns = append(slices.Clone(btns), bot.ButtonBits8)
	}
	s.Doc.Lang = present.LangOf(s.Lang)
	return bot.Answer{Intent: s.Intent, Lang: s.Lang, Doc: s.Doc, Text: s.Text, Headline: s.Doc.Headline,
		Currency: s.Currency, Buttons: btns, Blocks: s.Blocks.BlockSet}, true
}
