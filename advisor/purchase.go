package advisor

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// PurchaseRow is one sourced purchase price an answer used.
type PurchaseRow struct {
	Item       string               `json:"item"`
	Figure     string               `json:"figure"` // as the source gives it, e.g. "$2200–2800"
	Region     string               `json:"region"`
	Currency   knowledge.Currency   `json:"currency"`
	Date       string               `json:"date"`
	Source     string               `json:"source"`
	URL        string               `json:"url"`
	Confidence knowledge.Confidence `json:"confidence"`
}

// PurchaseQuote is the dated market purchase price of a card or a server:
// the range over the newest sourced rows, in the answer's currency.
type PurchaseQuote struct {
	GPU       string             `json:"gpu"`
	Condition string             `json:"condition"` // new, used
	Server    bool               `json:"server"`    // priced per 8-GPU server
	Cards     int                `json:"cards"`     // cards the unit price covers
	Low       float64            `json:"low"`       // per unit
	High      float64            `json:"high"`
	Price     float64            `json:"price"` // the figure computed with: the middle of the range
	Currency  knowledge.Currency `json:"currency"`
	// CardsOnly marks a server priced as its cards alone, because no
	// sourced row prices the whole machine.
	CardsOnly bool          `json:"cards_only,omitempty"`
	Newest    string        `json:"newest"` // the newest row's date as written
	Rows      []PurchaseRow `json:"rows"`
	// Card is the price of the card alone (its own rows, the same
	// condition) beside a server's price, so that an answer can say what
	// a server's share per card (its price ÷ 8) holds beyond the card:
	// CPUs, memory, chassis, and the market of the server rows' date
	// (issue #22: 8×H20 at ¥1.2–1.5M, 2024, is ¥168,750 a card; the card
	// alone ¥72,000–93,600, 2025-05). nil for a card, or when no row
	// prices the card alone.
	Card *PurchaseQuote `json:"card,omitempty"`
}

// PerCard is the price per card.
func (q PurchaseQuote) PerCard() float64 { return q.Price / float64(max(q.Cards, 1)) }

// marketWindow is how far back from the newest row a row still counts:
// rows within twelve months of it form the range, older ones are history.
const marketWindow = 12

// MarketPurchase picks the market purchase price of gpu ("new" or "used")
// from the shipped rows. A server (8 cards) uses the rows that price a
// whole 8-GPU machine, else 8 × the card price with CardsOnly set. Low-
// confidence rows count only when nothing better exists. The range is
// the lowest low to the highest high of the rows dated within twelve
// months of the newest one; conflicting sources are both in that range
// and both named in Rows. found is false when no row prices the card.
func MarketPurchase(rows []knowledge.PurchasePrice, gpu, condition string, server bool, cur knowledge.Currency, fx float64) (q PurchaseQuote, found bool) {
	if condition == "" {
		condition = "new"
	}
	pick := func(kind string, gpus int) []knowledge.PurchasePrice {
		var out, low []knowledge.PurchasePrice
		for _, r := range rows {
			if r.GPU != gpu || r.Condition != condition || r.Kind != kind || r.GPUs != gpus || r.Sortable() == "" {
				continue
			}
			if r.Confidence == knowledge.Low {
				low = append(low, r)
				continue
			}
			out = append(out, r)
		}
		if len(out) == 0 {
			out = low
		}
		return newest(out)
	}
	q = PurchaseQuote{GPU: gpu, Condition: condition, Server: server, Cards: 1, Currency: cur}
	sel := pick("card", 1)
	if server {
		q.Cards = 8
		if s := pick("server", 8); len(s) > 0 {
			sel = s
		} else {
			q.CardsOnly = true
		}
	}
	if len(sel) == 0 {
		return q, false
	}
	mult := 1.0
	if q.CardsOnly {
		mult = 8
	}
	for i, r := range sel {
		lo, hi := Convert(r.Low, r.Currency, cur, fx)*mult, Convert(r.High, r.Currency, cur, fx)*mult
		if i == 0 || lo < q.Low {
			q.Low = lo
		}
		if hi > q.High {
			q.High = hi
		}
		fig := money(r.Low, r.Currency)
		if r.High != r.Low {
			fig += "–" + num(r.High)
		}
		q.Rows = append(q.Rows, PurchaseRow{Item: r.Item, Figure: fig, Region: r.Region, Currency: r.Currency, Date: r.Date, Source: r.SourceTitle, URL: r.SourceURL, Confidence: r.Confidence})
	}
	q.Low, q.High = Round2(q.Low), Round2(q.High)
	q.Price = Round2((q.Low + q.High) / 2)
	q.Newest = sel[0].Date
	if q.Server && !q.CardsOnly {
		if c, ok := MarketPurchase(rows, gpu, condition, false, cur, fx); ok {
			q.Card = &c
		}
	}
	return q, true
}

