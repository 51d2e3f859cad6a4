package advisor

import (
	"fmt"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// The engine's benchmarks: one call each over the shipped knowledge, the
// work behind a typical /gpu question. make bench prints them.

func BenchmarkFit(b *testing.B) {
	kb := knowledge.MustShipped()
	w := Workload{ParamsB: 13, Method: LoRA}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Fit(w, kb.GPUs, kb.Archs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitPrepared is Fit from a prepared market (Market.Fit, as the
// bot asks): the sizing is kept in the market's cache.
func BenchmarkFitPrepared(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	w := Workload{ParamsB: 13, Method: LoRA}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Fit(w, m.GPUs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCostTraining(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := CostInput{Workload: Workload{ParamsB: 7, Method: LoRA}, GPU: "rtx4090", Samples: 50_000, Epochs: 2, Currency: knowledge.CNY}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Cost(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCostInference(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := CostInput{Workload: Workload{ParamsB: 70, Method: Inference}, Tokens: 1e8, Currency: knowledge.USD}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Cost(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMonthlyBreakEven(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := MonthlyInput{GPU: "rtx4090", HoursPerMonth: 200, Currency: knowledge.CNY}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Monthly(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuy(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := BuyInput{GPU: "h100-sxm", Currency: knowledge.USD}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Buy(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkServe(b *testing.B) {
	kb := knowledge.MustShipped()
	g, _ := kb.GPU("h100-sxm")
	in := ServeInput{Workload: Workload{Model: "llama-3.1-70b", Bits: 8}, GPU: g, Cards: 2, InputTokens: 1000, OutputTokens: 500}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Serve(in, kb.Archs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCostTrainingEveryCard(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := CostInput{Workload: Workload{ParamsB: 13, Method: LoRA}, Samples: 100_000, Currency: knowledge.CNY}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Cost(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkServingPlan(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := CostInput{Workload: Workload{ParamsB: 70, Method: Inference}, GPU: "h100", TokensPerDay: 1e7, Currency: knowledge.CNY}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Cost(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecommendInference(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := RecommendInput{Preset: PresetInference, Budget: Money{Amount: 5000}, Currency: knowledge.CNY}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Recommend(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkImage(b *testing.B) {
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	in := ImageInput{Model: "sdxl", Currency: knowledge.CNY}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Image(in, m, kb.Images); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPriceListLargeMarket is the price list for one card from a
// large market with nothing kept between calls (Offers): the shipped
// offers repeated 40 times under distinct keys, 2,680 offers of which 400
// are the H100 SXM's (a full catalogue snapshot has ~1,300 offers, ~190
// for the H100).
func BenchmarkPriceListLargeMarket(b *testing.B) {
	kb := knowledge.MustShipped()
	var offers []knowledge.Offer
	for i := range 40 {
		for _, o := range kb.Offers {
			o.Key = fmt.Sprintf("%s-%d", o.Key, i)
			offers = append(offers, o)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Offers("h100-sxm", offers, knowledge.CNY, 7.2); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCardPrepared is the card-facts answer from a prepared market
// (Market.Card, as the bot asks), asked again: the search's estimates are
// read back.
func BenchmarkCardPrepared(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	g, _ := knowledge.MustShipped().GPU("rtx5090")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Card(g, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPriceListLargeMarketPrepared is the same list from a prepared
// market (Market.PriceList, as the bot asks): built once per offer
// snapshot, currency and rate, then copied out; no offer is re-read.
func BenchmarkPriceListLargeMarketPrepared(b *testing.B) {
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	m.Offers = nil
	for i := range 40 {
		for _, o := range kb.Offers {
			o.Key = fmt.Sprintf("%s-%d", o.Key, i)
			m.Offers = append(m.Offers, o)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.PriceList("h100-sxm", knowledge.CNY, 7.2); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCardModel sizes one named model on a card at each precision
// ("can a 4090 run Qwen2.5-32B?").
func BenchmarkCardModel(b *testing.B) {
	kb := knowledge.MustShipped()
	g, _ := kb.GPU("rtx4090")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CardModel(g, 1, Workload{Model: "qwen2.5-32b"}, kb.Archs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompare(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compare([]string{"h100", "a100", "4090"}, m, knowledge.CNY, 7.2); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecommendAllPresets ranks the report's three workloads (LLM
// fine-tune, diffusion training, 70B serving) with plans.
func BenchmarkRecommendAllPresets(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := RecommendInput{Budget: Money{Amount: 20000}, Currency: knowledge.CNY}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Recommend(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecommendBare is a bare "/gpu recommend": the report's three
// workloads ranked, no budget, no plans.
func BenchmarkRecommendBare(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := RecommendInput{Currency: knowledge.CNY}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Recommend(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecommendBareFreshOffers is a bare recommend right after each
// offer snapshot swap (a new offers slice every time): the offers are
// indexed and normalised afresh, while the cards' tables, which no price
// enters, are kept.
func BenchmarkRecommendBareFreshOffers(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	shipped := m.Offers
	in := RecommendInput{Currency: knowledge.CNY}
	b.ReportAllocs()
	for b.Loop() {
		m.Offers = append([]knowledge.Offer(nil), shipped...)
		if _, err := Recommend(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCard is a card-facts answer ("what can a 5090 run?"): the
// card's figures and the largest model each method holds on it.
func BenchmarkCard(b *testing.B) {
	kb := knowledge.MustShipped()
	g, ok := kb.GPU("rtx5090")
	if !ok {
		b.Fatal("no rtx5090 in the card table")
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Card(g, 1, kb.Archs); err != nil {
			b.Fatal(err)
		}
	}
}
