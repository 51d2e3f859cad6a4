package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// lineKind is what a bill line is, read from its charge category column
// (FOCUS ChargeCategory, CUR lineItem/LineItemType, GCP cost_type) and
// its sign.
type lineKind int

const (
	lineUsage  lineKind = iota // GPU time, or a non-GPU cost found from the service
	lineCredit                 // money back: a credit, refund or discount
	lineTax                    // tax: never GPU time
	lineAdjust                 // an adjustment: a credit when negative, a fee otherwise
)

// chargeCategories maps category values (folded: lower case, no spaces or
// "_") to a lineKind. Values not listed read as usage.
var chargeCategories = map[string]lineKind{
	"usage": lineUsage, "discountedusage": lineUsage, "savingsplancoveredusage": lineUsage, "regular": lineUsage, "purchase": lineUsage,
	"fee": lineUsage, "rifee": lineUsage, "savingsplanrecurringfee": lineUsage, "savingsplanupfrontfee": lineUsage,
	"credit": lineCredit, "credits": lineCredit, "refund": lineCredit, "discount": lineCredit, "bundleddiscount": lineCredit,
	"edpdiscount": lineCredit, "privaterateddiscount": lineCredit, "savingsplannegation": lineCredit, "退款": lineCredit, "抵扣": lineCredit,
	"tax": lineTax, "vat": lineTax, "gst": lineTax, "税": lineTax, "税费": lineTax, "税金": lineTax,
	"adjustment": lineAdjust, "roundingerror": lineAdjust, "调账": lineAdjust,
}

// nonGPUWords sorts a line that names no card into a non-GPU category by
// the words of its service, SKU, instance type or note; checked in order.
var nonGPUWords = []struct {
	category string
	words    []string
}{
	{CatTax, []string{"tax", "vat", "税"}},
	{CatSupport, []string{"support", "技术支持", "支持计划", "服务支持"}},
	{CatNetwork, []string{"network", "data transfer", "datatransfer", "egress", "bandwidth", "cloudfront", "nat gateway", "load balanc", "vpc", "cdn", "流量", "带宽", "公网", "负载均衡", "网络"}},
	{CatStorage, []string{"storage", "s3", "ebs", "efs", "fsx", "snapshot", "persistent disk", "disk", "oss", "nas", "云盘", "块存储", "存储", "快照"}},
	{CatCompute, []string{"instance core", "instance ram", "core running", "ram running", "compute", "ec2", "ecs", "vcpu", "memory", "云服务器", "实例"}},
}

// valueFolder is built once: a Replacer built per call cost an import of
// 50,000 rows 0.9 GB of allocations.
var valueFolder = strings.NewReplacer(" ", "", "_", "", "-", "")

func foldValue(s string) string {
	return valueFolder.Replace(strings.ToLower(strings.TrimSpace(s)))
}

