// Package bot is everything Slack-facing: it parses messages, fills missing
// values from stated defaults, asks the advisor, and renders the answer as
// plain text and Block Kit in the asker's language.
package bot

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"
	"unicode"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/bot/thread"
	"github.com/gpubot/gpubot/knowledge"
)

// Message is one thing a user said (intent.Message, the leaf's).
type Message = intent.Message

// Answer is what the bot says back, in both machine and human form.
type Answer struct {
	Intent parse.Intent `json:"intent"`
	// Confidence is the router's probability for Intent (0–1; slash
	// commands are 1).
	Confidence float64 `json:"confidence"`
	// Headline is the first line a user sees: the verdict or the figure
	// asked for, in the asker's language.
	Headline string         `json:"headline"`
	Lang     string         `json:"lang"`
	Slots    parse.Slots    `json:"slots"`
	Assumed  map[string]any `json:"assumed"`
	Result   any            `json:"result"`
	Text     string         `json:"text"`
	// Working is the full derivation behind the short text: formula steps
	// with their values, assumptions, sources with dates, list entries.
	Working []present.Step `json:"working"`
	// Currency is the currency the answer's money is in ("" when it shows
	// none); the transport offers the other one.
	Currency string `json:"currency,omitempty"`
	// Figures are the key figures under the headline (at most five).
	Figures []present.Figure `json:"figures,omitempty"`
	// Buttons are the follow-ups the answer offers; write commands get none.
	Buttons []Button `json:"-"`
	// Choices are the readings a clarifying question offers (Clarify).
	Choices []Choice `json:"-"`
	// Doc is the rendered answer; buttons re-render its views (working,
	// the whole list) without asking again.
	Doc       present.Doc   `json:"-"`
	Blocks    []slack.Block `json:"-"`
	Ephemeral bool          `json:"-"` // errors and help go only to the asker
	Err       string        `json:"error,omitempty"`
	// Typed is the answer as a value: what was asked and its figure, the
	// verdict of a yes/no, the other asked figures (DESIGN.md "answer").
	Typed *Typed `json:"answer"`
	// Used and Ignored account for every slot read from the message: how
	// it entered the answer, or why not (an ignored one is said in the text).
	Used    map[string]string `json:"used"`
	Ignored map[string]string `json:"ignored"`
	// verdictAsked marks answers that are a yes/no by nature (a budget
	// check, the asker's own card) even without a question word.
	verdictAsked bool
	// tooFew is set when the asker's own card count cannot hold the job:
	// the answer is a "no", worked on the count the job needs.
	tooFew bool
	// question is the message's text, for verdicts that answer the way
	// the question was put ("超了吗" vs "够不够").
	question string
	// apiPerM is a cost per million tokens weighed against the APIs, when
	// the question asked for both (api.go).
	apiPerM *advisor.APIPerMResult
	// planTerm is a serving plan's cards on a commitment, when the
	// question weighs one (commit.go).
	planTerm *advisor.CommitResult
	// planMonthly is a serving plan's cards on monthly plans (commit.go).
	planMonthly *advisor.MonthlyResult
	// fallback is the second fit of "X? if not, Y?" (fitalt.go): its
	// memory follows the first's in the typed answer.
	fallback *FitResult
	// memVerdict is an image job's memory need against the VRAM the asker
	// has (need, have): the yes/no leads with memory_gb.
	memVerdict *[2]float64
	// overBudget is the job's money against the budget a yes/no stated,
	// when typed read the verdict from it ("can i do this under $20"):
	// the figure, the budget, their currency.
	overBudget *[4]string // and whether "over" or "within" was asked
	// alsoUsed are slots a handler used beyond its intent's reads (how):
	// the monthly figure an always-on service is checked against.
	alsoUsed map[string]string
}

// Use is use for handlers in other packages (the budget's month).
func (a *Answer) Use(k, how string) { a.use(k, how) }

// use records that a handler used slot k beyond its intent's reads.
func (a *Answer) use(k, how string) {
	if a.alsoUsed == nil {
		a.alsoUsed = map[string]string{}
	}
	a.alsoUsed[k] = how
}

// Config holds the bot's plain settings, read by cmd/bot.
type Config struct {
	FX float64 // CNY per USD used when converting prices
}

