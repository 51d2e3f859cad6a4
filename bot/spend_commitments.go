package bot

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

// SpendCommitments is the result of "spend commitments": every 包月/包年/
// reserved/prepaid plan running at At, soonest renewal first, with the
// card-hours used and idle over its term so far (ledger.CommitmentList).
type SpendCommitments struct {
	At          time.Time           `json:"at"`
	Commitments []ledger.Commitment `json:"commitments"`
	// RenewThisMonth counts those that renew or end before the month is out.
	RenewThisMonth int `json:"renew_this_month"`
}

// commitmentsHint is how to book a commitment when none is listed.
const commitmentsHint = "/gpu spend add 8x h800 @aliyun ¥36000 包年 · /gpu spend add 2x a100 @autodl ¥7000 包月"

func (s *Spend) commitments(ctx context.Context, team string, a *Answer) error {
	now := s.now()
	loc := s.ledger.Location()
	cs, err := s.ledger.CommitmentList(ctx, team, now)
	if err != nil {
		return err
	}
	monthEnd := ledger.MonthOf(now, loc).End(loc)
	res := SpendCommitments{At: now, Commitments: cs}
	for _, c := range cs {
		if !c.Renews.After(monthEnd) {
			res.RenewThisMonth++
		}
	}
	if res.Commitments == nil {
		res.Commitments = []ledger.Commitment{}
	}
	a.Result = res
	today := now.In(loc).Format("2006-01-02")
	if len(cs) == 0 {
		a.Text = tr(a.Lang,
			"No commitments running on "+today+": no 包月, 包年, reserved or prepaid plan is booked whose term covers today.\nBook one with "+commitmentsHint+", or import a bill with its 包年包月 lines (/gpu spend import).",
			today+" 没有生效中的包年包月：账本里没有覆盖今天的包月、包年、预留或预付费记录。\n记一笔："+commitmentsHint+"，或导入带包年包月行的账单。")
		a.say(a.Text)
		return nil
	}
	head := tr(a.Lang, fmt.Sprintf("Commitments running on %s: %d; renewing or ending by %s: %d.", today, len(cs), monthEnd.Add(-time.Second).Format("2006-01-02"), res.RenewThisMonth),
		fmt.Sprintf("%s 生效中的包年包月：%d 项；其中 %d 项在 %s 前到期或续费。", today, len(cs), res.RenewThisMonth, monthEnd.Add(-time.Second).Format("2006-01-02")))
	var lines []string
	for _, c := range cs {
		lines = append(lines, commitmentLine(a.Lang, c, now))
	}
	a.Text = head + "\n" + strings.TrimRight(bullets(lines), "\n") + "\n" +
		tr(a.Lang, "Used = card-hours logged on the same platform and card inside the term without a charge of their own (each counted once; a run billed on demand was paid for apart); idle = card-hours paid for so far − used. Without recorded usage the hours used are unknown, never counted as idle.",
			"已用 = 期限内同平台同型号、没有单独计费的用时记录（每条只计一次；按量计费的运行另行付费，不算）；闲置 = 至今已付卡时 − 已用。没有用量记录时已用卡时未知，不算闲置。")
	a.say(a.Text)
	return nil
}

