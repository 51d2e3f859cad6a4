package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// Spend answers /gpu spend add|list|report|undo|delete and "记一笔…"
// sentences from the team's ledger.
type Spend struct {
	ledger *ledger.Ledger
	auth   *ledger.Authorizer
	fx     float64
	now    func() time.Time
	onSave func(outcome string) // ledger write metric (see ObserveWrites)
	log    *slog.Logger
	// settleWithin bounds how long an answer waits to learn what became of
	// an unconfirmed write; settleLater, how long checking goes on after it.
	settleWithin, settleLater time.Duration
	notify                    func(ctx context.Context, channel, user, text string) error
	// teamFX reads the team's settings (currency=, fx=); nil or zero values
	// fall back to the asker's language and the bot's FX.
	teamFX func(ctx context.Context, team string) (knowledge.Currency, float64)
	// budgetNotes lists the budget alerts now due (see UseBudgetNotes).
	budgetNotes func(ctx context.Context, team, lang string) []string
	// budgetLines sets each budget of a period against its actual spend
	// and forecast (see UseBudgetLines).
	budgetLines func(ctx context.Context, team, lang string, p ledger.Period) []string
	// storedBudget is the stored budget of a scope (see UseStoredBudget).
	storedBudget func(ctx context.Context, team, project, costCenter string, months int) (ledger.Money, bool)
	// Settlements still checking in the background; Shutdown ends them,
	// telling each asker (issue #28 item 7: SIGTERM used to leave them
	// with "⏳ Checking… don't send it again" and nothing logged).
	settling     sync.WaitGroup
	stopOnce     sync.Once
	stopSettling chan struct{}
}

// UseBudgetNotes makes the reply to a ledger write say which budget
// alerts it made due (a threshold crossed, a forecast over): f returns
// them as sentences in lang.
func (s *Spend) UseBudgetNotes(f func(ctx context.Context, team, lang string) []string) {
	s.budgetNotes = f
}

// UseBudgetLines makes spend reports end with budget vs actual: f
// returns one sentence per budget of the report's period, in lang.
func (s *Spend) UseBudgetLines(f func(ctx context.Context, team, lang string, p ledger.Period) []string) {
	s.budgetLines = f
}

// withBudget appends the budget alerts a write made due to its reply.
func (s *Spend) withBudget(ctx context.Context, team string, a *Answer) {
	if s.budgetNotes == nil {
		return
	}
	if notes := s.budgetNotes(ctx, team, a.Lang); len(notes) > 0 {
		a.Text += "\n" + strings.Join(notes, "\n")
	}
}

// UseTeamFX makes spend reports use each team's reporting currency and FX
// rate (/gpu settings currency=CNY fx=7.15) rather than the bot's.
func (s *Spend) UseTeamFX(f func(ctx context.Context, team string) (knowledge.Currency, float64)) {
	s.teamFX = f
}

// reportFX is the team's reporting currency and rate: its settings when
// it set them, else the asker's language (CNY for Chinese, USD for
// English) and the bot's FX.
func (s *Spend) reportFX(ctx context.Context, team, lang string) *ledger.FX {
	to, rate := knowledge.CNY, s.fx
	if lang == "en" {
		to = knowledge.USD
	}
	if s.teamFX != nil {
		cur, fx := s.teamFX(ctx, team)
		if cur == knowledge.CNY || cur == knowledge.USD {
			to = cur
		}
		if fx > 0 {
			rate = fx
		}
	}
	if rate <= 0 {
		return nil
	}
	if to == knowledge.USD {
		return &ledger.FX{To: knowledge.USD, Rates: map[knowledge.Currency]float64{knowledge.USD: 1, knowledge.CNY: 1 / rate}}
	}
	return &ledger.FX{To: knowledge.CNY, Rates: map[knowledge.Currency]float64{knowledge.CNY: 1, knowledge.USD: rate}}
}

// Notify sets how the asker hears the outcome of a write that was still
// unconfirmed when the answer went out (an ephemeral message in Slack).
func (s *Spend) Notify(f func(ctx context.Context, channel, user, text string) error) { s.notify = f }

// Write outcomes reported to ObserveWrites.
const (
	WriteOK          = "ok"          // stored and confirmed
	WriteNotSaved    = "not_saved"   // the store confirmed nothing was written
	WriteReplayed    = "replayed"    // a redelivered request: the entry was already there
	WriteUnconfirmed = "unconfirmed" // sent, outcome unknown: checking began
	WriteSettledOK   = "settled_ok"  // an unconfirmed write turned out stored
	WriteSettledVoid = "settled_not_saved"
	WriteUnsettled   = "unsettled" // still unknown when checking gave up (logged)
)

// ObserveWrites reports every ledger write's outcome (the Write* values).
func (s *Spend) ObserveWrites(f func(outcome string)) { s.onSave = f }

// Log sets where unconfirmed writes and their settlement are logged.
func (s *Spend) Log(l *slog.Logger) { s.log = l }

func (s *Spend) observe(outcome string) {
	if s.onSave != nil {
		s.onSave(outcome)
	}
}

// NewSpend builds the spend handler. now is the clock (time.Now in serve).
func NewSpend(l *ledger.Ledger, auth *ledger.Authorizer, fx float64, now func() time.Time) *Spend {
	if now == nil {
		now = time.Now
	}
	return &Spend{ledger: l, auth: auth, fx: fx, now: now, log: slog.New(slog.DiscardHandler),
		settleWithin: 10 * time.Second, settleLater: 10 * time.Minute, stopSettling: make(chan struct{})}
}

// Shutdown stops the background checking of unconfirmed writes: each one
// still unsettled is logged and its asker told that the bot is restarting,
// that the request books (or removes) at most once whatever happened, and
// how to see the outcome. It returns when every asker has been told, or
// when ctx ends first.
func (s *Spend) Shutdown(ctx context.Context) error {
	if s.stopSettling == nil {
		return nil // not made by NewSpend: nothing runs in the background
	}
	s.stopOnce.Do(func() { close(s.stopSettling) })
	done := make(chan struct{})
	go func() { s.settling.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("unconfirmed ledger writes still being reported at shutdown: %w", ctx.Err())
	}
}

func (s *Spend) stopping() bool {
	select {
	case <-s.stopSettling:
		return true
	default:
		return false
	}
}

const spendHint = "/gpu spend add 40h 4090 @autodl ¥75 project=llm-ft"

// Handle answers one spend request.
func (s *Spend) Handle(ctx context.Context, m Message, req parse.Request, a *Answer) error {
	team := m.Team
	if team == "" {
		team = "local" // console and CLI share one workspace
	}
	mode := req.Slots.Mode
	if mode == "" {
		mode = "report"
	}
	if refundWord(m.Text) && (mode == "add" || mode == "report" && req.Slots.Amount != nil) {
		mode = "refund" // the parser has no refund action yet: "spend refund ¥500" reads as add
	}
	var err error
	switch mode {
	case "add", "refund":
		err = s.add(ctx, team, m, req, a, mode == "refund")
	case "list":
		err = s.list(ctx, team, req, a)
	case "report":
		err = s.report(ctx, team, m, req, a)
	case "undo":
		err = s.undo(ctx, team, m, a)
	case "delete":
		err = s.delete(ctx, team, m, req, a)
	case "edit":
		err = s.edit(ctx, team, m, req, a)
	case "export":
		err = s.export(ctx, team, req, a)
	case "check":
		err = s.check(ctx, team, m, req, a)
	case "commitments":
		err = s.commitments(ctx, team, a)
	default:
		return &advisor.InputError{Field: "spend", Reason: fmt.Sprintf("unknown spend action %q; use add, list, report, commitments, edit, export, undo or delete", mode), Hint: spendHint}
	}
	return s.explain(a, err)
}

