package transport

import (
	"context"
	"slices"
	"strings"
	"unicode"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/bot/slackpost"
)

// The Home tab's buttons open modals; a modal's submission is spelled out
// as the /gpu command a user would type (compose) and answered by the same
// handler, so a spend entry from the modal is booked exactly as a typed
// one, with the same checks, idempotency and rights. Clicks only open
// modals: nothing is written until the user submits one.
//
// A submission is checked before the modal closes, within Slack's 3
// seconds: required fields, then the parser (pure, no I/O) on the spelled
// command — values it cannot read, values it needs, a command that reads
// as something else. Problems go back with response_action "errors" on the
// field they concern; the modal stays open with what was typed. A
// submission that passes closes the modal and is answered in the user's DM
// with the bot, and the Home tab is published again.

// formField is one input of a form.
type formField struct {
	id       string // block id, and the slot names the parser's problems use (slots)
	en, zh   string // label
	hint     string // placeholder, both languages
	optional bool
	options  []string // a static select's values (the first is the default); nil: text
	slots    []string // parser fields and missing slots reported on this input
}

// form is one modal: its fields, what it is for, and the command it spells.
type form struct {
	name       string
	titleEn    string // at most 24 characters with titleZh (Slack)
	titleZh    string
	intent     parse.Intent
	fields     []formField
	compose    func(v map[string]string, meta string) string
	submitEn   string
	submitZh   string
	confirmEn  string // a form without fields says what it will do
	confirmZh  string
	refuseMode string // parsed modes this form must not run, space-separated (watch list/off from the add form)
}

var forms = map[string]form{
	"spend": {name: "spend", titleEn: "Log spend", titleZh: "记一笔", intent: parse.Spend, submitEn: "Save", submitZh: "保存",
		fields: []formField{
			{id: "card", en: "Card", zh: "卡型", hint: "4090, h100, a100-80g", slots: []string{"gpu", "gpus"}},
			{id: "hours", en: "Hours", zh: "小时数", hint: "40", slots: []string{"hours"}},
			{id: "cards", en: "How many cards", zh: "卡数", hint: "1", optional: true, slots: []string{"cards"}},
			{id: "amount", en: "Amount (empty: priced from the catalogue)", zh: "金额（留空则按目录价估算）", hint: "¥75, $12.50", optional: true, slots: []string{"amount"}},
			{id: "platform", en: "Platform", zh: "平台", hint: "autodl, aliyun, lambda", optional: true, slots: []string{"platform"}},
			{id: "project", en: "Project", zh: "项目", hint: "llm-ft", optional: true, slots: []string{"project"}},
			{id: "date", en: "Date (empty: today)", zh: "日期（留空为今天）", hint: "2026-11-03", optional: true, slots: []string{"date"}},
		},
		compose: func(v map[string]string, _ string) string {
			c := []string{"spend add"}
			if n := v["cards"]; n != "" {
				c = append(c, strings.TrimSuffix(strings.ToLower(n), "x")+"x")
			}
			c = append(c, v["card"], hoursOf(v["hours"]))
			if p := v["platform"]; p != "" {
				c = append(c, "@"+strings.TrimPrefix(p, "@"))
			}
			c = append(c, v["amount"])
			if p := v["project"]; p != "" {
				c = append(c, "project="+p)
			}
			if d := v["date"]; d != "" {
				c = append(c, "date="+d)
			}
			return strings.Join(strings.Fields(strings.Join(c, " ")), " ")
		}},
	"budget": {name: "budget", titleEn: "Set a budget", titleZh: "设置预算", intent: parse.Budget, submitEn: "Save", submitZh: "保存",
		fields: []formField{
			{id: "amount", en: "Amount", zh: "金额", hint: "¥100k, $20,000", slots: []string{"amount", "budget"}},
			{id: "period", en: "Per", zh: "周期", options: []string{"month", "quarter", "year"}},
			{id: "project", en: "Project (empty: the whole team)", zh: "项目（留空为整个团队）", hint: "pretrain", optional: true, slots: []string{"project"}},
			{id: "alerts", en: "Alert at (% of the budget)", zh: "提醒阈值（预算的 %）", hint: "60,90", optional: true, slots: []string{"alerts"}},
		},
		compose: func(v map[string]string, _ string) string {
			c := []string{"budget set", v["project"], v["amount"] + "/" + v["period"]}
			if al := v["alerts"]; al != "" {
				c = append(c, "alerts="+strings.ReplaceAll(al, " ", ""))
			}
			return strings.Join(strings.Fields(strings.Join(c, " ")), " ")
		}},
	"watch": {name: "watch", titleEn: "Watch a price", titleZh: "价格提醒", intent: parse.Watch, submitEn: "Watch", submitZh: "提醒我", refuseMode: "list off",
		fields: []formField{
			{id: "what", en: "Card, platform and price", zh: "卡型、平台与价格", hint: "h100 < $2/h · 4090 @autodl 降价", slots: []string{"gpu", "gpus", "amount", "platform", "mode"}},
		},
		compose: func(v map[string]string, _ string) string { return "watch " + v["what"] }},
	"settings": {name: "settings", titleEn: "Team settings", titleZh: "团队设置", intent: parse.Settings, submitEn: "Save", submitZh: "保存",
		fields: []formField{
			{id: "settings", en: "Settings to change", zh: "要修改的设置", hint: "currency=CNY fx=7.2 platforms=aliyun,autodl", slots: []string{"currency", "fx", "platforms", "cards", "channel"}},
		},
		compose: func(v map[string]string, _ string) string { return "settings " + v["settings"] }},
	"unwatch": {name: "unwatch", titleEn: "Stop a watch", titleZh: "取消提醒", intent: parse.Watch, submitEn: "Stop it", submitZh: "取消",
		confirmEn: "Stop price watch #%s? You can set it again any time.", confirmZh: "取消价格提醒 #%s？之后可随时重新设置。",
		compose: func(_ map[string]string, meta string) string { return "watch off " + meta }},
}

