package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
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
	onSave func(outcome string) // ledger write metric: ok, not_saved
}

// ObserveWrites reports every ledger write's outcome (ok or not_saved).
func (s *Spend) ObserveWrites(f func(outcome string)) { s.onSave = f }

// NewSpend builds the spend handler. now is the clock (time.Now in serve).
func NewSpend(l *ledger.Ledger, auth *ledger.Authorizer, fx float64, now func() time.Time) *Spend {
	if now == nil {
		now = time.Now
	}
	return &Spend{ledger: l, auth: auth, fx: fx, now: now}
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
	var err error
	switch mode {
	case "add":
		err = s.add(ctx, team, m, req, a)
	case "list":
		err = s.list(ctx, team, req, a)
	case "report":
		err = s.report(ctx, team, req, a)
	case "undo":
		err = s.undo(ctx, team, m, a)
	case "delete":
		err = s.delete(ctx, team, m, req, a)
	default:
		return &advisor.InputError{Field: "spend", Reason: fmt.Sprintf("unknown spend action %q; use add, list, report, undo or delete", mode), Hint: spendHint}
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

func (s *Spend) add(ctx context.Context, team string, m Message, req parse.Request, a *Answer) error {
	sl := req.Slots
	e := ledger.Entry{Team: team, Channel: m.Channel, User: m.User, Project: sl.Project, Platform: sl.Platform,
		Cards: sl.Cards, Hours: sl.Hours, Note: strings.Join(sl.Notes, "; ")}
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
	}
	if sl.Billing != "" {
		b, ok := ledger.ParseBilling(sl.Billing)
		if !ok {
			return &advisor.InputError{Field: "billing", Reason: fmt.Sprintf("unknown billing %q; use on-demand, monthly or spot", sl.Billing), Hint: spendHint + " billing=monthly"}
		}
		e.Billing = b
	}
	saved, err := s.ledger.Add(ctx, e)
	if s.onSave != nil && (err == nil || errors.Is(err, ledger.ErrNotSaved)) {
		s.onSave(map[bool]string{true: "ok", false: "not_saved"}[err == nil])
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
	a.Text = tr(a.Lang,
		fmt.Sprintf("Saved #%s: %s ×%d, %s h on %s, %s, project %s, %s (booked to %s). Undo with /gpu spend undo.",
			saved.ID, gpuName(saved.GPU), saved.Cards, fmtNum(saved.Hours), orDash(saved.Platform), amount, saved.Project, saved.Billing, month),
		fmt.Sprintf("已记账 #%s：%s ×%d，%s 小时，平台 %s，%s，项目 %s，%s（计入 %s）。撤销：/gpu spend undo",
			saved.ID, gpuName(saved.GPU), saved.Cards, fmtNum(saved.Hours), orDash(saved.Platform), amount, saved.Project, saved.Billing, month))
	if saved.Derived != "" {
		a.Text += "\n" + tr(a.Lang, "Amount from the catalogue: ", "金额按目录价估算：") + saved.Derived
	}
	a.say(a.Text)
	return nil
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
		return ledger.ParseMonth(req.Slots.Month)
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
		lines = append(lines, fmt.Sprintf("#%s %s %s ×%d %s h %s %s %s", e.ID, e.At.In(s.ledger.Location()).Format("01-02"), gpuName(e.GPU), e.Cards, fmtNum(e.Hours), orDash(e.Platform), amt, e.Project))
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

func (s *Spend) report(ctx context.Context, team string, req parse.Request, a *Answer) error {
	mo, err := s.month(req, a)
	if err != nil {
		return err
	}
	fx := &ledger.FX{To: knowledge.CNY, Rates: map[knowledge.Currency]float64{knowledge.CNY: 1, knowledge.USD: s.fx}}
	if a.Lang == "en" {
		fx = &ledger.FX{To: knowledge.USD, Rates: map[knowledge.Currency]float64{knowledge.USD: 1, knowledge.CNY: 1 / s.fx}}
	}
	r, err := s.ledger.Report(ctx, team, mo, fx)
	if err != nil {
		return err
	}
	a.Result = r
	a.Text = RenderReport(a.Lang, r)
	a.say(a.Text)
	return nil
}

func (s *Spend) undo(ctx context.Context, team string, m Message, a *Answer) error {
	e, err := s.ledger.Undo(ctx, team, m.User)
	if err != nil {
		if errors.Is(err, ledger.ErrNotFound) {
			return &advisor.InputError{Field: "undo", Reason: tr(a.Lang, "you have no entry to undo", "你没有可撤销的记录"), Hint: spendHint}
		}
		return err
	}
	a.Result = e
	a.Text = tr(a.Lang, fmt.Sprintf("Removed #%s (%s ×%d, %s h, %s).", e.ID, gpuName(e.GPU), e.Cards, fmtNum(e.Hours), e.Amount.String()),
		fmt.Sprintf("已撤销 #%s（%s ×%d，%s 小时，%s）。", e.ID, gpuName(e.GPU), e.Cards, fmtNum(e.Hours), e.Amount.String()))
	a.say(a.Text)
	return nil
}

func (s *Spend) delete(ctx context.Context, team string, m Message, req parse.Request, a *Answer) error {
	id := req.Slots.ID
	if id == "" {
		return &advisor.InputError{Field: "id", Reason: tr(a.Lang, "which entry? give its id from /gpu spend list", "删除哪条？请给出 /gpu spend list 里的编号"), Hint: "/gpu spend delete 7k2m9q"}
	}
	admin := false
	if s.auth != nil {
		admin, _ = s.auth.IsAdmin(ctx, team, m.User)
	}
	e, err := s.ledger.Delete(ctx, team, id, m.User, admin)
	if err != nil {
		return err
	}
	a.Result = e
	a.Text = tr(a.Lang, fmt.Sprintf("Deleted #%s (%s, %s).", e.ID, gpuName(e.GPU), e.Amount.String()), fmt.Sprintf("已删除 #%s（%s，%s）。", e.ID, gpuName(e.GPU), e.Amount.String()))
	a.say(a.Text)
	return nil
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
	case errors.Is(err, ledger.ErrNotSaved):
		if s.onSave != nil {
			s.onSave("not_saved")
		}
		return "⚠️ NOT saved: the spend ledger's storage is unavailable right now; nothing from " + name + " was recorded. Please try again.", nil
	case err != nil:
		return "", err
	}
	if s.onSave != nil {
		s.onSave("ok")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Imported %s: %d rows — %d added, %d already imported, %d not readable.", res.File, res.Rows, len(res.Added), res.Duplicates, len(res.Errors))
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
	return b.String(), nil
}