// explain turns ledger errors into answers: input problems with the right
// form, and a plain "NOT saved" when storage failed, never its details.
func (s *Spend) explain(a *Answer, err error) error {
	var in *ledger.InputError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &in):
		return &advisor.InputError{Field: in.Field, Reason: in.Reason, Hint: spendHint}
	case errors.As(err, new(*ledger.PriceError)):
		var pe *ledger.PriceError
		errors.As(err, &pe)
		dir, dirZh := "far above", "远高于"
		if pe.Price < pe.Low {
			dir, dirZh = "far below", "远低于"
		}
		return &advisor.InputError{Field: "price",
			Reason: tr(a.Lang,
				fmt.Sprintf("that is %s %.2f per %s, %s the catalogue's %.2f–%.2f for %s (accepted without asking: %.1f×–%.0f× that range); check the amount and its decimal separator. Not saved", pe.Currency, pe.Price, pe.Per, dir, pe.Low, pe.High, gpuName(pe.GPU), 0.2, 5.0),
				fmt.Sprintf("折合每%s %s %.2f，%s目录里 %s 的 %.2f–%.2f（不经确认可接受的范围是其 %.1f–%.0f 倍）；请检查金额和小数点。未保存", map[string]string{"card-hour": "卡时", "card-month": "卡月"}[pe.Per], pe.Currency, pe.Price, dirZh, gpuName(pe.GPU), pe.Low, pe.High, 0.2, 5.0)),
			Hint: tr(a.Lang, "if the amount is right, send the same again with the word confirm", "如果金额无误，请在原句后加上“确认”再发一次")}
	case errors.Is(err, ledger.ErrNotSaved):
		a.Ephemeral, a.Err = true, "not_saved"
		a.Text = tr(a.Lang, "⚠️ NOT saved: the spend ledger's storage is unavailable right now. Nothing was recorded; please try again in a minute.",
			"⚠️ 没有保存：账本存储暂时不可用，这条记录没有写入，请稍后再试。")
		a.say(a.Text)
		return nil
	case errors.Is(err, ledger.ErrNotFound):
		return &advisor.InputError{Field: "id", Reason: tr(a.Lang, "no such entry in this workspace", "本工作区没有这条记录"), Hint: "/gpu spend list"}
	case errors.Is(err, ledger.ErrForbidden):
		return &advisor.InputError{Field: "id", Reason: tr(a.Lang, "only workspace admins can delete other people's entries", "只有工作区管理员才能删除别人的记录"), Hint: "/gpu spend undo"}
	}
	return err
}

func (s *Spend) add(ctx context.Context, team string, m Message, req parse.Request, a *Answer, refund bool) error {
	sl := req.Slots
	if err := refuseNegative(m.Text, a.Lang); err != nil {
		return err
	}
	sl = ratedEntry(sl, m.Text, a)
	e := ledger.Entry{Team: team, Channel: m.Channel, User: m.User, Project: sl.Project, Platform: sl.Platform,
		Cards: sl.Cards, Hours: sl.Hours, Note: strings.Join(sl.Notes, "; "), Confirm: confirmWord(m.Text)}
	if refund {
		e.Kind, e.Cards, e.Hours = ledger.Refund, 0, 0
	}
	at, err := s.entryDate(sl, a)
	if err != nil {
		return err
	}
	e.At = at
	if len(sl.GPUs) > 0 {
		e.GPU = sl.GPUs[0]
	}
	if sl.Amount != nil {
		cur := knowledge.Currency(sl.Amount.Currency)
		if cur == "" {
			cur = knowledge.CNY
			if a.Lang == "en" {
				cur = knowledge.USD
			}
			a.Assumed["currency"] = string(cur)
		}
		e.Amount = ledger.MoneyFromFloat(sl.Amount.Amount, cur)
		if whole, ok, err := spaceGrouped(m.Text, cur); err != nil {
			return &advisor.InputError{Field: "amount", Reason: err.Error(), Hint: spendHint}
		} else if ok && whole.Minor != e.Amount.Minor {
			e.Amount = whole // "¥1 000" is a thousand yuan, not ¥1 followed by a stray 000
		}
	}
	if sl.QuotePer != "" && sl.Amount != nil {
		a.use("quote_per", "the amount is what the entry cost in all")
	}
	e.CostCenter = sl.Team
	if e.CostCenter == "" {
		e.CostCenter = teamWord(m.Text)
	}
	if e.CostCenter != "" {
		a.use("team", "the team or cost centre the entry is booked to")
	}
	if (invoiceWord(m.Text) || sl.Amount != nil) && e.Hours == 0 && !refund {
		// an invoice, or an amount paid with no hours ("$386.40, 12月1号"):
		// booked as paid, hours unknown (said in the reply; add them with
		// spend edit <id> hours=40)
		e.HoursUnknown = true
	}
	if sl.Billing != "" {
		b, ok := ledger.ParseBilling(sl.Billing)
		if !ok {
			return &advisor.InputError{Field: "billing", Reason: fmt.Sprintf("unknown billing %q; use on-demand, monthly or spot", sl.Billing), Hint: spendHint + " billing=monthly"}
		}
		e.Billing = b
		e.TermMonths = ledger.TermOf(sl.Billing)
	}
	if e.TermMonths == 0 && strings.Contains(m.Text, "包年") {
		e.Billing, e.TermMonths = ledger.Monthly, 12 // a year paid up front: spread over twelve months in the amortised view
	}
	if e.TermMonths == 1 {
		e.TermMonths = 0
	}
	if e.Billing == ledger.Monthly && e.Hours == 0 && !refund {
		e.HoursUnknown = true // a plan's fee says what was paid, not what ran: never "idle" without recorded usage
	}
	e.Key = m.ID // made before the first try: a redelivery of this message books nothing new
	if !anywayWord(m.Text) {
		// The same entry sent again as a new message (not a redelivery):
		// ask rather than count the run twice.
		if prev, ok, err := s.ledger.Repeat(ctx, e); err != nil {
			s.log.WarnContext(ctx, "repeat check unavailable", "team", team, "err", err)
		} else if ok {
			a.Result = prev
			a.Err = "repeat"
			a.Text = tr(a.Lang,
				fmt.Sprintf("This looks like #%s (%s ×%d, %s h, %s, added %s) — add anyway? Nothing was saved. If it is a second, separate run, send it again with the word anyway.",
					prev.ID, gpuName(prev.GPU), prev.Cards, fmtNum(prev.Hours), prev.Amount.String(), prev.CreatedAt.In(s.ledger.Location()).Format("2006-01-02 15:04")),
				fmt.Sprintf("这条和 #%s（%s ×%d，%s 小时，%s，记于 %s）一样——还要再记一笔吗？这次没有保存。如果确实是另一次运行，请加上“仍然”再发一次。",
					prev.ID, gpuName(prev.GPU), prev.Cards, fmtNum(prev.Hours), prev.Amount.String(), prev.CreatedAt.In(s.ledger.Location()).Format("2006-01-02 15:04")))
			a.say(a.Text)
			return nil
		}
	}
	saved, err := s.ledger.Add(ctx, e)
	checked := false
	var un *ledger.UnconfirmedError
	switch {
	case errors.As(err, &un):
		// Sent but not acknowledged: it may have landed. Never say "not
		// saved" here; find out first.
		s.observe(WriteUnconfirmed)
		s.log.WarnContext(ctx, "ledger write unconfirmed; settling", "team", team, "key", un.Key, "err", un.Err)
		saved, err = s.settle(ctx, un, m, a.Lang)
		if errors.As(err, &un) {
			a.Ephemeral, a.Err = true, "unconfirmed"
			a.Text = tr(a.Lang,
				"⏳ Checking… the spend ledger's storage did not answer in time, so I can't tell yet whether this entry was saved. Don't send it again: I'm still checking and it will be booked at most once. /gpu spend list shows it once storage answers.",
				"⏳ 正在核对……账本存储没有及时响应，暂时无法确认这条是否已保存。请不要重发：我会继续核对，这条最多只记一次。存储恢复后可用 /gpu spend list 查看。")
			a.say(a.Text)
			return nil
		}
		checked = true
	case err == nil && saved.Replayed:
		s.observe(WriteReplayed)
	case err == nil:
		s.observe(WriteOK)
	case errors.Is(err, ledger.ErrNotSaved):
		s.observe(WriteNotSaved)
		s.log.WarnContext(ctx, "ledger write not saved", "team", team, "err", err)
	}
	if err != nil {
		return err
	}
	a.Result = saved
	amount := saved.Amount.String()
	if !saved.Priced() {
		amount = tr(a.Lang, "no amount (give one, e.g. ¥75)", "未记金额（可补充，例如 ¥75）")
	}
	month := ledger.MonthOf(saved.At, s.ledger.Location()).String()
	if saved.IsRefund() {
		a.Text = tr(a.Lang,
			fmt.Sprintf("Saved refund #%s: %s back, project %s, on %s (booked to %s). It lowers that month's total; card-hours are unchanged. Undo with /gpu spend undo.",
				saved.ID, saved.Amount.String(), saved.Project, saved.At.Format("2006-01-02"), month),
			fmt.Sprintf("已记退款 #%s：退回 %s，项目 %s，日期 %s（计入 %s）。它冲减当月合计，不影响卡时。撤销：/gpu spend undo",
				saved.ID, saved.Amount.String(), saved.Project, saved.At.Format("2006-01-02"), month))
		a.say(a.Text)
		return nil
	}
	hours, hoursZh := fmtNum(saved.Hours)+" h", fmtNum(saved.Hours)+" 小时"
	if saved.HoursUnknown {
		hours, hoursZh = "hours unknown", "时长未知"
	}
	a.Text = tr(a.Lang,
		fmt.Sprintf("Saved #%s: %s, %s on %s, %s, project %s, %s, dated %s (booked to %s). Undo with /gpu spend undo.",
			saved.ID, cardsShown(a.Lang, saved), hours, platformShown(a.Lang, saved.Platform), amount, saved.Project, billingShown(a.Lang, saved), saved.At.Format("2006-01-02"), month),
		fmt.Sprintf("已记账 #%s：%s，%s，平台 %s，%s，项目 %s，%s，日期 %s（计入 %s）。撤销：/gpu spend undo",
			saved.ID, cardsShown(a.Lang, saved), hoursZh, platformShown(a.Lang, saved.Platform), amount, saved.Project, billingShown(a.Lang, saved), saved.At.Format("2006-01-02"), month))
	if saved.CostCenter != "" {
		a.Text += tr(a.Lang, " Team: "+saved.CostCenter+".", " 团队："+saved.CostCenter+"。")
	}
	if saved.Derived != "" {
		a.Text += "\n" + tr(a.Lang, "Amount from the catalogue: ", "金额按目录价估算：") + saved.Derived
	}
	a.Text += tr(a.Lang, " (estimated until a bill confirms it)", "（在账单确认前为估算）")
	switch {
	case saved.Replayed:
		a.Text = tr(a.Lang, "Already saved (this message was delivered twice; nothing new was booked). ", "已保存过（这条消息重复送达，没有重复记账）。") + a.Text
	case checked:
		a.Text = tr(a.Lang, "Storage was slow, so I checked: it was saved once. ", "存储响应慢，已核对：这条已保存且只记了一次。") + a.Text
	}
	if !saved.Replayed {
		s.withBudget(ctx, team, a)
	}
	a.say(a.Text)
	return nil
}