// hoursOf spells an hours field as the parser reads it: "40" → "40h";
// "40h", "40 小时" and "2026-11-01 09:00 to 13:00" stay as typed.
func hoursOf(s string) string {
	s = strings.TrimSpace(s)
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' }) < 0 {
		return s + "h"
	}
	return s
}

// formCallback is a modal's callback_id.
func formCallback(name string) string { return actionPrefix + "form." + name }

// modalView builds form f's modal in lang, meta kept in private_metadata.
func (f form) modalView(lang, meta string) slack.ModalViewRequest {
	title := f.titleEn + " · " + f.titleZh
	if len([]rune(title)) > 24 { // Slack's limit
		title = tr(lang, f.titleEn, f.titleZh)
	}
	var blocks []slack.Block
	if f.confirmEn != "" {
		blocks = append(blocks, present.Section(escape(strings.ReplaceAll(tr(lang, f.confirmEn, f.confirmZh), "%s", meta))))
	}
	for _, fd := range f.fields {
		label := present.Plain(fd.en + " · " + fd.zh)
		var el slack.BlockElement
		if fd.options != nil {
			var opts []*slack.OptionBlockObject
			for _, o := range fd.options {
				opts = append(opts, slack.NewOptionBlockObject(o, present.Plain(o), nil))
			}
			sel := slack.NewOptionsSelectBlockElement(slack.OptTypeStatic, nil, fd.id, opts...)
			sel.InitialOption = opts[0]
			el = sel
		} else {
			in := slack.NewPlainTextInputBlockElement(present.Plain(fd.hint), fd.id)
			in.MaxLength = 200
			el = in
		}
		ib := slack.NewInputBlock(fd.id, label, nil, el)
		ib.Optional = fd.optional
		blocks = append(blocks, ib)
	}
	return slack.ModalViewRequest{Type: slack.VTModal, Title: present.Plain(title), CallbackID: formCallback(f.name),
		Submit: present.Plain(tr(lang, f.submitEn, f.submitZh)), Close: present.Plain(tr(lang, "Cancel", "取消")),
		PrivateMetadata: meta, Blocks: slack.Blocks{BlockSet: blocks}}
}

// homeAction opens the form a Home tab button names, with the click's
// trigger_id (valid for 3 seconds: this runs at once, off the queue's
// conversations).
func (a *App) homeAction(ctx context.Context, cb slack.InteractionCallback, act *slack.BlockAction) {
	h := a.cfg.Home
	if h == nil || h.Views == nil || cb.TriggerID == "" {
		return
	}
	name, meta := strings.TrimPrefix(act.ActionID, homePrefix), ""
	if strings.HasPrefix(act.ActionID, homeUnwatch) {
		name, meta = "unwatch", strings.TrimPrefix(act.ActionID, homeUnwatch)
	}
	f, ok := forms[name]
	if !ok {
		a.log.WarnContext(ctx, "unknown home button", "action", act.ActionID, "user", cb.User.ID)
		return
	}
	lang := askerLang("", a.locale(ctx, cb.Team.ID, cb.User.ID, ""))
	if _, err := h.Views.OpenViewContext(ctx, cb.TriggerID, f.modalView(lang, meta)); err != nil {
		a.log.WarnContext(ctx, "modal not opened", "form", name, "user", cb.User.ID, "err", err)
	}
}

