// Package sources answers /gpu sources: where the prices in every answer
// come from and how fresh each source is — the catalogue's status, which
// operators read with `gpubot catalog status`, for the people who read the
// prices in Slack. It is read-only and a whole intent in one package: its
// row (Row), its handler and its rendering; its words are the lexicon's
// (intents: sources).
package sources

import (
	"context"
	"strings"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// ID is the intent's id.
const ID intent.ID = "sources"

// Row is the intent table's row for /gpu sources, answered by h (nil:
// facts only).
func Row(h *Handler) intent.Row {
	r := intent.Row{ID: ID, Example: "/gpu sources",
		Help: "where prices come from and how fresh they are", HelpZH: "价格从哪里来、多久前更新"}
	if h != nil {
		r.Handler = h
	}
	return r
}

// Handler answers /gpu sources from the catalogue's status.
type Handler struct {
	// Status lists the catalogue's sources (*catalog.Catalog.Status).
	Status func(ctx context.Context) ([]catalog.SourceStatus, error)
	Now    func() time.Time // nil: time.Now
}

// Source is one source in the answer's result.
type Source struct {
	Name        string    `json:"name"`
	Offers      int       `json:"offers"`
	LastSuccess time.Time `json:"last_success,omitzero"`
	StaleSince  time.Time `json:"stale_since,omitzero"`
}

// Handle answers one /gpu sources command. A source's error text is for
// operators (it may name hosts) and is never shown; a stale source says
// since when, and that its last good offers are still used.
func (h *Handler) Handle(ctx context.Context, _ bot.Message, _ parse.Request, a *bot.Answer) error {
	srcs, err := h.Status(ctx)
	if err != nil {
		return &intent.Error{Code: intent.EUNAVAILABLE, Err: err,
			Message: "the price catalogue cannot be read just now", MessageZH: "暂时读不到价格目录"}
	}
	now := time.Now()
	if h.Now != nil {
		now = h.Now()
	}
	lang := present.LangOf(a.Lang)
	var lines []string
	var out []Source
	stale := 0
	for _, s := range srcs {
		out = append(out, Source{Name: s.Name, Offers: s.Offers, LastSuccess: s.LastSuccess, StaleSince: s.StaleSince})
		lines = append(lines, "• "+line(lang, s, now))
		if s.Stale() {
			stale++
		}
	}
	n := present.Num(float64(len(srcs)))
	head := lang.Pick("Prices come from "+n+" sources.", "价格来自 "+n+" 个来源。")
	switch {
	case !anyFetched(srcs):
		head = lang.Pick("No price source has been fetched yet: answers use the prices the bot ships with.",
			"还没有获取过任何价格来源：回答使用机器人自带的价格。")
	case stale > 0:
		k := present.Num(float64(stale))
		head = lang.Pick("Prices come from "+n+" sources; "+k+" failed its last refresh and shows its last good offers.",
			"价格来自 "+n+" 个来源，其中 "+k+" 个最近一次刷新失败，仍使用上次成功获取的报价。")
	}
	a.Result = map[string]any{"sources": out}
	a.Text = head + "\n" + strings.Join(lines, "\n")
	return nil
}

// line is one source: its offers and when it last succeeded.
func line(lang present.Lang, s catalog.SourceStatus, now time.Time) string {
	offers := present.Num(float64(s.Offers))
	switch {
	case s.LastSuccess.IsZero():
		return s.Name + lang.Pick(" — not fetched yet", " — 尚未获取")
	case s.Stale():
		return s.Name + lang.Pick(" — "+offers+" offers, stale since "+present.Date(s.StaleSince, lang),
			" — "+offers+" 条报价，自 "+present.Date(s.StaleSince, lang)+" 起未能更新")
	}
	age := present.Age(lang, s.LastSuccess.Format(time.RFC3339), now)
	return s.Name + lang.Pick(" — "+offers+" offers, updated "+age, " — "+offers+" 条报价，"+age+"更新")
}

// anyFetched reports whether any source has ever been read; until one
// has, the catalogue serves the offers shipped with the bot.
func anyFetched(srcs []catalog.SourceStatus) bool {
	for _, s := range srcs {
		if !s.LastSuccess.IsZero() {
			return true
		}
	}
	return false
}