// reSpaceGrouped finds money written with spaces between thousands
// groups: "¥1 000", "$12 500.50", "1 000 元" (also no-break and thin
// spaces).
var reSpaceGrouped = regexp.MustCompile(`(?i)(?:[¥￥$]|us\$|rmb ?)\s*\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})+(?:\.\d+)?|\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})+(?:\.\d+)?\s*(?:元|块|美元|rmb|usd|cny)`)

// spaceGrouped reads a space-grouped amount in text whole; ok is false when
// there is none. Two such amounts in one message are refused: which one
// was meant is a guess.
func spaceGrouped(text string, def knowledge.Currency) (ledger.Money, bool, error) {
	ms := reSpaceGrouped.FindAllString(text, -1)
	switch len(ms) {
	case 0:
		return ledger.Money{}, false, nil
	case 1:
		m, err := ledger.ParseAmount(ms[0], def)
		if err != nil {
			return ledger.Money{}, false, err
		}
		return m, true, nil
	}
	return ledger.Money{}, false, fmt.Errorf("%q and %q: two amounts written with spaces; give one, without spaces (¥1000) / 有两个带空格的金额，请只写一个且不加空格（¥1000）", ms[0], ms[1])
}

// reTeam finds the team or cost centre of a hand entry: team=vision,
// cost-center=research, 团队=算法组, 部门:平台组.
var reTeam = regexp.MustCompile(`(?i)(?:^|\s)(?:team|cost[-_ ]?cent(?:er|re)|团队|部门|成本中心|财务单元)\s*[=:：]\s*([^\s,，;；]+)`)

// reTeamZh and reTeamEn find a team named in words: "研究组", "视觉团队",
// "for the vision team", "by team research". A name reader, not a
// language check: the two letters before 组 are any non-Latin letters.
var (
	reTeamZh   = regexp.MustCompile(`([^\P{L}A-Za-z]{2})(组|团队|部门)`) // two letters, not Latin: 研究组, 视觉团队 (花在研究组 is 研究组)
	reTeamEn   = regexp.MustCompile(`(?i)\b(?:for|by|from|of) (?:the )?([a-z][a-z0-9_-]{1,30}) team\b|\b(?:for|by|from) team ([a-z][a-z0-9_-]{1,30})\b`)
	notTeamZh  = regexp.MustCompile(`^(?:[第一二两三四五六七八九十几每各本这那该同小分全整哪某我你他她它]|我们|你们|他们|咱们|大家)`)
	notTeamEn  = map[string]bool{"our": true, "my": true, "a": true, "whole": true, "same": true, "other": true, "entire": true, "this": true, "that": true}
	zhTeamTail = map[string]string{"组": "组", "团队": "团队", "部门": "部"}
)

func teamWord(text string) string {
	if m := reTeam.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	for _, m := range reTeamZh.FindAllStringSubmatch(text, -1) {
		if !notTeamZh.MatchString(m[1]) {
			return m[1] + zhTeamTail[m[2]] // 研究组, 视觉团队
		}
	}
	if m := reTeamEn.FindStringSubmatch(text); m != nil {
		name := strings.ToLower(m[1] + m[2])
		if !notTeamEn[name] {
			return name
		}
	}
	return ""
}

// fxTo is fx turned to report in cur (USD or CNY), at the same rate.
func fxTo(fx *ledger.FX, cur knowledge.Currency) *ledger.FX {
	rate := fx.Rates[knowledge.USD] // CNY per USD when fx reports in CNY
	if fx.To == knowledge.USD {
		rate = 1 / fx.Rates[knowledge.CNY]
	}
	if cur == knowledge.USD {
		return &ledger.FX{To: knowledge.USD, Rates: map[knowledge.Currency]float64{knowledge.USD: 1, knowledge.CNY: 1 / rate}}
	}
	return &ledger.FX{To: knowledge.CNY, Rates: map[knowledge.Currency]float64{knowledge.CNY: 1, knowledge.USD: rate}}
}

