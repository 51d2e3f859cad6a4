package bot

import (
	"context"
	"regexp"
	"strings"

	"github.com/gpubot/gpubot/bot/parse"
)

// Several entries in one message: "Research spent $38,000 in April and
// $45,500 in May", "team Vision $9,800 in Feb, team NLP $22,300, team
// Speech $4,100", "本月已经花了：H800 租赁 12.5 万，API 调用 4.8 万", "Jan $71k,
// Feb $78k, Mar $86k". Each amount is its own entry: the clause it stands
// in, with the subject and the month of the first clause when its own
// names none. Booking only the first lost the rest in silence.

var (
	// reEntryBreak separates the clauses of a statement of spend
	reEntryBreak = regexp.MustCompile(`[，,;；、]\s*|\s+and\s+|\s*以及\s*|\s*和\s*|\s*还有\s*`)
	// reStatesSpend is a statement that money was spent or is to be booked
	reStatesSpend = regexp.MustCompile(`(?i)\bspent\b|\blog\b|\brecord\b|\bbook\b|\bactuals?\b|\bpaid\b|花了|记录|记一下|记一笔|记账|支出|开销`)
	// reOneTotal says the figures add up to one entry's total
	reOneTotal = regexp.MustCompile(`共|总共|合计|一共|\btotal\b|in all|altogether|单价|each|apiece|per card|每张|每台`)
	// reMonthWord is a month said in a clause
	reMonthWord = regexp.MustCompile(`(?i)\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|\d{1,2}\s?月份?|本月|这个月|上个月|this month|last month`)
)

// splitEntries is the clauses of a statement of spend that each carry an
// amount, written so each reads as one entry alone; nil unless there are
// two or more.
func splitEntries(req parse.Request) []string {
	t := strings.TrimSpace(req.Text)
	if req.Slash || !reStatesSpend.MatchString(t) || reAsksAnything.MatchString(strings.ToLower(t)) || req.Slots.ParamsB > 0 ||
		reAtRate.MatchString(strings.ToLower(t)) || reOneTotal.MatchString(strings.ToLower(t)) {
		return nil // "每卡时12元，共9216元": a rate and its total, one entry
	}
	var clauses []string
	for _, c := range reEntryBreak.Split(t, -1) {
		if c = strings.TrimSpace(c); c != "" && reAmount.MatchString(strings.ToLower(c)) {
			clauses = append(clauses, c)
		} else if c != "" && len(clauses) > 0 && !reAmount.MatchString(strings.ToLower(c)) {
			clauses[len(clauses)-1] += " " + c // "… $38,000" + "in April": the same entry
		}
	}
	if len(clauses) < 2 {
		return nil
	}
	first := clauses[0]
	loc := reAmount.FindStringIndex(strings.ToLower(first))
	subject := strings.TrimSpace(first[:loc[0]]) // "Research spent", "本月已经花了：H800 租赁"
	month := reMonthWord.FindString(first)
	out := make([]string, len(clauses))
	for i, c := range clauses {
		if i > 0 {
			own := strings.TrimSpace(c[:reAmount.FindStringIndex(strings.ToLower(c))[0]])
			if own == "" || !hasLetters(own) {
				c = subject + " " + c // "$45,500 in May": Research's too
			}
			if month != "" && !reMonthWord.MatchString(c) {
				c += " in " + month // "team NLP $22,300": in Feb as well
			}
		}
		out[i] = asEntry(c, req.Lang)
	}
	return out
}

// asEntry writes a clause the way the ledger reads one entry: in Chinese
// the amount first after "log" ("log 12.5 万 本月 H800 租赁": a figure
// after a card reads as its price), in English with "spent" said.
func asEntry(c, lang string) string {
	if m := reMonthWord.FindString(c); m != "" && m[0] < 0x80 && !strings.Contains(strings.ToLower(c), "in "+strings.ToLower(m)) {
		c = strings.Replace(c, m, "", 1) + " in " + m // "Mar $86k": booked to March
	}
	l := strings.ToLower(c)
	loc := reAmount.FindStringIndex(l)
	if lang != "en" {
		rest := strings.TrimSpace(c[:loc[0]] + " " + c[loc[1]:])
		rest = reStatesSpend.ReplaceAllString(rest, "")
		amt := c[loc[0]:loc[1]]
		if !strings.ContainsAny(amt, "¥￥$元块") {
			amt += "元" // the asker's yuan, said so the entry is not read in dollars
		}
		return "log " + amt + " " + strings.Trim(rest, " ：:")
	}
	if !rePaidPast.MatchString(l) {
		return "spent " + c
	}
	return c
}

// hasLetters reports whether s names something (letters or Han), not
// just a verb's leftovers.
func hasLetters(s string) bool {
	s = reStatesSpend.ReplaceAllString(s, "")
	for _, r := range s {
		if r > 127 || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// answerEntries books each clause as its own entry and answers with all
// of them, in order.
func (b *Bot) answerEntries(ctx context.Context, m Message, clauses []string) Answer {
	var all Answer
	var lines []string
	for i, c := range clauses {
		sub := m
		sub.Text = c
		a := b.answer(ctx, sub)
		if i == 0 {
			all = a
		}
		lines = append(lines, a.Text)
	}
	all.Text = strings.Join(lines, "\n")
	all.Headline, _, _ = strings.Cut(all.Text, "\n")
	return all
}