// readRow turns one record into the entries ready to insert: the line, and
// when the line carries GCP-style credits, a credit entry after it. given
// reports whether the amount came from the file (not derived).
func (l *Ledger) readRow(ctx context.Context, team, user string, width int, cols map[string]column, rec []string, line int, confirm bool, defPlatform string) ([]Entry, bool, []RowError) {
	var probs []RowError
	get := func(f string) string {
		c, ok := cols[f]
		if !ok || c.idx >= len(rec) {
			return ""
		}
		return strings.TrimSpace(rec[c.idx])
	}
	bad := func(f, reason string) {
		col := f
		if c, ok := cols[f]; ok {
			col = c.header
		}
		probs = append(probs, RowError{Row: line, Column: col, Value: get(f), Reason: reason})
	}
	if len(rec) > width { // even when the extra field is empty: "¥1,600.00,," shifts every later column
		probs = append(probs, RowError{Row: line, Reason: fmt.Sprintf(
			"%d fields but the header has %d; quote numbers with a thousands comma (\"1,600.00\")", len(rec), width)})
		return nil, false, probs
	}

	e := Entry{Team: team, User: user, Project: get("project"), Platform: get("platform"), Note: get("note"), Confirm: confirm, CostCenter: get("team")}
	if e.Platform == "" {
		e.Platform = defPlatform
	}
	if tags := get("tags"); tags != "" {
		if e.CostCenter == "" {
			e.CostCenter = tagValue(tags, "team", "cost center", "costcenter", "cost centre", "cost-center", "cost_center", "财务单元", "部门", "团队")
		}
		if e.Project == "" {
			e.Project = tagValue(tags, "project", "项目")
		}
	}
	if e.CostCenter != "" {
		e.CostCenter = normProject(e.CostCenter)
	}
	var err error
	if v := get("start"); v != "" {
		if e.Start, err = parseWhen(v, l.loc); err != nil {
			bad("start", err.Error())
		}
	}
	if v := get("end"); v != "" {
		if e.End, err = parseWhen(v, l.loc); err != nil {
			bad("end", err.Error())
		}
	}
	switch v := get("date"); {
	case v != "":
		if e.At, err = parseWhen(v, l.loc); err != nil {
			bad("date", err.Error())
		}
	case e.Start.IsZero():
		bad("date", "missing")
	}
	if !e.Start.IsZero() && !e.At.IsZero() && e.At.Hour() == 0 && e.At.Minute() == 0 && sameDay(e.At, e.Start) {
		e.At = e.Start // a date plus a start time: the start is more precise
	}
	if e.At.IsZero() {
		e.At = e.Start
	}
	if !e.Start.IsZero() && !e.At.IsZero() && !sameDay(e.At, e.Start) && MonthOf(e.At, l.loc) == MonthOf(e.Start, l.loc) && e.At.Day() == 1 {
		e.At = e.Start // a billing month ("账期 2026-11") and the line's own start: the start dates it
	}

	// The amount, its currency and its sign.
	var cur knowledge.Currency
	if c, err := parseCurrency(cols["amount"].unit); err == nil { // 金额(元), Amount (USD), cost_usd
		cur = c
	}
	if v := get("currency"); v != "" {
		if cur, err = parseCurrency(v); err != nil {
			bad("currency", err.Error())
		}
	}
	given := false
	if v := get("amount"); v != "" {
		v, neg := negativeAmount(v)
		m, err := ParseAmount(billDecimalComma(v), cur)
		switch {
		case err != nil:
			bad("amount", err.Error())
		case cur != "" && m.Currency != cur:
			bad("amount", fmt.Sprintf("written in %s but the currency column says %s", m.Currency, cur))
		default:
			if m.Currency == "" {
				m.Currency = l.cur
			}
			if neg {
				m.Minor = -m.Minor
			}
			e.Amount, given = m, true
		}
	}
	if v := get("billing"); v != "" {
		b, ok := ParseBilling(v)
		if !ok {
			bad("billing", "not on_demand/按量, monthly/包月 or spot/竞价")
		}
		e.Billing = b
		if t := TermOf(v); t > 1 {
			e.TermMonths = t // 包年: a twelve-month prepaid term
		}
	}

	kind := chargeCategories[foldValue(get("category"))]
	if kind == lineAdjust {
		kind = lineUsage
		if e.Amount.Minor < 0 {
			kind = lineCredit
		}
	}
	if e.Amount.Minor < 0 {
		kind = lineCredit // a negative line is money back, whatever its category says
	}

	// The card: a gpu column (a card name or an instance type), else the
	// instance type, else the SKU or charge description.
	card, cards := "", 0
	if v := get("gpu"); v != "" {
		if g, err := l.gpu(v); err == nil {
			card = g
		} else if in, _, ok := InstanceOf(v); ok {
			card, cards = in.GPU, in.Cards
		} else {
			var in *InputError
			errors.As(err, &in)
			bad("gpu", in.Reason)
			return nil, false, probs
		}
	}
	if card == "" && kind != lineTax {
		for _, f := range []string{"instance", "sku"} {
			v := get(f)
			if v == "" {
				continue
			}
			in, fam, ok := InstanceOf(v)
			if ok {
				card, cards = in.GPU, in.Cards
				break
			}
			if _, known := instanceFamilies[fam]; known {
				bad(f, fmt.Sprintf("%s is a %s machine, but the bot does not know how many cards this size has; add a GPU Qty column", v, fam))
				break
			}
			if g := cardInText(v); g != "" {
				card = g
				break
			}
		}
	}
	if v := get("cards"); v != "" && kind != lineTax && card != "" {
		n, err := parseCards(v)
		if err != nil {
			bad("cards", err.Error())
		}
		cards = n
	}

	var credit *Entry
	if v := get("credits"); v != "" && kind == lineUsage {
		m, names, err := parseCredits(v, e.Amount.Currency)
		if err != nil {
			bad("credits", err.Error())
		} else if m.Minor != 0 {
			c := e
			c.Kind, c.Amount, c.GPU, c.Hours, c.Cards, c.Billing = Refund, m, card, 0, 0, ""
			c.Note = strings.TrimSpace("credits: " + names)
			credit = &c
		}
	}

	switch {
	case kind == lineCredit:
		e.Kind, e.GPU = Refund, card
	case kind == lineTax:
		e.Kind, e.Category = NonGPU, CatTax
	case card == "":
		cat := nonGPUCategory(get("service"), get("servicecat"), get("sku"), get("instance"), e.Note)
		if cat == "" {
			if _, ok := cols["gpu"]; ok && get("gpu") == "" {
				bad("gpu", "missing")
			} else if !hasAny(get, "service", "servicecat", "sku", "instance", "category") {
				bad("gpu", "missing: no card, instance type or service names what this line paid for")
			}
			cat = CatOther
		}
		e.Kind, e.Category = NonGPU, cat
	default:
		e.Kind, e.GPU, e.Cards = Spend, card, cards
		l.readHours(&e, get, cols, bad)
	}
	if e.Kind != Spend {
		e.Cards, e.Hours, e.Billing = 0, 0, ""
		if e.Amount.IsZero() {
			bad("amount", "missing: a credit, tax or non-GPU line is money only")
		}
	}
	if len(probs) > 0 {
		return nil, false, probs
	}
	out := make([]Entry, 0, 2)
	for _, x := range []*Entry{&e, credit} {
		if x == nil {
			continue
		}
		p, err := l.prepare(ctx, *x)
		if err != nil {
			var in *InputError
			if !errors.As(err, &in) {
				in = &InputError{Reason: err.Error()}
			}
			bad(in.Field, in.Reason)
			return nil, false, probs
		}
		out = append(out, p)
	}
	return out, given, nil
}