// ratedEntry reads an entry said with its rate: "log 200 hours of L40S at
// $1.40/hr", "8x H100 for 100 hours at $3.00 per GPU-hour", "A800 共 500
// 卡时，单价 6.5 元", "6000 GPU-hours of A100 at $1.65". The amount is the
// rate × the card-hours (the user's rate, never the catalogue's); card-
// hours given as such are the hours of one card.
func ratedEntry(sl parse.Slots, text string, a *Answer) parse.Slots {
	if sl.Hours == 0 && sl.GPUHours > 0 {
		sl.Hours = sl.GPUHours / float64(max(sl.Cards, 1))
		a.use("gpu_hours", "the card-hours booked")
	}
	rate := sl.Price
	if rate == nil && sl.Amount != nil && sl.Hours > 0 && reAtRate.MatchString(strings.ToLower(text)) && sl.Amount.Amount*sl.Hours*float64(max(sl.Cards, 1)) > sl.Amount.Amount*20 {
		// "6000 GPU-hours of A100 at $1.65": after the hours, "at" a figure
		// is the rate (a total would be said "for $9,900" or "花了")
		rate, sl.Amount = sl.Amount, nil
	}
	if sl.Amount != nil || rate == nil || sl.Hours == 0 {
		return sl
	}
	card := rate.Amount
	if sl.QuotePer == "machine" && sl.Cards > 1 && !reMachineRate.MatchString(strings.ToLower(text)) {
		sl.QuotePer = "" // "8x H100 … at $3.00 per GPU-hour": a card's rate
		a.use("quote_per", "the rate is per card")
	}
	if sl.QuotePer == "machine" && sl.Cards > 1 {
		card /= float64(sl.Cards)
		a.use("quote_per", "the rate is the machine's: divided by its cards")
	}
	total := parse.Money{Amount: advisor.RentalTotal(card, sl.Cards, sl.Hours).Total, Currency: rate.Currency} // the engine's arithmetic
	sl.Amount, sl.Price = &total, nil
	a.use("price", "the rate: the amount is rate × hours × cards")
	return sl
}

// reAtRate is a rate said after the hours: "at $1.65", "单价", "每小时".
var reAtRate = regexp.MustCompile(`\bat\s?[$¥￥]?\s?\d|单价|每小时|每卡时|/卡时|/小时|/hr|/h\b|per (?:gpu-?)?hour`)

// reGPUArg reads the card a report is filtered by: gpu=h100 (the family:
// every memory size and form factor of it), gpu=h100-pcie (that card).
var reGPUArg = regexp.MustCompile(`(?i)\bgpu=([^\s,，;；]+)`)

func gpuArg(text string) string {
	if m := reGPUArg.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

// anywayWord reports that the user means a repeated entry: "anyway",
// "again", "仍然", "还是记", "再记一笔".
func anywayWord(text string) bool {
	t := strings.ToLower(text)
	for _, w := range []string{"anyway", "again", "仍然", "还是记", "再记一笔", "照记"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// invoiceWord reports an amount-only entry: "invoice", "发票", "账单金额".
func invoiceWord(text string) bool {
	t := strings.ToLower(text)
	return strings.Contains(t, "invoice") || strings.Contains(t, "发票") || strings.Contains(t, "账单金额") || strings.Contains(t, "hours unknown")
}

// shutdownTellTimeout bounds telling one asker at shutdown.
const shutdownTellTimeout = 5 * time.Second

// settle waits up to settleWithin to learn what became of an unconfirmed
// write. Still unknown, it keeps checking in the background for up to
// settleLater (the key can only ever book one entry, so the answer is
// safe to give now), logs and counts the outcome.
func (s *Spend) settle(ctx context.Context, un *ledger.UnconfirmedError, m Message, lang string) (ledger.Entry, error) {
	settle := s.ledger.Settle
	if un.Remove {
		settle = s.ledger.SettleRemove
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.settleWithin)
	e, err := settle(sctx, un.Team, un.Key)
	cancel()
	var still *ledger.UnconfirmedError
	switch {
	case errors.As(err, &still):
		s.settling.Add(1)
		go func() {
			defer s.settling.Done()
			lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.settleLater)
			defer cancel()
			go func() { // Shutdown ends the checking
				select {
				case <-s.stopSettling:
					cancel()
				case <-lctx.Done():
				}
			}()
			e, err := settle(lctx, un.Team, un.Key)
			var tell string
			switch {
			case err != nil && !errors.Is(err, ledger.ErrNotSaved) && s.stopping():
				s.observe(WriteUnsettled)
				s.log.WarnContext(lctx, "unconfirmed ledger write still unsettled at shutdown; the asker is told", "team", un.Team, "key", un.Key, "remove", un.Remove, "user", m.User, "channel", m.Channel)
				if un.Remove {
					tell = tr(lang, "⚠️ The bot is restarting before I could finish checking your undo/delete. It removes at most one entry whatever happened: check /gpu spend list in a minute, and send it again only if the entry is still there.",
						"⚠️ 机器人正在重启，撤销/删除还没核对完。无论结果如何，这次请求最多删除一条：请稍后用 /gpu spend list 查看，只有记录仍在时才重新发送。")
				} else {
					tell = tr(lang, "⚠️ The bot is restarting before I could finish checking your spend entry. It is booked at most once whatever happened: check /gpu spend list in a minute, and send it again only if it is not there.",
						"⚠️ 机器人正在重启，这笔记账还没核对完。无论结果如何，它最多只记一次：请稍后用 /gpu spend list 查看，只有不在列表里时才重新发送。")
				}
				lctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), shutdownTellTimeout)
				defer cancel()
			case err == nil && un.Remove:
				s.observe(WriteSettledOK)
				s.log.InfoContext(lctx, "unconfirmed ledger removal settled: removed", "team", un.Team, "key", un.Key, "id", e.ID)
				tell = tr(lang, fmt.Sprintf("✅ Checked: entry #%s (%s) was removed, once. Nothing to resend.", e.ID, e.Amount),
					fmt.Sprintf("✅ 已核对：记录 #%s（%s）已删除，只删了这一条，无需重发。", e.ID, e.Amount))
			case errors.Is(err, ledger.ErrNotSaved) && un.Remove:
				s.observe(WriteSettledVoid)
				s.log.WarnContext(lctx, "unconfirmed ledger removal settled: not removed", "team", un.Team, "key", un.Key)
				tell = tr(lang, "⚠️ Checked: nothing was removed, and that request never will remove anything. The entry is still in the ledger; send the undo or delete again.",
					"⚠️ 已核对：没有删除任何记录，这次请求之后也不会生效。记录仍在账本里，请重新发送撤销或删除。")
			case err == nil:
				s.observe(WriteSettledOK)
				s.log.InfoContext(lctx, "unconfirmed ledger write settled: saved", "team", un.Team, "key", un.Key, "id", e.ID)
				tell = tr(lang, fmt.Sprintf("✅ Checked: your spend entry was saved once, as #%s (%s). Nothing to resend.", e.ID, e.Amount),
					fmt.Sprintf("✅ 已核对：这笔记账已保存且只记了一次，编号 #%s（%s），无需重发。", e.ID, e.Amount))
			case errors.Is(err, ledger.ErrNotSaved):
				s.observe(WriteSettledVoid)
				s.log.WarnContext(lctx, "unconfirmed ledger write settled: not saved", "team", un.Team, "key", un.Key)
				tell = tr(lang, "⚠️ Checked: your spend entry was NOT saved, and now never will be. Please send it again.",
					"⚠️ 已核对：这笔记账没有保存，之后也不会再写入。请重新发送。")
			default:
				s.observe(WriteUnsettled)
				s.log.ErrorContext(lctx, "unconfirmed ledger write never settled", "team", un.Team, "key", un.Key, "err", err)
			}
			if tell != "" && s.notify != nil && m.Channel != "" {
				if err := s.notify(lctx, m.Channel, m.User, tell); err != nil {
					s.log.ErrorContext(lctx, "settled ledger write not reported to the user", "team", un.Team, "key", un.Key, "err", err)
				}
			}
		}()
	case err == nil:
		s.observe(WriteSettledOK)
	case errors.Is(err, ledger.ErrNotSaved):
		s.observe(WriteSettledVoid)
	}
	return e, err
}

// billingShown is how an entry was paid for, in words: "on demand",
// "包月", "prepaid for 12 months" (not the stored on_demand/monthly).
func billingShown(lang string, e ledger.Entry) string {
	switch {
	case e.TermMonths > 1:
		return tr(lang, fmt.Sprintf("prepaid for %d months", e.TermMonths), fmt.Sprintf("预付 %d 个月", e.TermMonths))
	case e.Billing == ledger.Monthly:
		return tr(lang, "monthly plan (包月)", "包月")
	case e.Billing == ledger.Spot:
		return tr(lang, "spot", "竞价")
	}
	return tr(lang, "on demand", "按量")
}

