package advisor

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Market purchase prices come from the shipped rows
// (knowledge/data/procurement/purchase_prices.csv); the expected ranges
// below are read off those rows by hand.
func TestMarketPurchaseFromShippedRows(t *testing.T) {
	rows := knowledge.MustShipped().Procurement.Purchases
	for _, c := range []struct {
		name, gpu, cond string
		server          bool
		cur             knowledge.Currency
		lo, hi, mid     float64
		n               int
		cardsOnly       bool
	}{
		// Used RTX 3090, four 2026 rows: $500–800 (Local-LLM.net), $700–900
		// (BestLLMfor 2026-05-16), $700–1000 (InsiderLLM 2026-02), $600–750
		// (MyLocalAI) → $500–1000, middle $750.
		{"used 3090", "rtx3090", "used", false, knowledge.USD, 500, 1000, 750, 4, false},
		// New RTX 4090 within 12 months of the newest row (2026-02):
		// $2200–2800 (InsiderLLM) and $1700 (Local-LLM.net, 2026); the 2022
		// MSRP and the 2023 China rows are older; the $1417 Epoch listing
		// is low confidence (NOTES §9: maybe a part) → $1700–2800, mid $2250.
		{"new 4090", "rtx4090", "new", false, knowledge.USD, 1700, 2800, 2250, 2, false},
		// No sourced 8×4090 server: 8 × the card range at ¥7.2/$ →
		// 8 × 1700 × 7.2 = ¥97,920 to 8 × 2800 × 7.2 = ¥161,280, mid ¥129,600.
		{"8x4090 server", "rtx4090", "new", true, knowledge.CNY, 97920, 161280, 129600, 2, true},
		// New H100 SXM, medium rows dated 2025-01..2026: $25–40k (Stratrix),
		// $31,250 (Epoch 2025-03-03), $30–32k (RunLocalAI), $30k (fp4.dev)
		// → $25,000–40,000, mid $32,500 (the 2023 TechSpot row is older).
		{"new h100", "h100-sxm", "new", false, knowledge.USD, 25000, 40000, 32500, 4, false},
	} {
		q, ok := MarketPurchase(rows, c.gpu, c.cond, c.server, c.cur, 7.2)
		if !ok {
			t.Errorf("%s: no market price", c.name)
			continue
		}
		if q.Low != c.lo || q.High != c.hi || q.Price != c.mid || len(q.Rows) != c.n || q.CardsOnly != c.cardsOnly {
			t.Errorf("%s: %v–%v mid %v from %d rows (cards only %v); want %v–%v mid %v from %d (%v)",
				c.name, q.Low, q.High, q.Price, len(q.Rows), q.CardsOnly, c.lo, c.hi, c.mid, c.n, c.cardsOnly)
		}
		for _, r := range q.Rows {
			if r.Source == "" || r.URL == "" || r.Date == "" || r.Confidence == "" {
				t.Errorf("%s: row %+v lacks its source, date or confidence", c.name, r)
			}
		}
	}
	if _, ok := MarketPurchase(rows, "h20", "used", false, knowledge.USD, 7.2); ok {
		t.Error("no used H20 row is shipped: want none")
	}
}

