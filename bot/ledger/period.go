package ledger

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Period is a run of whole calendar months a report covers: one month,
// a quarter (2026-Q4) or a year.
type Period struct {
	First  Month  `json:"first"`
	Months int    `json:"months"`
	Label  string `json:"label"` // "2026-11", "2026-Q4", "2026"
}

// MonthPeriod is the one-month period m.
func MonthPeriod(m Month) Period { return Period{First: m, Months: 1, Label: m.String()} }

// QuarterOf is the calendar quarter holding m.
func QuarterOf(m Month) Period {
	q := (int(m.Month) - 1) / 3
	return Period{First: Month{Year: m.Year, Month: time.Month(q*3 + 1)}, Months: 3, Label: fmt.Sprintf("%d-Q%d", m.Year, q+1)}
}

// YearOf is the calendar year holding m.
func YearOf(m Month) Period {
	return Period{First: Month{Year: m.Year, Month: time.January}, Months: 12, Label: strconv.Itoa(m.Year)}
}

// Last is the period's last month.
func (p Period) Last() Month {
	m := p.First
	for range p.Months - 1 {
		m = m.Next()
	}
	return m
}

// Prev is the period of the same length just before p (Q3 before Q4).
func (p Period) Prev() Period {
	m := p.First
	for range p.Months {
		m = m.Prev()
	}
	switch p.Months {
	case 3:
		return QuarterOf(m)
	case 12:
		return YearOf(m)
	}
	return MonthPeriod(m)
}

// Start and End bound the period in loc.
func (p Period) Start(loc *time.Location) time.Time { return p.First.Start(loc) }

// End is the start of the month after the period's last.
func (p Period) End(loc *time.Location) time.Time { return p.Last().End(loc) }

// MonthsIn lists the period's months, oldest first.
func (p Period) MonthsIn() []Month {
	out := []Month{p.First}
	for len(out) < p.Months {
		out = append(out, out[len(out)-1].Next())
	}
	return out
}

var (
	reQuarterISO = regexp.MustCompile(`(?i)\b(\d{4})\s*[-/ ]?\s*q([1-4])\b|\bq([1-4])\s*[-/ ]?\s*(\d{4})\b`)
	reQuarterQ   = regexp.MustCompile(`(?i)\bq([1-4])\b`)
	reQuarterZH  = regexp.MustCompile(`(?:(\d{4})\s*年\s*)?(?:第\s*)?([一二三四1-4])\s*季度`)
	reQuarterRel = regexp.MustCompile(`(?i)上个?季度|上一季度|last quarter|previous quarter|本季度|这个?季度|当季|this quarter|current quarter`)
	reYearRel    = regexp.MustCompile(`(?i)今年|本年度?|this year|year to date|ytd|去年|last year`)
)

var zhQuarter = map[string]int{"一": 1, "二": 2, "三": 3, "四": 4, "1": 1, "2": 2, "3": 3, "4": 4}

// ReadPeriod finds a quarter or a year in a report's text: "2026-Q4",
// "Q3 2026", "Q3", "三季度", "2026年第三季度", "上季度", "this quarter",
// "今年", "last year". A quarter without a year is the latest one that has
// begun at now. ok is false when the text names neither (a month report).
// BadQuarter returns a quarter the text names that does not exist
// ("2026-Q9", "Q0"), so a report is refused instead of quietly showing
// this month.
func BadQuarter(text string) (string, bool) {
	m := reBadQuarter.FindString(strings.ToLower(text))
	return m, m != ""
}

var reBadQuarter = regexp.MustCompile(`\b\d{4}\s*[-/ ]?\s*q(?:[05-9]|\d{2,})\b|\bq(?:[05-9]|\d{2,})\s*[-/ ]?\s*\d{4}\b`)