// platformShown is a platform's display name in lang, "—" for none.
func platformShown(lang, id string) string {
	if id == "" {
		return "—"
	}
	return platformName(lang, id)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// month reads the asked month, or the current one in the ledger's zone.
func (s *Spend) month(req parse.Request, a *Answer) (ledger.Month, error) {
	if req.Slots.Month != "" {
		return ledger.ResolveMonth(req.Slots.Month, s.now(), s.ledger.Location())
	}
	m := ledger.MonthOf(s.now(), s.ledger.Location())
	a.Assumed["month"] = m.String()
	return m, nil
}

func (s *Spend) list(ctx context.Context, team string, req parse.Request, a *Answer) error {
	mo, err := s.month(req, a)
	if err != nil {
		return err
	}
	es, err := s.ledger.List(ctx, team, mo, req.Slots.Project)
	if err != nil {
		return err
	}
	a.Result = map[string]any{"month": mo.String(), "entries": es}
	var lines []string
	for i, e := range es {
		if i == 40 {
			lines = append(lines, tr(a.Lang, fmt.Sprintf("… and %d more (see /gpu spend report)", len(es)-40), fmt.Sprintf("……还有 %d 条（见 /gpu spend report）", len(es)-40)))
			break
		}
		amt := "—"
		if e.Priced() {
			amt = e.Amount.String()
		}
		basis := tr(a.Lang, e.Basis(), map[string]string{"billed": "账单", "estimated": "估算"}[e.Basis()])
		switch {
		case e.IsRefund():
			basis = tr(a.Lang, "refund", "退款")
		case e.SupersededBy != "":
			basis = tr(a.Lang, "replaced by bill line #"+e.SupersededBy+", not counted", "已由账单行 #"+e.SupersededBy+" 取代，不计入")
		}
		hours := fmtNum(e.Hours)
		if e.HoursUnknown {
			hours = "?"
		}
		lines = append(lines, fmt.Sprintf("#%s %s %s %s h %s %s %s (%s)", e.ID, e.At.In(s.ledger.Location()).Format("01-02"), cardsShown(a.Lang, e), hours, platformShown(a.Lang, e.Platform), amt, e.Project, basis))
	}
	head := tr(a.Lang, fmt.Sprintf("Spend entries for %s: %d", mo, len(es)), fmt.Sprintf("%s 的记账：%d 条", mo, len(es)))
	if len(es) == 0 {
		head += tr(a.Lang, ". Add one with "+spendHint, "。记一笔："+spendHint)
	}
	a.Text = head + "\n" + bullets(lines)
	a.Text = strings.TrimRight(a.Text, "\n")
	a.say(a.Text)
	return nil
}

func (s *Spend) report(ctx context.Context, team string, m Message, req parse.Request, a *Answer) error {
	loc := s.ledger.Location()
	var p ledger.Period
	if bad, ok := ledger.BadQuarter(m.Text); ok {
		return &advisor.InputError{Field: "month", Reason: tr(a.Lang, fmt.Sprintf("%q is not a quarter: quarters are Q1–Q4", bad), fmt.Sprintf("%q 不是季度：季度只有 Q1–Q4", bad)),
			Hint: "/gpu spend report 2026-Q4 · /gpu spend report 2026-11 · 三季度花了多少"}
	}
	if req.Slots.Month == "" {
		if q, ok := ledger.ReadPeriod(m.Text, s.now(), loc); ok {
			p = q // "spend report 2026-Q4", "三季度花了多少", "this year"
		}
	}
	justEnded := false
	if p.Months == 0 && req.Slots.Month == "" && reRecapAsked.MatchString(strings.ToLower(m.Text)) && s.now().In(loc).Day() <= recapGraceDays {
		// "month-end recap" on 2 December: the month just ended, not two
		// days of December — unless nothing was booked in it (a team that
		// started this month wants this month's)
		prev := ledger.MonthOf(s.now(), loc).Prev()
		if es, err := s.ledger.Between(ctx, team, prev.Start(loc), prev.End(loc)); err == nil && len(es) > 0 {
			p, justEnded = ledger.MonthPeriod(prev), true
			a.Assumed["month"] = p.First.String()
		}
	}
	// "how much has atlas spent so far?": all time, this month beside it
	toDate := !justEnded && toDateAsked(req, m.Text, p.Months > 0)
	if p.Months == 0 {
		mo, err := s.month(req, a)
		if err != nil {
			return err
		}
		p = ledger.MonthPeriod(mo)
	}
	if reNotProject.MatchString(req.Slots.Project) {
		req.Slots.Project = "" // "what did we spend per project last month?": "last" is no project
	}
	if req.Slots.Project == "" && req.Slots.Team == "" {
		if n := s.projectNamed(ctx, team, m.Text); n != "" {
			req.Slots.Project = n // "星火本月花了多少": a project the ledger knows, named bare
			a.use("project", "a project of your ledger named in the question")
		}
	}
	fx := s.reportFX(ctx, team, a.Lang)
	if c := knowledge.Currency(req.Slots.Currency); fx != nil && (c == knowledge.USD || c == knowledge.CNY) && c != fx.To {
		// "rec 组总共花了多少美元？": the total in the currency asked
		fx = fxTo(fx, c)
		a.use("currency", "the report's currency")
	}
	gpu := ""
	if len(req.Slots.GPUs) > 0 {
		gpu = cardFamilyAsked(req.Slots.GPUs[0], m.Text) // "H100": the family (SXM and PCIe), "H100 PCIe": that card
		if fam, ok := s.ledger.GPUFamily(gpuArg(m.Text)); ok {
			gpu = fam // "gpu=H100", "gpu=h100-pcie"
		}
	}
	platform := req.Slots.Platform
	platforms := map[string]bool{}
	if len(req.Slots.Platforms) >= 2 {
		platform = "" // "在火山引擎和AutoDL上一共花了多少": both, each named
		for _, pl := range req.Slots.Platforms {
			platforms[s.ledger.Platform(pl)] = true
		}
	}
	keep := ledger.Where(req.Slots.Project, req.Slots.Team, platform, gpu)
	if len(platforms) > 0 {
		base := keep
		keep = func(e ledger.Entry) bool { return platforms[e.Platform] && (base == nil || base(e)) }
	}
	r, err := s.ledger.ReportPeriod(ctx, team, p, fx, keep)
	if err != nil {
		return err
	}
	a.Result = r
	a.Text = RenderReport(a.Lang, r)
	if s.budgetLines != nil && req.Slots.Project == "" && platform == "" && len(platforms) == 0 && gpu == "" {
		if lines := s.budgetLines(ctx, team, a.Lang, p); len(lines) > 0 {
			// right under the totals: the rollups below may be cut short
			head, rest, _ := strings.Cut(a.Text, "\n")
			a.Text = head + "\n" + tr(a.Lang, "Budget vs actual:", "预算对比实际：") + "\n" + strings.TrimRight(bullets(lines), "\n") + "\n" + rest
		}
	}
	if toDate {
		d, err := s.ledger.ToDate(ctx, team, s.now(), fx, keep)
		if err != nil {
			return err
		}
		a.Result = SpendToDate{ToDate: d, Report: r}
		a.Text = renderToDate(a.Lang, d) + "\n" + a.Text
		delete(a.Assumed, "month") // no month was assumed: the span is said
		a.use("to_date", "everything booked so far, first entry to today")
	}
	var only []string
	for _, kv := range [][2]string{{"project", req.Slots.Project}, {"team", req.Slots.Team}, {"platform", platform}, {"gpu", gpu}} {
		if kv[1] != "" {
			only = append(only, kv[0]+"="+kv[1])
		}
	}
	if len(platforms) > 0 {
		split := r
		if d, ok := a.Result.(SpendToDate); ok {
			// "在火山引擎和AutoDL上一共花了多少": the platforms over the whole span
			split = ledger.Summarize(team, d.Month, loc, d.Items, nil, fx)
			span := d.Span()
			split.Period = &span
		}
		a.Text = platformSplit(a.Lang, split, req.Slots.Platforms, s.ledger) + "\n" + a.Text
		a.use("platforms", "the platforms added up and compared")
	}
	if len(only) > 0 {
		// the filter is said under the total it filtered, never above it
		head, rest, _ := strings.Cut(a.Text, "\n")
		a.Text = head + "\n" + tr(a.Lang, "Only entries with ", "仅含 ") + strings.Join(only, " ") + "\n" + rest
	}
	if justEnded {
		a.Text = tr(a.Lang, fmt.Sprintf("Recap of %s, the month just ended (say a month for another one):", p.Label),
			fmt.Sprintf("%s（刚结束的月份）回顾；要看其他月份请说明月份：", p.Label)) + "\n" + a.Text
	}
	a.say(a.Text)
	return nil
}

// reRecapAsked is a month-end recap asked for without a month; in the
// first recapGraceDays of a month it means the month just ended.
var reRecapAsked = regexp.MustCompile(`recap|month-end|month end|end of month|月底|月末|月结|月度总结|月度回顾|复盘`)

const recapGraceDays = 5

// projectNamed is a project of the team's ledger (booked in the last year)
// whose name the text contains: "星火本月花了多少". The longest wins; ""
// when none, or when the name is too short to be told from a word.
func (s *Spend) projectNamed(ctx context.Context, team, text string) string {
	now := s.now()
	es, err := s.ledger.Between(ctx, team, now.AddDate(-1, 0, 0), now.Add(ledger.LatestWindow))
	if err != nil {
		return ""
	}
	t := strings.ToLower(text)
	best := ""
	for _, e := range es {
		n := e.Project
		if len([]rune(n)) < 2 || n == "unassigned" || len(n) <= len(best) || !strings.Contains(t, n) {
			continue
		}
		if n[0] < 0x80 && !wholeWord(t, n) {
			continue // "eval" inside "evaluation"
		}
		best = n
	}
	return best
}

// platformSplit is the headline of a spend question over two or more
// platforms: their total and the one with the larger share.
func platformSplit(lang string, r *ledger.Report, asked []string, l *ledger.Ledger) string {
	names := make([]string, 0, len(asked))
	for _, pl := range asked {
		names = append(names, platformName(lang, l.Platform(pl)))
	}
	total := r.Total.Amount.String()
	amount := func(g ledger.Group) (ledger.Money, bool) {
		if g.Converted != nil {
			return *g.Converted, true
		}
		if len(g.Amount) == 1 {
			c := g.Amount.Currencies()[0]
			return g.Amount.Money(c), true
		}
		return ledger.Money{}, false
	}
	all, okAll := ledger.Money{}, false
	if r.Total.Converted != nil {
		all, okAll = *r.Total.Converted, true
		total = all.String()
	} else if len(r.Total.Amount) == 1 {
		all, okAll = r.Total.Amount.Money(r.Total.Amount.Currencies()[0]), true
	}
	head := tr(lang, fmt.Sprintf("%s on %s: %s in all", r.Label(), strings.Join(names, " and "), total),
		fmt.Sprintf("%s 在 %s 上一共花了 %s", r.Label(), strings.Join(names, "、"), total))
	if len(r.ByPlatform) == 0 || !okAll || all.Minor == 0 {
		return head + tr(lang, " (nothing booked there in that period).", "（这段时间在这些平台上没有记录）。")
	}
	top := r.ByPlatform[0]
	v, ok := amount(top)
	if !ok {
		return head + "."
	}
	share := float64(v.Minor) / float64(all.Minor) * 100
	return head + tr(lang, fmt.Sprintf("; %s is the larger: %s (%.0f%%).", platformName(lang, top.Key), v, share),
		fmt.Sprintf("；%s 占大头：%s（%.0f%%）。", platformName(lang, top.Key), v, share))
}

// SpendExport is the result of "spend export 2026-11": the month's
// entries as formula-safe CSV (ledger.Export).
type SpendExport struct {
	Month   ledger.Month `json:"month"`
	Entries int          `json:"entries"`
	CSV     string       `json:"csv"`
}

// maxExportText bounds the CSV shown in a chat reply; the command line
// (bot spend export) writes any size.
const maxExportText = 30000

func (s *Spend) export(ctx context.Context, team string, req parse.Request, a *Answer) error {
	mo, err := s.month(req, a)
	if err != nil {
		return err
	}
	es, err := s.ledger.List(ctx, team, mo, req.Slots.Project)
	if err != nil {
		return err
	}
	var b strings.Builder
	if err := ledger.Export(&b, es, s.ledger.Location()); err != nil {
		return err
	}
	a.Result = SpendExport{Month: mo, Entries: len(es), CSV: b.String()}
	body := b.String()
	more := ""
	if len(body) > maxExportText {
		cut := strings.LastIndexByte(body[:maxExportText], '\n')
		body = body[:cut+1]
		more = tr(a.Lang, " (cut short here; bot spend export "+mo.String()+" on the command line writes the whole file)",
			"（此处截断；命令行 bot spend export "+mo.String()+" 可导出完整文件）")
	}
	a.Text = tr(a.Lang, fmt.Sprintf("Spend %s as CSV, %d entries, amounts in their own currency%s:", mo, len(es), more),
		fmt.Sprintf("%s 支出 CSV，共 %d 条，金额为各自币种%s：", mo, len(es), more)) + "\n```\n" + body + "```"
	a.say(a.Text)
	return nil
}

func (s *Spend) undo(ctx context.Context, team string, m Message, a *Answer) error {
	e, err := s.ledger.UndoOnce(ctx, team, m.User, m.ID)
	if errors.Is(err, ledger.ErrNotFound) {
		return &advisor.InputError{Field: "undo", Reason: tr(a.Lang, "you have no entry to undo", "你没有可撤销的记录"), Hint: spendHint}
	}
	e, note, done, err := s.removal(ctx, team, m, a, e, err)
	if done || err != nil {
		return err
	}
	a.Result = e
	if e.Restored {
		a.Text = note + tr(a.Lang, fmt.Sprintf("Undid the edit of #%s: it is back to %s, %s, %s.", e.ID, entryWhat(e), e.Amount.String(), orDash(e.Platform)),
			fmt.Sprintf("已撤销对 #%s 的修改：恢复为 %s，%s，%s。", e.ID, entryWhat(e), e.Amount.String(), orDash(e.Platform)))
		a.say(a.Text)
		return nil
	}
	a.Text = tr(a.Lang, fmt.Sprintf("Removed #%s (%s ×%d, %s h, %s).", e.ID, gpuName(e.GPU), e.Cards, fmtNum(e.Hours), e.Amount.String()),
		fmt.Sprintf("已撤销 #%s（%s ×%d，%s 小时，%s）。", e.ID, gpuName(e.GPU), e.Cards, fmtNum(e.Hours), e.Amount.String()))
	a.Text = note + a.Text
	a.say(a.Text)
	return nil
}

// editKeys maps the settings a user may write after spend edit to the
// ledger's EditFields.
var editKeys = map[string]string{
	"amount": "amount", "cost": "amount", "platform": "platform", "on": "platform", "project": "project", "proj": "project",
	"team": "team", "cost_center": "team", "costcenter": "team", "团队": "team", "部门": "team", "gpu": "gpu", "card": "gpu",
	"cards": "cards", "n": "cards", "count": "cards", "hours": "hours", "h": "hours", "date": "date", "billing": "billing", "note": "note",
}

// edit answers "spend edit <id> field=value…": the entry changed in place
// (same id), checked like a new one; "spend undo" restores it.
func (s *Spend) edit(ctx context.Context, team string, m Message, req parse.Request, a *Answer) error {
	hint := "/gpu spend edit 7k2m9q amount=¥1800 platform=aliyun team=vision"
	id := req.Slots.ID
	fields := map[string]string{}
	note := "" // a correction's word on which entry it took
	words := strings.Fields(m.Text)
	if len(req.Slots.Args) > 0 && req.Slots.Args[0] == correctionArg {
		// a correction in words: the entry it means and its fields
		var err error
		if id, fields, note, err = s.correction(ctx, team, m, req, a); err != nil {
			return err
		}
		words = nil
	}
	if id == "" {
		return &advisor.InputError{Field: "id", Reason: tr(a.Lang, "which entry? give its id from /gpu spend list", "改哪条？请给出 /gpu spend list 里的编号"), Hint: hint}
	}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			continue
		}
		f, known := editKeys[strings.ToLower(k)]
		if !known {
			return &advisor.InputError{Field: k, Reason: tr(a.Lang, fmt.Sprintf("%s cannot be edited; edit one of %s", k, strings.Join(ledger.EditFields, ", ")),
				fmt.Sprintf("%s 不能修改；可改的有 %s", k, strings.Join(ledger.EditFields, ", "))), Hint: hint}
		}
		fields[f] = v
	}
	if len(fields) == 0 {
		return &advisor.InputError{Field: "edit", Reason: tr(a.Lang, "nothing to change; give field=value", "没有要改的内容；请写 字段=值"), Hint: hint}
	}
	admin := false
	if s.auth != nil {
		admin, _ = s.auth.IsAdmin(ctx, team, m.User)
	}
	before, after, err := s.ledger.Edit(ctx, team, id, m.User, admin, m.ID, fields, confirmWord(m.Text))
	switch {
	case err == nil && after.Replayed:
		s.observe(WriteReplayed)
	case err == nil:
		s.observe(WriteOK)
	case errors.Is(err, ledger.ErrForbidden):
		return &advisor.InputError{Field: "id", Reason: tr(a.Lang, "only workspace admins can edit other people's entries", "只有工作区管理员才能修改别人的记录"), Hint: "/gpu spend list"}
	case errors.As(err, new(*ledger.UnconfirmedError)):
		s.observe(WriteUnconfirmed)
		a.Ephemeral, a.Err = true, "unconfirmed"
		a.Text = tr(a.Lang, "⏳ Checking… the spend ledger's storage did not answer in time; sending the same edit again is safe (it applies once).",
			"⏳ 正在核对……账本存储没有及时响应；再发一次同样的修改是安全的（只会生效一次）。")
		a.say(a.Text)
		return nil
	}
	if err != nil {
		return err
	}
	a.Result = after
	var changes []string
	for _, f := range ledger.EditFields {
		if _, ok := fields[f]; ok {
			changes = append(changes, f+": "+editValue(before, f)+" → "+editValue(after, f))
		}
	}
	a.Text = tr(a.Lang, fmt.Sprintf("Edited #%s: %s. Undo with /gpu spend undo.", after.ID, strings.Join(changes, "; ")),
		fmt.Sprintf("已修改 #%s：%s。撤销：/gpu spend undo", after.ID, strings.Join(changes, "；")))
	if note != "" {
		a.Text += "\n" + note // the verdict first; which entry it was, after
	}
	if !after.Replayed {
		s.withBudget(ctx, team, a)
	}
	a.say(a.Text)
	return nil
}