// Without a quote, 64 H100s are priced at the market price per card
// ($32,500, above), not a per-card price divided by 64 ($507.81).
func TestBuyManyCardsKeepsThePerCardPrice(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	purchases := knowledge.MustShipped().Procurement.Purchases
	r, err := Buy(BuyInput{GPU: "h100", Cards: 64, Rent: usd(2.5), Purchases: purchases}, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.PricePerCard != 32500 || r.MarketPurchase == nil {
		t.Errorf("64 × H100 without a quote: %v per card, want the market $32,500", r.PricePerCard)
	}
	// A quote with cards= is the machine's total unless it says per card:
	// ¥2,000,000 ÷ 8 = ¥250,000 a card; "¥250,000 each" stays ¥250,000.
	cny := func(a float64) Money { return Money{a, knowledge.CNY} }
	r, err = Buy(BuyInput{GPU: "h800", Cards: 8, Purchase: cny(2000000), Rent: cny(9.6), Currency: knowledge.CNY}, m)
	if err != nil || r.PricePerCard != 250000 {
		t.Errorf("machine total: %v per card (%v), want 250000", r.PricePerCard, err)
	}
	r, err = Buy(BuyInput{GPU: "h800", Cards: 8, Purchase: cny(250000), PerCardQuote: true, Rent: cny(9.6), Currency: knowledge.CNY}, m)
	if err != nil || r.PricePerCard != 250000 {
		t.Errorf("per-card quote: %v per card (%v), want 250000", r.PricePerCard, err)
	}
}

// /gpu buy 4090 util=30% rent=0.6usd with the market price, by hand:
// price $2250; depreciation 2250 ÷ 3 = 750, operations 20 % = 450,
// capital 5 % = 112.5 → fixed 1312.5 a year; power 0.45 kW × 1.4 × $0.12 =
// $0.0756/h, margin 0.6 − 0.0756 = 0.5244/h; break-even 1312.5 ÷ (8760 ×
// 0.5244) = 28.57 %; payback 2250 ÷ (0.3 × 730 × 0.5244 − 562.5 ÷ 12) =
// 2250 ÷ 67.9686 = 33.1 months. A 20 % residual value cuts depreciation to
// (2250 − 450) ÷ 3 = 600 → break-even 1162.5 ÷ 4593.744 = 25.31 %.
func TestBuyWithMarketPriceByHand(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	purchases := knowledge.MustShipped().Procurement.Purchases
	in := BuyInput{GPU: "4090", Utilization: 0.3, Rent: usd(0.6), Purchases: purchases}
	r, err := Buy(in, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.PricePerCard != 2250 || r.BreakevenUtilization != 0.2857 || r.PaybackMonths != 33.1 || r.Cheaper != "buy" {
		t.Errorf("4090 at 30%%: price %v, break-even %v, payback %v, %s; want 2250, 0.2857, 33.1, buy",
			r.PricePerCard, r.BreakevenUtilization, r.PaybackMonths, r.Cheaper)
	}
	res := 0.2
	in.Residual = &res
	if r, err = Buy(in, m); err != nil || r.BreakevenUtilization != 0.2531 {
		t.Errorf("with 20%% residual: break-even %v (%v), want 0.2531", r.BreakevenUtilization, err)
	}
	// Used and nothing sourced: a clear error naming the condition.
	if _, err := Buy(BuyInput{GPU: "h20", Condition: "used", Rent: usd(1), Purchases: purchases}, m); err == nil {
		t.Error("a used H20 has no sourced price: want an input error")
	}
}

// 64 H100s cannot rent from one marketplace listing: rent is the cheapest
// cluster seller in the shipped rows, CoreWeave 8x H100 $22–28/instance-h
// (Disintermediate, Q1 2026) = $22 ÷ 8 = $2.75/card-h (below Nebius
// $2.95). By hand at 70 %: price $32,500; fixed 32500 ÷ 3 + 20 % + 5 % =
// 10833.33 + 6500 + 1625 = 18958.33; power 0.7 kW × 1.5 × 1.4 × $0.12 =
// $0.1764/h; break-even 18958.33 ÷ (8760 × (2.75 − 0.1764)) = 84.09 %.
// Eight cards (one machine) keep the listing's rent.
func TestBuyClusterRentsFromClusterSellers(t *testing.T) {
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	in := BuyInput{GPU: "h100", Cards: 64, Currency: knowledge.USD, Purchases: kb.Procurement.Purchases, Reserved: kb.Procurement.Reserved}
	r, err := Buy(in, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.ClusterRent == nil || r.ClusterRent.Provider != "CoreWeave" || r.ClusterRent.PerGPUHour != 2.75 || r.BreakevenUtilization != 0.8409 {
		t.Errorf("64 × H100: cluster rent %+v, break-even %v; want CoreWeave $2.75, 0.8409", r.ClusterRent, r.BreakevenUtilization)
	}
	in.Cards = 8
	if r, err = Buy(in, m); err != nil || r.ClusterRent != nil {
		t.Errorf("8 × H100: cluster rent %+v (%v), want the listing's rent", r.ClusterRent, err)
	}
}

// An 8×H20 server (issue #22): its rows and the card's rows disagree per
// card, and the quote says both. Server rows within 12 months of the
// newest (2024-07): ¥1.2M (Huxiu 2024-07), ¥1.5M (IT时报 2024-02), ¥1.4M
// (Reuters ~2024-01/02) → ¥1.2–1.5M, mid ¥1.35M, ÷ 8 = ¥168,750 a card.
// Card rows within 12 months of the newest (2025-05-25): $10–12k (Reuters
// 2025-05-25), $12–13k (SemiAnalysis 2024-07-05) → $10,000–13,000 ×
// 7.2 = ¥72,000–93,600, mid ¥82,800. The difference is the server's CPUs,
// memory and chassis and the older date; both are named.
func TestServerQuoteNamesTheCardAlone(t *testing.T) {
	rows := knowledge.MustShipped().Procurement.Purchases
	q, ok := MarketPurchase(rows, "h20", "new", true, knowledge.CNY, 7.2)
	if !ok || q.CardsOnly || q.PerCard() != 168750 || q.Card == nil {
		t.Fatalf("server quote %+v, per card %v; want ¥168,750 a card with the card alone beside it", q, q.PerCard())
	}
	if c := q.Card; c.Low != 72000 || c.High != 93600 || c.PerCard() != 82800 || c.Newest != "2025-05-25" {
		t.Errorf("card alone %v–%v (mid %v, %s); want ¥72,000–93,600, mid ¥82,800, 2025-05-25", c.Low, c.High, c.PerCard(), c.Newest)
	}
	for _, lang := range []string{"en", "zh"} {
		if h := q.how(lang); !strings.Contains(h, "¥168750") || !strings.Contains(h, "¥72000–93600") {
			t.Errorf("how(%s) = %q: want the server's share per card and the card alone", lang, h)
		}
	}
	if c, _ := MarketPurchase(rows, "h20", "new", false, knowledge.CNY, 7.2); c.Card != nil {
		t.Errorf("a card's quote carries a card quote")
	}
}