func ReadPeriod(text string, now time.Time, loc *time.Location) (Period, bool) {
	t := strings.ToLower(text)
	cur := MonthOf(now, loc)
	quarter := func(y, q int) Period {
		p := QuarterOf(Month{Year: y, Month: time.Month(q*3 - 2)})
		return p
	}
	latest := func(q int) Period {
		p := quarter(cur.Year, q)
		if p.First.Year*12+int(p.First.Month) > cur.Year*12+int(cur.Month) {
			p = quarter(cur.Year-1, q)
		}
		return p
	}
	if m := reQuarterISO.FindStringSubmatch(t); m != nil {
		y, q := m[1], m[2]
		if y == "" {
			q, y = m[3], m[4]
		}
		yy, _ := strconv.Atoi(y)
		qq, _ := strconv.Atoi(q)
		return quarter(yy, qq), true
	}
	if m := reQuarterZH.FindStringSubmatch(t); m != nil {
		q := zhQuarter[m[2]]
		if m[1] != "" {
			y, _ := strconv.Atoi(m[1])
			return quarter(y, q), true
		}
		return latest(q), true
	}
	if m := reQuarterQ.FindStringSubmatch(t); m != nil {
		q, _ := strconv.Atoi(m[1])
		return latest(q), true
	}
	if m := reQuarterRel.FindString(t); m != "" {
		p := QuarterOf(cur)
		if strings.Contains(m, "上") || strings.Contains(m, "last") || strings.Contains(m, "previous") {
			p = p.Prev()
		}
		return p, true
	}
	if m := reYearRel.FindString(t); m != "" {
		p := YearOf(cur)
		if m == "去年" || m == "last year" {
			p = p.Prev()
		}
		return p, true
	}
	return Period{}, false
}

// Check is a budget set against spend: the spend the user stated
// (card-hours × a rate) or the ledger's, with the steps that reach it.
type Check struct {
	Budget Money   `json:"budget"`
	Spent  Money   `json:"spent"`
	Left   Money   `json:"left"` // Budget − Spent (negative when over)
	Share  float64 `json:"share"`
	Over   bool    `json:"over"`
	// CardHours and Rate are the stated figures of a what-if (0 and zero
	// Money when Spent came from the ledger).
	CardHours float64 `json:"card_hours,omitempty"`
	Rate      Money   `json:"rate,omitzero"`
	How       string  `json:"how"`
}

// CheckStated is budget against cardHours × rate, the figures a user gave
// ("每月预算5000，1800个卡时，按2块一小时"): 1,800 × ¥2.00 = ¥3,600.00 ≤
// ¥5,000.00, not over. budget and rate must share a currency.
func CheckStated(budget Money, cardHours float64, rate Money) (Check, error) {
	if budget.Currency != rate.Currency {
		return Check{}, inputErr("currency", "the budget is in %s and the rate in %s; give both in one currency", budget.Currency, rate.Currency)
	}
	if cardHours <= 0 || rate.Minor <= 0 || budget.Minor <= 0 {
		return Check{}, inputErr("figures", "need a budget, card-hours and a rate above zero")
	}
	spent := Money{Minor: int64(math.Round(cardHours * float64(rate.Minor))), Currency: budget.Currency}
	c := CheckSpent(budget, spent)
	c.CardHours, c.Rate = cardHours, rate
	c.How = fmt.Sprintf("%s card-hours × %s = %s; %s − %s = %s", fmtNum(cardHours), rate, spent, budget, spent, c.Left)
	return c, nil
}

// CheckSpent is budget against spent (same currency).
func CheckSpent(budget, spent Money) Check {
	c := Check{Budget: budget, Spent: spent, Left: Money{Minor: budget.Minor - spent.Minor, Currency: budget.Currency}}
	if budget.Minor > 0 {
		c.Share = float64(spent.Minor) / float64(budget.Minor)
	}
	c.Over = spent.Minor > budget.Minor
	c.How = fmt.Sprintf("%s − %s = %s", budget, spent, c.Left)
	return c
}

// ConvertMoney is m in fx.To, when fx covers its currency.
func (fx FX) ConvertMoney(m Money) (Money, bool) {
	if m.Currency == fx.To {
		return m, true
	}
	return fx.Convert(Amounts{m.Currency: m.Minor})
}