// commitmentLine is one commitment of the list: card, platform, term,
// dates, money and hours.
func commitmentLine(lang string, c ledger.Commitment, now time.Time) string {
	e := c.Entry
	term, termZh := fmt.Sprintf("%d months", c.Term), fmt.Sprintf("%d 个月", c.Term)
	if c.Term == 1 {
		term, termZh = "1 month (包月)", "包月（1 个月）"
	}
	basis, basisZh := "estimated", "估算"
	if e.Billed() {
		basis, basisZh = "from the bill", "账单金额"
	}
	soon, soonZh := fmt.Sprintf(", month %d of %d", c.MonthsUse, c.Term), fmt.Sprintf("，第 %d/%d 个月", c.MonthsUse, c.Term)
	if days := int(math.Ceil(c.Renews.Sub(now).Hours() / 24)); days <= 31 {
		soon, soonZh = fmt.Sprintf(" (in %d days)", days), fmt.Sprintf("（还有 %d 天）", days)
	}
	where := platformName(lang, e.Platform)
	if e.Platform == "" {
		where = tr(lang, "an unnamed platform", "未写明的平台")
	}
	en := fmt.Sprintf("#%s %s ×%d on %s — %s from %s, renews %s%s; billed %s (%s), %s a month amortised; ",
		e.ID, gpuName(e.GPU), e.Cards, where, term, c.Starts.Format("2006-01-02"), c.Renews.Format("2006-01-02"), soon, e.Amount, basis, c.PerMonth)
	zh := fmt.Sprintf("#%s %s ×%d，%s，%s，自 %s 起，%s 到期续费%s；账面 %s（%s），按月分摊 %s；",
		e.ID, gpuName(e.GPU), e.Cards, where, termZh, c.Starts.Format("2006-01-02"), c.Renews.Format("2006-01-02"), soonZh, e.Amount, basisZh, c.PerMonth)
	paid, paidZh := "", ""
	if c.Committed > 0 {
		paid, paidZh = fmt.Sprintf(" of %s card-h paid for so far", present.Num(math.Round(c.Committed))), fmt.Sprintf("，至今已付 %s 卡时", present.Num(math.Round(c.Committed)))
	}
	switch {
	case !c.UsageKnown:
		en += "used unknown (no usage recorded on " + gpuName(e.GPU) + " at " + where + " in the term, so not counted as idle)" + paid
		zh += "已用未知（期限内没有 " + where + " " + gpuName(e.GPU) + " 的用量记录，不算闲置）" + paidZh
	case c.Committed > 0:
		en += fmt.Sprintf("used %s%s, idle %s (%s)", present.Num(round1(c.Used)), paid, present.Num(round1(c.Idle)), present.Pct(math.Round(c.IdleShare*100)/100))
		zh += fmt.Sprintf("已用 %s 卡时%s，闲置 %s 卡时（%s）", present.Num(round1(c.Used)), paidZh, present.Num(round1(c.Idle)), present.Pct(math.Round(c.IdleShare*100)/100))
	default:
		en += fmt.Sprintf("used %s card-h (the card count is unknown, so idle is too)", present.Num(round1(c.Used)))
		zh += fmt.Sprintf("已用 %s 卡时（卡数未知，闲置也无法计算）", present.Num(round1(c.Used)))
	}
	return tr(lang, en, zh)
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// reCommitNoun names commitments; reCommitList asks for them as a list or
// by renewal; reCommitPrice weighs one against another (a price question,
// the advisor's, not the ledger's).
var (
	reCommitNoun  = regexp.MustCompile(`(?i)\bcommitments?\b|\breservations?\b|reserved instances?|prepaid (?:plans?|terms?)|包年包月|包月|包年|预留实例|预留容量|预付费|承诺消费`)
	reCommitList  = regexp.MustCompile(`(?i)\blist\b|\bshow\b|\bwhich\b|\bour\b|\bwe have\b|\brenew|\bexpir|\bdue\b|\bending\b|哪些|列出|列一下|有什么|有多少|清单|列表|到期|续费|续约|我们的|团队的`)
	reCommitPrice = regexp.MustCompile(`(?i)cheaper|\bvs\b|versus|\bprice|\bcost\b|break[- ]?even|worth|should (?:we|i)|划算|便宜|比按|价格|多少钱|推荐|值得|要不要|怎么买|\bbuy\b`)
)

// commitmentsInWords reads a request for the commitments list written as
// a sentence ("list our commitments", "which reservations renew this
// month", "我们有哪些包年包月", "哪些包月快到期了").
func commitmentsInWords(req parse.Request) bool {
	t := req.Text
	s := req.Slots
	if s.ParamsB > 0 || s.Model != "" || s.Arch != "" || len(s.GPUs) > 0 {
		return false
	}
	return reCommitNoun.MatchString(t) && reCommitList.MatchString(t) && !reCommitPrice.MatchString(t)
}