// editValue shows one field of an entry the way the edit reply names it.
func editValue(e ledger.Entry, f string) string {
	switch f {
	case "amount":
		return e.Amount.String()
	case "platform":
		return orDash(e.Platform)
	case "project":
		return e.Project
	case "team":
		return orDash(e.CostCenter)
	case "gpu":
		return gpuName(e.GPU)
	case "cards":
		return fmt.Sprint(e.Cards)
	case "hours":
		return fmtNum(e.Hours) + " h"
	case "date":
		return e.At.Format("2006-01-02")
	case "billing":
		return string(e.Billing)
	}
	return e.Note
}

func (s *Spend) delete(ctx context.Context, team string, m Message, req parse.Request, a *Answer) error {
	id := req.Slots.ID
	if id == "" && len(req.Slots.Args) > 0 && req.Slots.Args[0] == deletionArg {
		found, err := s.described(ctx, team, m, req.Slots.Args, a.Lang) // "删掉12月那笔腾讯云 ¥52,000"
		if err != nil {
			return err
		}
		id = found
	}
	if id == "" {
		return &advisor.InputError{Field: "id", Reason: tr(a.Lang, "which entry? give its id from /gpu spend list", "删除哪条？请给出 /gpu spend list 里的编号"), Hint: "/gpu spend delete 7k2m9q"}
	}
	admin := false
	if s.auth != nil {
		admin, _ = s.auth.IsAdmin(ctx, team, m.User)
	}
	e, err := s.ledger.DeleteOnce(ctx, team, id, m.User, admin, m.ID)
	e, note, done, err := s.removal(ctx, team, m, a, e, err)
	if done || err != nil {
		return err
	}
	a.Result = e
	a.Text = tr(a.Lang, fmt.Sprintf("Deleted #%s (%s, %s).", e.ID, gpuName(e.GPU), e.Amount.String()), fmt.Sprintf("已删除 #%s（%s，%s）。", e.ID, gpuName(e.GPU), e.Amount.String()))
	a.Text = note + a.Text
	a.say(a.Text)
	return nil
}