// Bot answers messages. It is safe for concurrent use.
type Bot struct {
	prices  priceSource // live catalogue; nil uses the shipped offers
	usage   usageSource // the team's measured usage; nil means none
	observe func(intent, outcome string, took time.Duration)
	now     func() time.Time
	rows    []intent.Row // the intent table (Add), help and unknown last
	cfg     Config
	kb      *knowledge.Base
	mkt     advisor.Market // kb's market, prepared once (its engine cache)
	parser  *parse.Parser
	log     *slog.Logger
	threads *thread.Store  // nil: every message stands alone
	policy  platformPolicy // team profiles; nil: every platform (profile_filter.go)
}

// Handler answers one intent that needs more than the engine: the team's
// ledger, channel subscriptions. It fills a (lang, slots already set) and
// returns an error the bot explains (advisor.InputError) or logs.
type Handler interface {
	Handle(ctx context.Context, m Message, req parse.Request, a *Answer) error
}

// Route makes h answer id, replacing the row's handler. An id with no row
// gets a bare write row (tests that route one handler); the wiring adds
// whole rows instead (Add).
func (b *Bot) Route(id parse.Intent, h Handler) {
	r, ok := b.row(id)
	if !ok {
		r = intent.Row{ID: id, Writes: true}
	}
	r.Handler = h
	if err := b.Add(r); err != nil {
		panic(err) // a handler is always callable; only a bare row could clash, and it has no words
	}
}

// priceSource is where current offers come from (the live catalogue).
type priceSource interface {
	Offers(ctx context.Context) ([]knowledge.Offer, error)
}

// usageSource is the team's GPU usage over the last 30 days (the ledger).
type usageSource interface {
	Usage(ctx context.Context, team string, now time.Time, fleet map[string]int) ([]ledger.CardUsage, error)
}

// UseUsage lets monthly and buy answers default to the team's measured
// hours and utilisation (and say so).
func (b *Bot) UseUsage(u usageSource) { b.usage = u }

// SetClock replaces the bot's clock (tests; time.Now by default).
func (b *Bot) SetClock(now func() time.Time) { b.now = now }

// UsePrices makes answers price from p instead of the shipped offers.
func (b *Bot) UsePrices(p priceSource) { b.prices = p }

// New builds a bot over the shipped knowledge.
func New(cfg Config, kb *knowledge.Base, log *slog.Logger) *Bot {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &Bot{cfg: cfg, kb: kb, log: log, now: time.Now, rows: fixedRows()}
	if kb != nil {
		b.mkt = advisor.MarketOf(kb) // prepared: every answer reuses its figures
	}
	if err := b.Add(Rows()...); err != nil {
		panic(err) // the bot's own rows, checked by TestIntentTable (cmd/bot)
	}
	return b
}

// Parse exposes the parser, for transports that need the intent early.
func (b *Bot) Parse(m Message) parse.Request {
	if m.Slash {
		return b.parser.ParseAt("/gpu "+m.Text, b.now())
	}
	return b.parser.ParseAt(m.Text, b.now())
}

// Answer parses and answers one message.
func (b *Bot) Answer(ctx context.Context, m Message) (a Answer) {
	if b.observe != nil && !m.Variant {
		start := b.now()
		defer func() { b.observe(string(a.Intent), outcome(a), b.now().Sub(start)) }()
	}
	return b.answer(ctx, m)
}

// outcome classifies an answer for metrics.
func outcome(a Answer) string {
	switch a.Err {
	case "":
		return "ok"
	case "internal":
		return "error"
	case "not_saved":
		return "not_saved"
	}
	return "input_error"
}

// Observe makes the bot report every answer's intent, outcome (ok,
// input_error, not_saved, error) and time taken (metrics).
func (b *Bot) Observe(f func(intent, outcome string, took time.Duration)) { b.observe = f }