// readHours fills the hours of a GPU line: the hours column in its unit
// (hours, minutes, seconds; a month or year is a prepaid term with hours
// unknown), else end − start, else unknown when the line has an amount.
func (l *Ledger) readHours(e *Entry, get func(string) string, cols map[string]column, bad func(f, reason string)) {
	v := get("hours")
	if v == "" {
		switch {
		case !e.Start.IsZero() && !e.End.IsZero():
		case !e.Amount.IsZero():
			e.HoursUnknown = true // an invoice line: the money is known, the hours are not
		default:
			bad("hours", "missing")
		}
		return
	}
	unit := foldValue(get("hoursunit"))
	if unit == "" {
		unit = foldValue(cols["hours"].unit)
	}
	switch unit {
	case "", "h", "hr", "hrs", "hour", "hours", "小时", "时", "instancehours":
		h, err := parseHours(v, false)
		if err != nil {
			bad("hours", err.Error())
		}
		e.Hours = h
	case "min", "mins", "minute", "minutes", "分钟", "分":
		h, err := parseHours(v, true)
		if err != nil {
			bad("hours", err.Error())
		}
		e.Hours = h
	case "s", "sec", "secs", "second", "seconds", "秒":
		n, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", ""), 64)
		if err != nil || n < 0 {
			bad("hours", "not a number of seconds")
		}
		e.Hours = n / 3600
	case "month", "months", "mo", "月", "个月", "year", "years", "yr", "年", "week", "weeks", "周", "day", "days", "天", "日":
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || n <= 0 {
			bad("hours", "not a number of "+unit)
			return
		}
		// A prepaid term (Aliyun 服务时长 1 年): a commitment, not hours run.
		switch unit {
		case "month", "months", "mo", "月", "个月":
			e.TermMonths = int(n)
		case "year", "years", "yr", "年":
			e.TermMonths = int(n * 12)
		}
		e.Billing, e.HoursUnknown = Monthly, true
	default:
		if minutesUnit(unit) {
			h, _ := parseHours(v, true)
			e.Hours = h
			return
		}
		bad("hours", fmt.Sprintf("the unit %q is not time (hours, minutes, seconds, or a month or year for a prepaid term)", get("hoursunit")))
	}
}

