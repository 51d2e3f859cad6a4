package present

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Num prints a figure the way every answer and post does: thousands
// grouped and whole from 1,000 up, at most two decimals below that, three
// below 1 (so $0.198 per million tokens is not shown as $0.2), no trailing
// zeros.
func Num(f float64) string {
	if math.Abs(f) >= 1000 {
		return group(strconv.FormatFloat(math.Round(f), 'f', 0, 64))
	}
	dec := 2
	if math.Abs(f) < 1 {
		dec = 3
	}
	p := math.Pow(10, float64(dec))
	s := strconv.FormatFloat(math.Round(f*p)/p, 'f', dec, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

func group(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Symbol is a currency's sign: ¥ for CNY, $ for USD, else the code.
func Symbol(cur string) string {
	switch strings.ToUpper(cur) {
	case "CNY", "RMB":
		return "¥"
	case "USD":
		return "$"
	case "":
		return ""
	}
	return cur + " "
}

// Money writes an amount with its currency sign: ¥1,235, $0.15, −$40.
func Money(v float64, cur string) string {
	if v < 0 {
		return "−" + Symbol(cur) + Num(-v)
	}
	return Symbol(cur) + Num(v)
}

// Pct writes a fraction (0.62) as a percentage ("62%").
func Pct(frac float64) string { return Num(frac*100) + "%" }

// SignedPct writes a change already in percent with its sign ("+4.2%",
// "−3%"), as the digest and recap show moves.
func SignedPct(p float64) string {
	switch {
	case p > 0:
		return "+" + Num(p) + "%"
	case p < 0:
		return "−" + Num(-p) + "%"
	}
	return "0%"
}

// Date writes a day: 2026-09-01 in English, 2026年9月1日 in Chinese.
func Date(t time.Time, l Lang) string {
	if l == ZH {
		return fmt.Sprintf("%d年%d月%d日", t.Year(), t.Month(), t.Day())
	}
	return t.Format("2006-01-02")
}

// Age says how long ago an observation date (YYYY-MM-DD or RFC 3339) was:
// "89 days ago" / "89 天前"; "" when the date cannot be read or is ahead.
func Age(l Lang, observed string, now time.Time) string {
	t, err := time.Parse("2006-01-02", observed)
	if err != nil {
		if t, err = time.Parse(time.RFC3339, observed); err != nil {
			return ""
		}
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return ""
	case d < time.Hour:
		return l.Pick("just now", "刚刚")
	case d < 48*time.Hour:
		h := int(d.Hours())
		return l.Pick(fmt.Sprintf("%d h ago", h), fmt.Sprintf("%d 小时前", h))
	}
	days := int(d.Hours() / 24)
	return l.Pick(fmt.Sprintf("%d days ago", days), fmt.Sprintf("%d 天前", days))
}