// submission checks a submitted form at once and returns Slack's answer to
// it: response_action "errors" (the modal stays open), or nil after
// queueing the command it spells (the modal closes).
func (a *App) submission(cb slack.InteractionCallback) *slack.ViewSubmissionResponse {
	name, ok := strings.CutPrefix(cb.View.CallbackID, actionPrefix+"form.")
	f, known := forms[name]
	if !ok || !known || a.cfg.Home == nil {
		return nil
	}
	values := map[string]string{}
	if cb.View.State != nil {
		for block, acts := range cb.View.State.Values {
			for _, act := range acts {
				v := act.Value
				if act.SelectedOption.Value != "" {
					v = act.SelectedOption.Value
				}
				values[block] = strings.Join(strings.Fields(v), " ") // one line: a field never adds a second command
			}
		}
	}
	team, user := cb.Team.ID, cb.User.ID
	lang := askerLang(strings.Join(mapValues(values), " "), "")
	errs := map[string]string{}
	for _, fd := range f.fields {
		if !fd.optional && values[fd.id] == "" {
			errs[fd.id] = tr(lang, "Required", "必填")
		}
	}
	if len(errs) > 0 {
		return slack.NewErrorsViewSubmissionResponse(errs)
	}
	text := f.compose(values, cb.View.PrivateMetadata)
	msg := bot.Message{Text: text, Slash: true, Team: team, User: user, Channel: user, ID: "modal:" + cb.View.ID}
	req := a.bot.Parse(msg)
	first := ""
	if len(f.fields) > 0 {
		first = f.fields[0].id
	}
	blockFor := func(slot string) (string, bool) {
		for _, fd := range f.fields {
			if slices.Contains(fd.slots, slot) {
				return fd.id, true
			}
		}
		return first, false
	}
	add := func(block, text string) {
		if block == "" {
			return
		}
		if errs[block] != "" {
			errs[block] += " "
		}
		errs[block] += clip(text, 300)
	}
	switch {
	case req.Intent != f.intent:
		add(first, tr(lang, "This doesn't read as a "+f.titleEn+" entry: /gpu "+text+". Check the fields.", "这读不成"+f.titleZh+"：/gpu "+text+"。请检查各栏。"))
	case slices.Contains(strings.Fields(f.refuseMode), req.Slots.Mode):
		add(first, tr(lang, "Use the Stop button beside a watch to stop it.", "取消提醒请用每个提醒旁的「取消」按钮。"))
	}
	for _, p := range req.Problems {
		msg := p.Reason
		if p.Hint != "" {
			msg += tr(lang, ". Try: ", "。例如：") + p.Hint
		}
		block, _ := blockFor(p.Field)
		add(block, msg)
	}
	// A slot the command needs ("amount|hours": either will do) is said on
	// the first of its fields the form has.
	for _, m := range req.Slots.Missing {
		block := first
		for _, s := range strings.Split(m, "|") {
			if b, ok := blockFor(s); ok {
				block = b
				break
			}
		}
		add(block, tr(lang, "Needed: "+strings.ReplaceAll(m, "|", " or "), "还需要："+strings.ReplaceAll(m, "|", " 或 ")))
	}
	if len(errs) > 0 && len(f.fields) > 0 {
		return slack.NewErrorsViewSubmissionResponse(errs)
	}
	if !a.enqueue("modal", "", func(ctx context.Context) { a.answerModal(ctx, cb, msg) }) {
		if first == "" {
			return nil // nothing to show the error on; Slack says the submission failed
		}
		return slack.NewErrorsViewSubmissionResponse(map[string]string{first: tr(lang, "I'm swamped right now; please submit again in a minute.", "我现在太忙了，请一分钟后再提交。")})
	}
	return nil
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// answerModal answers a submitted form's command in the user's DM with the
// bot (chat.postMessage to the user's id) and publishes the Home tab again.
func (a *App) answerModal(ctx context.Context, cb slack.InteractionCallback, msg bot.Message) {
	if !a.claim(ctx, triggerKey("modal", cb.View.ID+":"+cb.View.Hash)) {
		return // a Socket Mode redelivery
	}
	msg.Locale = a.locale(ctx, msg.Team, msg.User, "")
	onPanic(ctx, askerLang(msg.Text, msg.Locale), func(ctx context.Context, a *App, text string) {
		if _, err := a.post.Post(ctx, slackpost.Message{Channel: msg.User, Text: text, Key: "crash:" + msg.ID}); err != nil {
			a.log.ErrorContext(ctx, "crash not reported to the asker", "user", msg.User, "err", err)
		}
	})
	ans := a.bot.Answer(ctx, msg)
	rep := compose(ans, state{Q: msg.Text, Slash: true, Asker: msg.User}, false)
	lang := present.LangOf(ans.Lang)
	from := present.Context(escape(lang.Pick("From the Home tab: /gpu ", "来自主页：/gpu ") + clip(msg.Text, 200)))
	m := slackpost.Message{Channel: msg.User, Text: rep.Text, Blocks: present.Limit(append([]slack.Block{from}, rep.Blocks...), 0), Key: "modal:" + cb.View.ID}
	if _, err := a.post.Post(ctx, m); err != nil {
		a.log.ErrorContext(ctx, "form answer not delivered", "team", msg.Team, "user", msg.User, "err", err)
	}
	a.home(ctx, msg.Team, msg.User)
}