// removal sorts the outcome of an undo or delete as add does: a removal
// that was sent but not acknowledged is settled first and never called
// "not saved" before that; done means the answer is already written (still
// checking). note prefixes the answer when the removal was a replay or
// had to be checked.
func (s *Spend) removal(ctx context.Context, team string, m Message, a *Answer, e ledger.Entry, err error) (_ ledger.Entry, note string, done bool, _ error) {
	var un *ledger.UnconfirmedError
	switch {
	case errors.As(err, &un):
		s.observe(WriteUnconfirmed)
		s.log.WarnContext(ctx, "ledger removal unconfirmed; settling", "team", team, "key", un.Key, "err", un.Err)
		e, err = s.settle(ctx, un, m, a.Lang)
		if errors.As(err, &un) {
			a.Ephemeral, a.Err = true, "unconfirmed"
			a.Text = tr(a.Lang,
				"⏳ Checking… the spend ledger's storage did not answer in time, so I can't tell yet whether the entry was removed. Don't send it again: I'm still checking, and this request removes at most one entry. /gpu spend list shows the outcome once storage answers.",
				"⏳ 正在核对……账本存储没有及时响应，暂时无法确认记录是否已删除。请不要重发：我会继续核对，这次请求最多删除一条。存储恢复后可用 /gpu spend list 查看。")
			a.say(a.Text)
			return e, "", true, nil
		}
		if err == nil {
			note = tr(a.Lang, "Storage was slow, so I checked: it was removed once. ", "存储响应慢，已核对：已删除且只删了一条。")
		}
		return e, note, false, err
	case err == nil && e.Replayed:
		s.observe(WriteReplayed)
		note = tr(a.Lang, "Already done (this request was delivered twice; nothing more was removed). ", "已处理过（这条请求重复送达，没有多删）。")
	case err == nil:
		s.observe(WriteOK)
	case errors.Is(err, ledger.ErrNotSaved):
		s.observe(WriteNotSaved)
		s.log.WarnContext(ctx, "ledger removal not saved", "team", team, "err", err)
	}
	return e, note, false, err
}

// MayImport says why user may not import bills (a reply), or "" when they
// may: importing is for workspace admins.
func (s *Spend) MayImport(ctx context.Context, team, user string) (string, error) {
	if s.auth == nil {
		return "", nil
	}
	if err := s.auth.Check(ctx, team, user, ledger.ImportBill); err != nil {
		if errors.Is(err, ledger.ErrForbidden) {
			return "Only workspace admins can import bills. 只有工作区管理员可以导入账单。", nil
		}
		return "", err
	}
	return "", nil
}