func (b *Bot) answer(ctx context.Context, m Message) Answer {
	req := b.ParseInContext(ctx, m)
	if m.Locale != "" && neutral(m) {
		req.Lang = string(present.LangOf(m.Locale))
	}
	if clauses := splitEntries(req); clauses != nil {
		return b.answerEntries(ctx, m, clauses) // several entries in one message (spend_multi.go)
	}
	req, planned := plan(req)
	b.remember(ctx, m, req)
	req = contextFromRequests(normalizeQuotes(req))
	a := Answer{Intent: req.Intent, Confidence: req.Confidence, Lang: req.Lang, Slots: req.Slots, Assumed: map[string]any{}, question: m.Text}
	if fa, ok := b.fitWithFallback(ctx, a, req); ok { // "bf16能跑吗？不行的话QLoRA呢" (fitalt.go)
		fa = b.finish(fa)
		fa.account(req, planned)
		fa.typed(req.Slots)
		return fa
	}
	if len(req.Problems) > 0 {
		a = b.problem(a, req.Problems[0])
		a.account(req, planned)
		a.typed(req.Slots)
		return a
	}
	have, asked := haveCards(req), req
	settle := func(a Answer) Answer {
		if have > 0 {
			a.use("cards", "your card count: the verdict")
		}
		a.account(asked, planned)
		a.typed(asked.Slots)
		if have > 0 {
			a.fleetVerdict(have)
		} else if g := cardAsked(asked); g != "" {
			a.cardVerdict(g)
		}
		a.budgetVerdict()
		a.leadWithAsked()
		b.inBothCurrencies(&a, asked)
		return a
	}
	if have > 0 {
		req.Slots.Cards = 0 // the fleet is sized for the load, then compared with theirs
	}
	done := func(a Answer) Answer { return settle(b.finish(a)) }
	row, _ := b.row(req.Intent)
	h, ok := row.Handler.(Handler)
	if !ok {
		unknown, _ := b.row(parse.Unknown)
		h = unknown.Handler.(Handler)
	}
	var fitLead *Answer
	if fitAndSpeed(asked) { // "will it fit on 2× 4090, and what tok/s?" (fitspeed.go)
		if fit, holds, ok := b.fitFirst(ctx, a, asked); ok { // their own card count, not the fleet's sizing
			if !holds {
				d := fit.Doc
				d.Body = append(d.Body, speedNotWorked(fit.Lang))
				fit.show(d)
				return done(fit)
			}
			fitLead = &fit
		}
	}
	if err := h.Handle(ctx, m, req, &a); err != nil {
		return settle(b.fail(ctx, a, m, err))
	}
	a = done(a)
	if fitLead != nil {
		a.leadWithFit(*fitLead)
	}
	return a
}

// problem answers a value the parser could not read: what was wrong, and the
// right form.
func (b *Bot) problem(a Answer, p parse.Problem) Answer {
	a.Ephemeral = true
	a.Err = p.Reason
	a.Text = present.ErrorText(present.LangOf(a.Lang), &intent.Error{Code: intent.EINVALID, Field: p.Field,
		Message: p.Reason, MessageZH: present.ReasonZH(p.Field, p.Reason), Hint: p.Hint})
	a.say(a.Text)
	return a
}

// fail turns an error into a reply: the engine's input errors are
// explained to the user (a missing value is asked for), any error that
// carries an *intent.Error is said by present.ErrorText with its code in
// a.Err, and anything else is logged and answered with a short apology.
func (b *Bot) fail(ctx context.Context, a Answer, m Message, err error) Answer {
	a.Ephemeral = true
	var in *advisor.InputError
	if errors.As(err, &in) {
		a.Err = in.Error()
		if isMissing(a.Slots.Missing, in.Field) { // a follow-up question, not an error
			a.Text = present.AskText(present.LangOf(a.Lang), in)
		} else {
			a.Text = present.ErrorText(present.LangOf(a.Lang), in)
		}
		a.say(a.Text)
		return a
	}
	err = userError(err)
	if code := intent.ErrorCode(err); code != intent.EINTERNAL {
		a.Err = code
		a.Text = present.ErrorText(present.LangOf(a.Lang), err)
		a.say(a.Text)
		return a
	}
	b.log.ErrorContext(ctx, "answer", "intent", a.Intent, "user", m.User, "err", err)
	a.Err = intent.EINTERNAL
	a.Text = present.ErrorText(present.LangOf(a.Lang), err)
	a.say(a.Text)
	return a
}

// neutral reports whether a message's words do not pick a language: a
// /gpu command with no Chinese in it ("/gpu fit 13b lora") reads the same
// to everyone, while a sentence is answered in the language it is in.
func neutral(m Message) bool {
	if !m.Slash && !strings.HasPrefix(strings.TrimSpace(m.Text), "/gpu") {
		return false
	}
	for _, r := range m.Text {
		if unicode.Is(unicode.Han, r) {
			return false
		}
	}
	return true
}

// fieldZH names the slots in Chinese (present.FieldsZH, where errors are
// worded; accounting's "not used" line reads it too).
var fieldZH = present.FieldsZH

// isMissing reports whether field is one the router saw missing (entries
// may name alternatives, "tokens|samples").
func isMissing(missing []string, field string) bool {
	for _, m := range missing {
		for _, alt := range strings.Split(m, "|") {
			if alt == field {
				return true
			}
		}
	}
	return false
}