// newest keeps the rows dated within marketWindow months of the newest,
// newest first.
func newest(rows []knowledge.PurchasePrice) []knowledge.PurchasePrice {
	if len(rows) == 0 {
		return nil
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Sortable() > rows[j].Sortable() })
	top := monthIndex(rows[0].Sortable())
	var out []knowledge.PurchasePrice
	for _, r := range rows {
		if top-monthIndex(r.Sortable()) <= marketWindow {
			out = append(out, r)
		}
	}
	return out
}

// monthIndex counts months since year 0 for a YYYY-MM-DD date.
func monthIndex(d string) int {
	var y, m, day int
	if _, err := fmt.Sscanf(d, "%d-%d-%d", &y, &m, &day); err != nil {
		return 0
	}
	return y*12 + m - 1
}

// purchaseHow writes a quote for the assumptions line.
func (q PurchaseQuote) how(lang string) string {
	unit := "per card"
	if q.Server {
		unit = "per 8-card server"
	}
	var names []string
	for _, r := range q.Rows {
		names = append(names, fmt.Sprintf("%s %s (%s, %s, confidence %s)", r.Item, r.Figure, r.Date, r.Source, r.Confidence))
	}
	s := fmt.Sprintf("market %s price %s–%s %s (middle %s) from %d sourced row(s): %s",
		q.Condition, money(q.Low, q.Currency), num(q.High), unit, money(q.Price, q.Currency), len(q.Rows), strings.Join(names, "; "))
	if lang == "zh" {
		s = fmt.Sprintf("市场%s价 %s–%s %s（取中间值 %s），来自 %d 条有出处的记录：%s",
			map[string]string{"new": "新卡", "used": "二手"}[q.Condition], money(q.Low, q.Currency), num(q.High),
			map[bool]string{true: "每台 8 卡服务器", false: "每卡"}[q.Server], money(q.Price, q.Currency), len(q.Rows), strings.Join(names, "；"))
	}
	if c := q.Card; c != nil {
		s += txt(
			fmt.Sprintf("; the server ÷ 8 = %s per card, which holds the machine's CPUs, memory and chassis too (at the server rows' date, %s); the card alone is %s–%s (%s, %d row(s))",
				money(q.PerCard(), q.Currency), q.Newest, money(c.Low, c.Currency), num(c.High), c.Newest, len(c.Rows)),
			fmt.Sprintf("；整机价 ÷ 8 = 每卡 %s，含 CPU、内存、机箱等整机部分（且按整机记录的日期 %s）；单卡本身 %s–%s（%s，%d 条记录）",
				money(q.PerCard(), q.Currency), q.Newest, money(c.Low, c.Currency), num(c.High), c.Newest, len(c.Rows))).In(lang)
	}
	if q.CardsOnly {
		if lang == "zh" {
			s += "；数据里没有整机价：按 8 张卡的价格计，不含机箱、CPU、内存与电源，有报价请用 price= 给出"
		} else {
			s += "; no sourced price for the whole server: 8 × the card price, chassis, CPUs, memory and PSUs not included — give price= for a quote"
		}
	}
	return s
}