// MaxBillBytes bounds an uploaded bill (the CSV importer reads at most this).
const MaxBillBytes = 10 << 20

// ImportBill imports a CSV bill into the team's ledger when user may import
// (workspace admins) and returns the reply: rows added, duplicates skipped,
// and each bad row with its number and what was wrong. A storage failure is
// a reply too ("NOT saved"); other errors are for the log.
func (s *Spend) ImportBill(ctx context.Context, team, user, name string, r io.Reader) (string, error) {
	if refusal, err := s.MayImport(ctx, team, user); refusal != "" || err != nil {
		return refusal, err
	}
	res, err := s.ledger.Import(ctx, team, user, io.LimitReader(r, MaxBillBytes), name)
	var in *ledger.InputError
	switch {
	case errors.As(err, &in):
		return fmt.Sprintf("I couldn't import %s: %s. The column mapping is in bot/ledger/CSV.md.", name, in.Reason), nil
	case errors.As(err, new(*ledger.UnconfirmedError)):
		s.observe(WriteUnsettled)
		s.log.ErrorContext(ctx, "bill import unconfirmed", "team", team, "file", name, "err", err)
		return "⏳ Checking… the spend ledger's storage did not answer in time, so I can't tell whether " + name + " was recorded. Importing the same file again is safe: its lines are matched by identity and never booked twice.", nil
	case errors.Is(err, ledger.ErrNotSaved):
		s.observe(WriteNotSaved)
		return "⚠️ NOT saved: the spend ledger's storage is unavailable right now; nothing from " + name + " was recorded. Please try again.", nil
	case err != nil:
		return "", err
	}
	s.observe(WriteOK)
	var b strings.Builder
	b.WriteString(ImportSummary(res))
	for i, e := range res.Errors {
		if i == 20 {
			fmt.Fprintf(&b, "\n… and %d more", len(res.Errors)-20)
			break
		}
		b.WriteString("\n• " + e.Error())
	}
	if len(res.Ignored) > 0 {
		b.WriteString("\nColumns not read: " + strings.Join(res.Ignored, ", "))
	}
	if s.budgetNotes != nil && len(res.Added)+len(res.Changed)+len(res.Replaced) > 0 {
		// an import is a write: one that crosses a budget threshold says so
		for _, n := range s.budgetNotes(ctx, team, "en") {
			b.WriteString("\n" + n)
		}
	}
	return b.String(), nil
}

// entryWhat names what an entry paid for: "A100 40GB ×8, 24 h", "tax".
func entryWhat(e ledger.Entry) string {
	switch {
	case e.IsNonGPU():
		return e.Category
	case e.IsRefund():
		return "credit"
	case e.GPU == "":
		return "invoice, card not named, hours unknown"
	}
	return fmt.Sprintf("%s ×%d, %s h", gpuName(e.GPU), e.Cards, fmtNum(e.Hours))
}

// cardsShown is an entry's cards for people: "RTX 4090 ×2", or for an
// invoice that names none "card not named".
func cardsShown(lang string, e ledger.Entry) string {
	if e.GPU == "" {
		return tr(lang, "card not named", "未写显卡")
	}
	return fmt.Sprintf("%s ×%d", gpuName(e.GPU), e.Cards)
}

// ImportSummary is the one-paragraph outcome of a bill import, shared by
// the Slack reply and the command line: "3 changed, 1 added, 6 unchanged",
// unreadable rows, and chat entries the bill probably repeats.
func ImportSummary(res *ledger.ImportResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Imported %s: %d rows — %d changed, %d added, %d unchanged, %d not readable",
		res.File, res.Rows, len(res.Changed), len(res.Added), res.Unchanged, len(res.Errors))
	if n := len(res.InFile); n > 0 {
		fmt.Fprintf(&b, ", %d repeated in the file (not imported)", n)
	}
	b.WriteString(".")
	var credits, nonGPU ledger.Amounts = ledger.Amounts{}, ledger.Amounts{}
	for _, e := range append(append([]ledger.Entry(nil), res.Added...), res.Changed...) {
		switch {
		case e.IsRefund():
			credits[e.Amount.Currency] += e.Amount.Minor
		case e.IsNonGPU():
			nonGPU[e.Amount.Currency] += e.Amount.Minor
		}
	}
	if len(nonGPU) > 0 || len(credits) > 0 {
		fmt.Fprintf(&b, " Non-GPU costs (tax, support, storage, network) %s and credits %s are booked apart from GPU time.", nonGPU.String(), credits.String())
	}
	if n := len(res.Confirmed); n > 0 {
		fmt.Fprintf(&b, "\n✅ %d hand-added estimates confirmed by the bill (now counted once, at the billed figure):", n)
		for _, m := range res.Confirmed {
			fmt.Fprintf(&b, "\n• #%s (%s, %s) → bill line #%s (%s)", m.Chat.ID, entryWhat(m.Chat), m.Chat.Amount.String(), m.Bill.ID, m.Bill.Amount.String())
		}
	}
	if n := len(res.Unmatched); n > 0 {
		fmt.Fprintf(&b, "\nℹ️ %d hand-added estimates on this bill's platforms and months that no line confirmed:", n)
		for _, e := range res.Unmatched {
			fmt.Fprintf(&b, "\n• #%s (%s, %s, %s on %s)", e.ID, entryWhat(e), e.Amount.String(), e.At.Format("2006-01-02"), platformShown("en", e.Platform))
		}
	}
	if n := len(res.Replaced); n > 0 {
		fmt.Fprintf(&b, "\n🔁 %d lines correct an earlier bill (no line ids: matched by platform, card, period and amount); each entry keeps its id and now holds the new figures:", n)
		for _, r := range res.Replaced {
			fmt.Fprintf(&b, "\n• #%s: %s, %s, %s → %s, %s, %s", r.Old.ID, entryWhat(r.Old), r.Old.Amount.String(), r.Old.At.Format("2006-01-02"),
				entryWhat(r.New), r.New.Amount.String(), r.New.At.Format("2006-01-02"))
		}
	}
	if n := len(res.Missing); n > 0 {
		fmt.Fprintf(&b, "\nℹ️ %d lines of the bill this one corrects are not in it; they stay booked (delete them with /gpu spend delete if the correction dropped them):", n)
		for _, e := range res.Missing {
			fmt.Fprintf(&b, "\n• #%s (%s, %s, %s)", e.ID, entryWhat(e), e.Amount.String(), e.At.Format("2006-01-02"))
		}
	}
	for _, m := range res.Suspected {
		fmt.Fprintf(&b, "\n⚠️ Suspected duplicate: bill line #%s (%s, %s, %s) looks like #%s of another bill (%s, %s). Both are counted; if it is the same charge, delete one: /gpu spend delete %s",
			m.Bill.ID, entryWhat(m.Bill), m.Bill.Amount.String(), m.Bill.At.Format("2006-01-02"), m.Chat.ID, entryWhat(m.Chat), m.Chat.Amount.String(), m.Bill.ID)
	}
	for _, d := range res.InFile {
		fmt.Fprintf(&b, "\n⚠️ Row %d repeats row %d field for field (%s, %s); it was not imported. If both are real charges, import with --keep-duplicates.",
			d.Row, d.FirstRow, entryWhat(d.Entry), d.Entry.Amount.String())
	}
	for _, m := range res.Probable {
		fmt.Fprintf(&b, "\n⚠️ Probable duplicate: chat entry #%s (%s ×%d, %s h, %s, estimated) looks like bill line #%s (%s, billed). It is counted twice until confirmed; if it is the same spend, confirm with `bot spend supersede %s %s` (or remove the estimate: /gpu spend delete %s)",
			m.Chat.ID, gpuName(m.Chat.GPU), m.Chat.Cards, fmtNum(m.Chat.Hours), m.Chat.Amount.String(),
			m.Bill.ID, m.Bill.Amount.String(), m.Chat.ID, m.Bill.ID, m.Chat.ID)
	}
	return b.String()
}
