package watch

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// Handler answers /gpu watch, /gpu watch list and /gpu watch off.
type Handler struct {
	Store  *Store
	Prices func(ctx context.Context) ([]knowledge.Offer, error)
	KB     *knowledge.Base
	FX     float64
	Now    func() time.Time
	// Persist, when set, snapshots the embedded store after a change (the
	// embedded mode keeps state in BOT_DATA_DIR).
	Persist func(context.Context) error
}

// Result is the machine-readable answer (bot ask --json's "result").
type Result struct {
	Mode    string  `json:"mode"` // below, low, list, off
	Watches []Watch `json:"watches"`
	// Now is the price the watch compares with at the moment it was set.
	Now *advisor.CardPrice `json:"now,omitempty"`
}

// Handle answers one watch command. The parser has already refused a
// command it could not read.
func (h *Handler) Handle(ctx context.Context, m bot.Message, req parse.Request, a *bot.Answer) error {
	lang := a.Lang
	team, user := m.Team, m.User
	if team == "" {
		team = "local" // the console and bot ask
	}
	if user == "" {
		user = "console"
	}
	say := func(text string, ephemeral bool) { a.Text, a.Ephemeral = text, ephemeral }
	s := req.Slots
	switch s.Mode {
	case "list":
		mine, err := h.Store.Of(ctx, team, user)
		if err != nil {
			return err
		}
		a.Result = Result{Mode: "list", Watches: mine}
		if len(mine) == 0 {
			say(tr(lang, "You have no price watches. Set one: /gpu watch h100 < $2/h", "你还没有价格提醒。设置示例：/gpu watch h100 < $2/h"), true)
			return nil
		}
		lines := []string{tr(lang, "Your price watches:", "你的价格提醒：")}
		for _, w := range mine {
			lines = append(lines, fmt.Sprintf("• #%s %s", w.ID, What(w, h.KB)))
		}
		lines = append(lines, tr(lang, "Stop one with /gpu watch off <id>, all with /gpu watch off all.", "取消：/gpu watch off <编号>，全部取消：/gpu watch off all"))
		say(strings.Join(lines, "\n"), true)
		return nil
	case "off":
		id := "all"
		if len(s.Args) > 0 {
			id = strings.TrimPrefix(s.Args[0], "#")
		}
		gone, err := h.Store.Remove(ctx, team, user, id)
		if errors.Is(err, ErrNotFound) {
			return &advisor.InputError{Field: "watch", Reason: tr(lang, "you have no watch #"+id+" (see /gpu watch list)", "没有编号为 #"+id+" 的提醒（见 /gpu watch list）"), Hint: "/gpu watch off 3"}
		}
		if err != nil {
			return err
		}
		if err := h.persist(ctx); err != nil {
			return err
		}
		a.Result = Result{Mode: "off", Watches: gone}
		say(tr(lang, fmt.Sprintf("Stopped %d price watch(es).", len(gone)), fmt.Sprintf("已取消 %d 个价格提醒。", len(gone))), true)
		return nil
	}
	w := Watch{Team: team, User: user, Channel: m.Channel, GPU: s.GPUs[0], Platform: s.Platform, Mode: s.Mode, Lang: lang, Created: h.now()}
	w.Currency = "USD"
	if present.LangOf(lang) == present.ZH {
		w.Currency = "CNY"
	}
	if s.Amount != nil {
		w.Threshold = s.Amount.Amount
		if s.Amount.Currency != "" {
			w.Currency = s.Amount.Currency
		}
	}
	offers, err := h.Prices(ctx)
	if err != nil {
		return err
	}
	cp, priced := Best(w, offers, h.FX)
	nowPrice := 0.0
	if priced {
		nowPrice = cp.Low
	}
	w, err = h.Store.Add(ctx, w, nowPrice)
	if err != nil {
		return err
	}
	if err := h.persist(ctx); err != nil {
		return err
	}
	res := Result{Mode: w.Mode, Watches: []Watch{w}}
	where := tr(lang, "here", "这里")
	if strings.HasPrefix(m.Channel, "D") || m.Channel == "" {
		where = tr(lang, "in a DM", "私信")
	}
	lines := []string{tr(lang, "Watching ", "已设置提醒 #"+w.ID+"：") + What(w, h.KB) + tr(lang, " (#"+w.ID+").", "。")}
	if priced {
		res.Now = &cp
		when := knowledge.Offer{ObservedAt: cp.ObservedAt}.FreshnessLabel(lang, h.now())
		lines = append(lines, tr(lang, "Now: ", "当前：")+money(cp.Low, string(cp.Currency))+tr(lang, "/card-hour at ", "/卡时，")+
			platformName(h.KB, cp.Platform, lang)+" ("+when+").")
	} else {
		lines = append(lines, tr(lang, "No on-demand price for it yet; the first one that appears is the start.", "目前还没有按需报价；出现第一个报价后开始比较。"))
	}
	switch {
	case w.Mode == Below && priced && nowPrice < w.Threshold:
		lines = append(lines, tr(lang, "It is already under: I'll tell you "+where+" the next time it goes under after rising above.",
			"现在已经低于阈值：等它回到阈值以上后再次跌破时，我会在"+where+"提醒你。"))
	case w.Mode == Below:
		lines = append(lines, tr(lang, "I'll tell you "+where+" once when it first goes under, and again each time it crosses back under.",
			"第一次跌破时我会在"+where+"提醒你一次；回升后再次跌破会再提醒。"))
	default:
		lines = append(lines, tr(lang, "I'll tell you "+where+" each time it reaches a new low.", "每次创新低时我会在"+where+"提醒你。"))
	}
	a.Result = res
	say(strings.Join(lines, "\n"), false)
	return nil
}

func (h *Handler) now() time.Time {
	if h.Now == nil {
		return time.Now()
	}
	return h.Now()
}

func (h *Handler) persist(ctx context.Context) error {
	if h.Persist == nil {
		return nil
	}
	return h.Persist(ctx)
}

// Row is the intent table's row for price watches, answered by h (nil: facts
// only, for help and tests). Its words are the lexicon's (intents: watch).
func Row(h *Handler) intent.Row {
	r := intent.Row{ID: parse.Watch, Example: "/gpu watch h100 < $2/h", Writes: true,
		Help: "price alerts: below a threshold or a new low", HelpZH: "价格提醒：跌破阈值或创新低"}
	if h != nil {
		r.Handler = h
	}
	return r
}