func hasAny(get func(string) string, fields ...string) bool {
	for _, f := range fields {
		if get(f) != "" {
			return true
		}
	}
	return false
}

// nonGPUCategory sorts a line without a card by the words of its texts;
// "" when none of them says what it is.
func nonGPUCategory(texts ...string) string {
	t := " " + strings.ToLower(strings.Join(texts, " ")) + " "
	if strings.TrimSpace(t) == "" {
		return ""
	}
	for _, c := range nonGPUWords {
		for _, w := range c.words {
			if strings.Contains(t, w) {
				return c.category
			}
		}
	}
	return ""
}

// negativeAmount strips a minus sign or accounting parentheses: "-12.50",
// "−¥12.50", "(12.50)", "¥-12.50".
func negativeAmount(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "(") && strings.HasSuffix(v, ")") {
		return strings.TrimSpace(v[1 : len(v)-1]), true
	}
	for _, m := range []string{"-", "−", "－"} {
		if t, ok := strings.CutPrefix(v, m); ok {
			return strings.TrimSpace(t), true
		}
		for _, sym := range []string{"¥", "￥", "$", "US$"} {
			if t, ok := strings.CutPrefix(v, sym+m); ok {
				return sym + strings.TrimSpace(t), true
			}
		}
	}
	return v, false
}

// parseCredits reads GCP's credits column: a JSON array of {name, amount}
// (as BigQuery's TO_JSON_STRING writes the repeated field) or a plain
// number; the sum is money back (negative) in cur.
func parseCredits(v string, cur knowledge.Currency) (Money, string, error) {
	v = strings.TrimSpace(v)
	if v == "" || v == "[]" {
		return Money{Currency: cur}, "", nil
	}
	if cur == "" {
		cur = knowledge.CNY
	}
	if strings.HasPrefix(v, "[") {
		var cs []struct {
			Name   string          `json:"name"`
			Amount json.Number     `json:"amount"`
			Type   json.RawMessage `json:"type"`
		}
		if err := json.Unmarshal([]byte(v), &cs); err != nil {
			return Money{}, "", fmt.Errorf("not a JSON list of credits ([{\"name\":…,\"amount\":-1.5}])")
		}
		var sum int64
		var names []string
		for _, c := range cs {
			s, neg := negativeAmount(c.Amount.String())
			m, err := decimalMinor(s)
			if err != nil {
				return Money{}, "", fmt.Errorf("credit %q: amount %q is not a number", c.Name, c.Amount)
			}
			if neg {
				m = -m
			}
			sum += m
			if c.Name != "" {
				names = append(names, c.Name)
			}
		}
		return Money{Minor: -abs64(sum), Currency: cur}, strings.Join(names, ", "), nil
	}
	s, _ := negativeAmount(v)
	m, err := decimalMinor(s)
	if err != nil {
		return Money{}, "", fmt.Errorf("not a number")
	}
	return Money{Minor: -abs64(m), Currency: cur}, "", nil
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// tagValue finds one of keys in a tags cell: a JSON object ({"team":"a"}),
// a JSON list of {key, value} (GCP labels) or "k:v;k2=v2" pairs (Aliyun
// 实例标签). Keys compare folded.
func tagValue(tags string, keys ...string) string {
	want := map[string]bool{}
	for _, k := range keys {
		want[foldValue(k)] = true
	}
	tags = strings.TrimSpace(tags)
	var obj map[string]any
	if json.Unmarshal([]byte(tags), &obj) == nil {
		for k, v := range obj {
			if s, ok := v.(string); ok && want[foldValue(strings.TrimPrefix(k, "user:"))] {
				return s
			}
		}
		return ""
	}
	var list []struct{ Key, Value string }
	if json.Unmarshal([]byte(tags), &list) == nil {
		for _, kv := range list {
			if want[foldValue(kv.Key)] {
				return kv.Value
			}
		}
		return ""
	}
	for _, pair := range strings.FieldsFunc(tags, func(r rune) bool { return r == ';' || r == ',' || r == '；' }) {
		k, v, ok := strings.Cut(pair, ":")
		if !ok {
			k, v, ok = strings.Cut(pair, "=")
		}
		if ok && want[foldValue(k)] {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
