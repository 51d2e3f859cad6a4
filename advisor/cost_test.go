package advisor

import (
	"github.com/google/go-cmp/cmp"
	"math"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

func peak(g knowledge.GPU) float64 { return g.PeakTFLOPS() }
func bw(g knowledge.GPU) float64   { return g.BandwidthGBs }

// Training cost, hand calculated: FLOPs ÷ (peak × 10¹² × MFU × 3600).
func TestCostTrainingHandCalculations(t *testing.T) {
	m := testMarket(t)
	wantSpec(t, m, "rtx4090", "peak TFLOPS", peak, 165.2)
	wantSpec(t, m, "h100-sxm", "peak TFLOPS", peak, 989)
	wantSpec(t, m, "h100-sxm", "NVLink GB/s", func(g knowledge.GPU) float64 { return g.NVLinkGBs }, 900)
	// Freeze on the Mistral-7B shape trains the last 2 of 32 layers of the
	// non-embedding weights: (7e9 − 2 × 32000 × 4096) × 2 ÷ 32.
	freezeTrained := (7e9 - 2*32000*4096.0) * 2 / 32
	tests := []struct {
		name     string
		in       CostInput
		gpuHours float64
		gpus     int
		total    float64
	}{
		{
			// 7B LoRA, 50k samples × 512 tokens × 2 epochs = 5.12e7 tokens;
			// 4 × 7e9 × 5.12e7 = 1.4336e18 FLOPs ÷ (165.2e12 × 0.26 × 3600)
			// = 9.271 GPU-h on one card (batch 1 × 512 fits 24 GB); at ¥1.5/h.
			name: "7B lora on one 4090",
			in: CostInput{Workload: Workload{ParamsB: 7, Method: LoRA, Batch: 1, SeqLen: 512, Arch: "mistral-7b"},
				GPU: "4090", Samples: 50000, Epochs: 2, Price: Money{Amount: 1.5}, Currency: knowledge.CNY},
			gpuHours: 4 * 7e9 * 50000 * 512 * 2 / (165.2e12 * 0.26 * 3600),
			gpus:     1,
			total:    4 * 7e9 * 50000 * 512 * 2 / (165.2e12 * 0.26 * 3600) * 1.5,
		},
		{
			// 70B QLoRA on 1e7 tokens: 4 × 70e9 × 1e7 = 2.8e18 ÷ (989e12 × 0.22 × 3600)
			// (H100 class: compute-heavy, QLoRA default 0.22).
			name: "70B qlora on one H100",
			in: CostInput{Workload: Workload{ParamsB: 70, Method: QLoRA, Batch: 1, SeqLen: 1024},
				GPU: "h100", Tokens: 1e7, Price: Money{Amount: 2.5, Currency: knowledge.USD}, Currency: knowledge.USD},
			gpuHours: 4 * 70e9 * 1e7 / (989e12 * 0.22 * 3600),
			gpus:     1,
			total:    4 * 70e9 * 1e7 / (989e12 * 0.22 * 3600) * 2.5,
		},
		{
			// Freeze: 2 × 7e9 × D + 4 × trained × D, D = 1e8 tokens, MFU 0.30
			// (H100 class).
			name: "7B freeze on one H100",
			in: CostInput{Workload: Workload{ParamsB: 7, Method: Freeze, Batch: 1, SeqLen: 1024, Arch: "mistral-7b"},
				GPU: "h100", Tokens: 1e8, Price: Money{Amount: 2, Currency: knowledge.USD}, Currency: knowledge.USD},
			gpuHours: (2*7e9*1e8 + 4*freezeTrained*1e8) / (989e12 * 0.30 * 3600),
			gpus:     1,
			total:    (2*7e9*1e8 + 4*freezeTrained*1e8) / (989e12 * 0.30 * 3600) * 2,
		},
		{
			// Full: 6 × 7e9 × 1e9 = 4.2e19 FLOPs ÷ (989e12 × 0.5 given × 3600)
			// = 23.59 GPU-h. A given MFU is the whole job's (PaLM's
			// definition), so the two cards' communication is not taken off
			// it again.
			name: "7B full on two H100 with a given MFU",
			in: CostInput{Workload: Workload{ParamsB: 7, Method: Full, Arch: "mistral-7b", Batch: 4, SeqLen: 4096}, GPU: "h100-sxm", GPUs: 2,
				Tokens: 1e9, MFU: 0.5, Price: Money{Amount: 2, Currency: knowledge.USD}, Currency: knowledge.USD},
			gpuHours: 6 * 7e9 * 1e9 / (989e12 * 0.5 * 3600),
			gpus:     2,
			total:    6 * 7e9 * 1e9 / (989e12 * 0.5 * 3600) * 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Cost(tt.in, m)
			if err != nil {
				t.Fatal(err)
			}
			if !near(res.GPUHours, tt.gpuHours, 0.01) {
				t.Errorf("Cost(%s) gpu_hours = %v, want %.3f", tt.name, res.GPUHours, tt.gpuHours)
			}
			if res.GPUs != tt.gpus {
				t.Errorf("Cost(%s) gpus = %d, want %d", tt.name, res.GPUs, tt.gpus)
			}
			if !near(res.WallHours, tt.gpuHours/float64(tt.gpus), 0.01) {
				t.Errorf("Cost(%s) wall_hours = %v, want %.3f", tt.name, res.WallHours, tt.gpuHours/float64(tt.gpus))
			}
			if !near(res.Total, tt.total, 0.01) {
				t.Errorf("Cost(%s) total = %v, want %.2f", tt.name, res.Total, tt.total)
			}
			if len(res.Sources) != 1 || !res.Sources[0].Given {
				t.Errorf("Cost(%s) sources = %+v, want the given price", tt.name, res.Sources)
			}
		})
	}
}

func TestCostTrainingDefaultsAndCatalogue(t *testing.T) {
	m := testMarket(t,
		hourly("suanjia", "suanjiayun", "rtx4090", 1.24, 1.24, knowledge.CNY, knowledge.OnDemand),
		hourly("vast", "vastai", "rtx4090", 0.25, 0.25, knowledge.USD, knowledge.OnDemand)) // ¥1.8
	res, err := Cost(CostInput{Workload: Workload{ParamsB: 7, Method: LoRA, Batch: 1, SeqLen: 512, Arch: "mistral-7b"}, GPU: "4090", Samples: 1000}, m)
	if err != nil {
		t.Fatal(err)
	}
	// 1000 samples × 512 default tokens × 1 default epoch; the cheaper offer
	// is suanjiayun at ¥1.24 (vast: 0.25 × 7.2 = ¥1.8).
	wantHours := 4 * 7e9 * 1000 * 512 / (165.2e12 * 0.26 * 3600)
	if !near(res.GPUHours, wantHours, 0.01) || res.Hourly != 1.24 || res.Offer == nil || res.Offer.Offer != "suanjia" {
		t.Errorf("Cost(7B lora 1000 samples, 4090) = %v GPU-h at %v (%v), want %.3f at 1.24 from suanjia", res.GPUHours, res.Hourly, res.Offer, wantHours)
	}
	for _, d := range []string{"tokens_per_sample", "epochs", "mfu", "currency", "fx"} {
		if !hasDefault(res.Inputs.Defaulted, d) {
			t.Errorf("Cost defaulted = %v, want %q recorded", res.Inputs.Defaulted, d)
		}
	}
	if res.Inputs.TokensPerSample != DefaultTokensPerSample || res.Inputs.Epochs != 1 {
		t.Errorf("Cost inputs = %+v, want 512 tokens/sample and 1 epoch", res.Inputs)
	}
	if res.Sources[0].ObservedAt != "2026-09-01" || res.Sources[0].Offer != "suanjia" {
		t.Errorf("Cost source = %+v, want the dated suanjia offer", res.Sources[0])
	}
}

// The cost-performance report's 70B vLLM table gives $/h and tokens/s per
// H100 and a "$/M tokens" column. The right figure is $/h ÷ (tokens/s ×
// 3600) × 10⁶; the report computed $/h ÷ tokens/s × 1000, 3.6 times too
// much. Each row is recomputed here from its own price and throughput.
func TestCostSeedInferenceTableRecomputed(t *testing.T) {
	m := testMarket(t)
	rows := []struct {
		row         string
		price, tps  float64
		seedPerM    float64 // as printed in the report
		correctPerM float64 // by hand
	}{
		{"RunPod H100 serverless", 2.5, 3500, 0.71, 2.5 / (3500 * 3600) * 1e6}, // 0.198
		{"Vast.ai H100", 1.5, 3200, 0.47, 1.5 / (3200 * 3600) * 1e6},           // 0.130
		{"AWS spot H100", 1.0, 3400, 0.29, 1.0 / (3400 * 3600) * 1e6},          // 0.0817
		{"GCP spot A100-80GB", 0.7, 2800, 0.25, 0.7 / (2800 * 3600) * 1e6},     // 0.0694
		{"Lambda H100", 2.8, 3500, 0.80, 2.8 / (3500 * 3600) * 1e6},            // 0.222
	}
	for _, r := range rows {
		t.Run(r.row, func(t *testing.T) {
			res, err := Cost(CostInput{Workload: Workload{ParamsB: 70, Method: Inference}, Tokens: 1e6, TPS: r.tps,
				Price: Money{Amount: r.price, Currency: knowledge.USD}}, m)
			if err != nil {
				t.Fatal(err)
			}
			if res.Currency != knowledge.USD {
				t.Errorf("currency = %s, want USD from the given price", res.Currency)
			}
			if !near(res.PerMTokens, r.correctPerM, 1e-4) {
				t.Errorf("Cost(%s) per_m_tokens = %v, want %.4f", r.row, res.PerMTokens, r.correctPerM)
			}
			// The seed's figure is ours × 3.6, to the two decimals it prints.
			if math.Abs(res.PerMTokens*3.6-r.seedPerM) > 0.005 {
				t.Errorf("seed $%v/M ÷ ours $%v/M = %.3f, want the 3.6 slip", r.seedPerM, res.PerMTokens, r.seedPerM/res.PerMTokens)
			}
			if !near(res.Total, r.correctPerM, 0.01) {
				t.Errorf("Cost(%s, 1M tokens) total = %v, want %.2f", r.row, res.Total, r.correctPerM)
			}
		})
	}
	// The report's budget plan buys 100M tokens at its $0.71: $71. At the
	// right $0.198/M it is 100 × 2.5 ÷ (3500 × 3600) × 10⁶ = $19.84.
	res, err := Cost(CostInput{Workload: Workload{ParamsB: 70, Method: Inference}, Tokens: 100e6, TPS: 3500,
		Price: Money{Amount: 2.5, Currency: knowledge.USD}}, m)
	if err != nil {
		t.Fatal(err)
	}
	if want := 100 * 2.5 / (3500 * 3600) * 1e6; !near(res.Total, want, 0.01) {
		t.Errorf("Cost(100M tokens at 3500 tokens/s, $2.5/h) total = %v, want %.2f (the report says $71)", res.Total, want)
	}
}

func TestCostInferenceServingModel(t *testing.T) {
	m := testMarket(t)
	wantSpec(t, m, "h100-sxm", "bandwidth GB/s", bw, 3350)
	// Mistral-7B-v0.3 (7.248B, KV 2 × 32 × 8 × 128 × 2 = 131,072 B/token) on
	// one H100 in BF16, 8 requests of 1,000 in + 500 out: prefill 1000 × 2 ×
	// 7.248e9 + 2 × 32 × 4096 × 1000² FLOP at 60 % of 989 TFLOPS; a decode
	// step reads 14.496 GB of weights + 8 × 1,250 × 131,072 B of KV at 80 %
	// of 3,350 GB/s, plus 1 ms overhead; output = 8 × 500 ÷ (8 × prefill +
	// 500 × step).
	P := 7.248e9
	pf := (1000*2*P + 2*32*4096*1e6) / (989e12 * 0.6)
	step := (2*P+8*1250*131072.0)/(3350e9*0.8) + 1e-3
	tps := 8 * 500 / (8*pf + 500*step)
	res, err := Cost(CostInput{Workload: Workload{Model: "mistral-7b-v0.3", Method: Inference, Batch: 8}, GPU: "h100", GPUs: 1,
		InputTokens: 1000, OutputTokens: 500, Price: Money{Amount: 2, Currency: knowledge.USD}, Tokens: 1e6}, m)
	if err != nil {
		t.Fatal(err)
	}
	if res.GPUs != 1 || !near(res.TokensPerS, tps, 0.1) {
		t.Errorf("Cost(7B, 8 requests on H100) = %d cards at %v tokens/s, want 1 at %.1f", res.GPUs, res.TokensPerS, tps)
	}
	if want := math.Round((pf+1e-3)*1e4) / 10; res.TTFTms != want {
		t.Errorf("ttft_ms = %v, want %v", res.TTFTms, want)
	}
	// $/M = $2 ÷ (tokens/s × 3600) × 10⁶.
	if want := 2 / (tps * 3600) * 1e6; !near(res.PerMTokens, want, 1e-3) {
		t.Errorf("per_m_tokens = %v, want %.4f", res.PerMTokens, want)
	}
	if res.Serving == nil || res.Serving.Bound != "memory" {
		t.Errorf("serving = %+v, want memory bound", res.Serving)
	}
}

func TestCostInferenceBatchFromKVRoom(t *testing.T) {
	m := testMarket(t)
	wantSpec(t, m, "h100-sxm", "VRAM GB", func(g knowledge.GPU) float64 { return g.VRAMGB }, 80)
	// Llama-3.1-70B (70.554B) in BF16 on two H100, 1,000 in + 500 out
	// (defaults). Usable under vLLM's rule: 2 × (0.9 × 80 × 2³⁰ ÷ 10⁹ − 0.8)
	// = 153.02 GB (8 KV heads split 4 + 4 over the two cards);
	// weights 141.108 GB; activations of a full 8,192-token prefill chunk
	// 8192 × (2×8192 + 2×28672) × 2 bytes + 6 × 128,256 × 4 bytes of logits
	// (6 requests of 1,500 tokens fill the chunk). Each sequence caches
	// 1,000 + 500/2 = 1,250 tokens × 327,680 bytes.
	usable := 2 * (0.9*80*(1<<30)/1e9 - 0.8)
	act := (8192*(2*8192+2*28672)*2 + 6*128256*4) / 1e9
	want := int(math.Floor((usable - 141.108 - act) / (1250 * 327680 / 1e9)))
	res, err := Cost(CostInput{Workload: Workload{Model: "llama-3.1-70b", Method: Inference, Bits: 16}, GPU: "h100", GPUs: 2, Price: Money{Amount: 2, Currency: knowledge.USD}}, m)
	if err != nil {
		t.Fatal(err)
	}
	if res.Serving.Concurrency != want || want != 26 {
		t.Errorf("Cost(70B on 2 × H100) concurrency = %d, want %d (hand: 26)", res.Serving.Concurrency, want)
	}
	for _, d := range []string{"batch", "input_tokens", "output_tokens", "tokens"} {
		if !hasDefault(res.Inputs.Defaulted, d) {
			t.Errorf("Cost defaulted = %v, want %q recorded", res.Inputs.Defaulted, d)
		}
	}
}

func TestCostPicksCardWhenNoneNamed(t *testing.T) {
	m := testMarket(t,
		hourly("h100", "vastai", "h100-sxm", 1.5, 1.5, knowledge.USD, knowledge.OnDemand),
		hourly("a100", "voltage-park", "a100-80g", 1.5, 1.5, knowledge.USD, knowledge.OnDemand))
	res, err := Cost(CostInput{Workload: Workload{ParamsB: 70, Method: Inference}, Tokens: 1e8, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	// Same price per card; the H100 reads memory faster, so it is cheaper per token.
	if res.GPU != "h100-sxm" || len(res.Alternatives) != 2 || res.Alternatives[0].PerMTokens > res.Alternatives[1].PerMTokens {
		t.Errorf("Cost(70B inference, no card) = %s with alternatives %+v, want h100-sxm first", res.GPU, res.Alternatives)
	}
	if !hasDefault(res.Inputs.Defaulted, "gpu") {
		t.Errorf("Cost defaulted = %v, want gpu recorded", res.Inputs.Defaulted)
	}
}

// Serving with no card named is ranked by the cost per million tokens at
// the load, which a cheaper hourly price does not decide. Mistral-7B-v0.3
// (P = 7.248e9, KV 131,072 B/token) in BF16 on one card, 8 requests of
// 1,000 in + 500 out, the formula of TestCostInferenceServingModel:
//
//	prefill  (1000 × 2P + 2 × 32 × 4096 × 1000²) FLOP = 1.4758e13 ÷ (peak × 0.6)
//	step     (2P + 8 × 1,250 × 131,072) B = 15.8067e9 ÷ (bandwidth × 0.8) + 1 ms
//	tokens/s 8 × 500 ÷ (8 × prefill + 500 × step)
//
//	H100 SXM  989 TFLOPS, 3,350 GB/s: prefill 24.87 ms, step 6.898 ms → 1,096.5 tokens/s
//	A100 80GB 312 TFLOPS, 2,039 GB/s: prefill 78.84 ms, step 10.690 ms →   669.4 tokens/s
//
// $/M = price/h ÷ (tokens/s × 3600) × 10⁶: the H100 at $2/h is
// 2 ÷ (1,096.5 × 3600) × 10⁶ = $0.507, the A100 at $1.5/h is
// 1.5 ÷ (669.4 × 3600) × 10⁶ = $0.622. The A100 is 25 % cheaper per hour
// and 23 % dearer per token. Tolerance 0.1 % (the engine rounds $/M to 4
// decimals).
func TestCostServingCheapestPerMillionTokensByHand(t *testing.T) {
	m := testMarket(t,
		hourly("h100", "vastai", "h100-sxm", 2, 2, knowledge.USD, knowledge.OnDemand),
		hourly("a100", "voltage-park", "a100-80g", 1.5, 1.5, knowledge.USD, knowledge.OnDemand))
	wantSpec(t, m, "h100-sxm", "peak TFLOPS", peak, 989)
	wantSpec(t, m, "h100-sxm", "bandwidth GB/s", bw, 3350)
	wantSpec(t, m, "a100-80g", "peak TFLOPS", peak, 312)
	wantSpec(t, m, "a100-80g", "bandwidth GB/s", bw, 2039)
	P := 7.248e9
	prefillFLOP := 1000*2*P + 2*32*4096*1e6
	stepBytes := 2*P + 8*1250*131072.0
	perM := func(peakTF, bwGBs, price float64) (tps, usd float64) {
		pf := prefillFLOP / (peakTF * 1e12 * 0.6)
		step := stepBytes/(bwGBs*1e9*0.8) + 1e-3
		tps = 8 * 500 / (8*pf + 500*step)
		return tps, price / (tps * 3600) * 1e6
	}
	hTPS, hUSD := perM(989, 3350, 2)
	aTPS, aUSD := perM(312, 2039, 1.5)
	if !near(hTPS, 1096.5, 0.1) || !near(aTPS, 669.4, 0.1) || !near(hUSD, 0.507, 0.001) || !near(aUSD, 0.622, 0.001) {
		t.Fatalf("hand figures drifted: H100 %.1f tok/s $%.4f/M, A100 %.1f tok/s $%.4f/M", hTPS, hUSD, aTPS, aUSD)
	}
	res, err := Cost(CostInput{Workload: Workload{Model: "mistral-7b-v0.3", Method: Inference, Batch: 8},
		InputTokens: 1000, OutputTokens: 500, Tokens: 1e6, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	if res.GPU != "h100-sxm" || len(res.Alternatives) != 2 {
		t.Fatalf("Cost(serving, no card) = %s with %d alternatives, want h100-sxm first of 2", res.GPU, len(res.Alternatives))
	}
	want := map[string][2]float64{"h100-sxm": {hTPS, hUSD}, "a100-80g": {aTPS, aUSD}}
	for _, o := range res.Alternatives {
		w := want[o.GPU]
		if o.GPUs != 1 || !near(o.TokensPerS, w[0], 0.001*w[0]) || !near(o.PerMTokens, w[1], 0.001*w[1]) {
			t.Errorf("%s: %d card(s), %v tokens/s, $%v/M; want 1, %.1f, $%.4f", o.GPU, o.GPUs, o.TokensPerS, o.PerMTokens, w[0], w[1])
		}
	}
	if !near(res.PerMTokens, hUSD, 0.001*hUSD) || !near(res.Total, hUSD, 0.01) {
		t.Errorf("answer: $%v/M, total $%v for 1M tokens; want $%.4f both", res.PerMTokens, res.Total, hUSD)
	}
}

func TestCostHiddenCosts(t *testing.T) {
	m := testMarket(t, hourly("aws", "aws", "h100-sxm", 3, 3, knowledge.USD, knowledge.OnDemand))
	res, err := Cost(CostInput{Workload: Workload{ParamsB: 7, Method: LoRA, Batch: 1, SeqLen: 512}, GPU: "h100", Tokens: 1e7,
		StorageGB: 500, StorageMonths: 2, EgressGB: 100, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	// Rates come from the platform's listed hidden costs, middle of the range.
	pl, _ := m.platform("aws")
	var st, eg float64
	for _, h := range pl.HiddenCosts {
		switch h.Kind {
		case "storage":
			st = (h.Low + h.High) / 2
		case "egress":
			eg = (h.Low + h.High) / 2
		}
	}
	if st == 0 || eg == 0 {
		t.Skip("catalogue lists no storage or egress rate for aws")
	}
	want := 500*2*st + 100*eg
	if !near(res.Hidden, want, 0.01) || !near(res.Total, Round2(res.GPUHours*3+want), 0.02) {
		t.Errorf("Cost hidden = %v (total %v), want 500 GB × 2 months × %v + 100 GB × %v = %.2f", res.Hidden, res.Total, st, eg, want)
	}
}

func TestCostInputErrors(t *testing.T) {
	m := testMarket(t)
	tests := []struct {
		name  string
		in    CostInput
		field string
	}{
		{"training without data", CostInput{Workload: Workload{ParamsB: 7, Method: LoRA}, GPU: "4090", Price: Money{Amount: 1}}, "tokens"},
		{"unknown card", CostInput{Workload: Workload{ParamsB: 7, Method: LoRA}, GPU: "voodoo5", Tokens: 1e6}, "gpu"},
		{"no price known", CostInput{Workload: Workload{ParamsB: 7, Method: LoRA, Batch: 1, SeqLen: 512}, GPU: "4090", Tokens: 1e6}, "price"},
		{"too few cards", CostInput{Workload: Workload{ParamsB: 70, Method: Inference}, GPU: "4090", GPUs: 2, Price: Money{Amount: 1}}, "gpus"},
		{"price without a card", CostInput{Workload: Workload{ParamsB: 7, Method: LoRA}, Tokens: 1e6, Price: Money{Amount: 1}}, "gpu"},
		{"mfu above 1", CostInput{Workload: Workload{ParamsB: 7, Method: LoRA}, GPU: "4090", Tokens: 1e6, MFU: 1.5}, "mfu"},
		{"negative price", CostInput{Workload: Workload{ParamsB: 7, Method: LoRA}, GPU: "4090", Tokens: 1e6, Price: Money{Amount: -1}}, "price"},
		{"bad currency", CostInput{Workload: Workload{ParamsB: 7, Method: LoRA}, GPU: "4090", Tokens: 1e6, Currency: "JPY"}, "currency"},
		{"missing model size", CostInput{Workload: Workload{Method: LoRA}, GPU: "4090", Tokens: 1e6}, "params_b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Cost(tt.in, m)
			wantInputErr(t, "Cost("+tt.name+")", err, tt.field)
		})
	}
}

// The ranking pass over every card uses the same arithmetic as a full
// answer: its alternatives equal pricing every card in full.
func TestCostQuickRankingMatchesFull(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	for _, in := range []CostInput{
		{Workload: Workload{ParamsB: 13, Method: LoRA}, Samples: 1e5, Currency: knowledge.CNY},
		{Workload: Workload{ParamsB: 70, Method: Inference}, Tokens: 1e8, Currency: knowledge.USD},
		{Workload: Workload{ParamsB: 7, Method: Full}, Tokens: 1e10, Currency: knowledge.USD},
		{Workload: Workload{Model: "qwen3-30b-a3b"}, TokensPerDay: 1e8, Currency: knowledge.CNY},
	} {
		quick, err := Cost(in, m)
		if err != nil {
			t.Fatal(err)
		}
		w, err := ResolveModel(in.Workload, m.Archs)
		if err != nil {
			t.Fatal(err)
		}
		in.Workload = w
		n, p, err := in.normalize()
		if err != nil {
			t.Fatal(err)
		}
		n.memo = &memo{}
		n.Defaulted = append(n.Defaulted, "gpu")
		full, err := costEveryCardFull(n, m, p)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(full.Alternatives, quick.Alternatives); diff != "" {
			t.Errorf("%+v: quick ranking differs from full pricing (-full +quick):\n%s", in.Workload, diff)
		}
		if quick.GPU != full.GPU || quick.Total != full.Total {
			t.Errorf("%+v: answered %s %v, full pricing %s %v", in.Workload, quick.GPU, quick.Total, full.GPU, full.Total)
		}
	}
}

// TestCostPerMTokensAtUtilisation: a replica busy half the hours paid
// carries the idle half in each token: $2.5 ÷ (3500 tokens/s × 3600 ×
// 0.5) × 10⁶ = $0.3968 per million, twice the fully used $0.1984.
func TestCostPerMTokensAtUtilisation(t *testing.T) {
	m := testMarket(t)
	in := CostInput{Workload: Workload{ParamsB: 70, Method: Inference}, Tokens: 1e6, TPS: 3500,
		Price: Money{Amount: 2.5, Currency: knowledge.USD}, Utilization: 0.5}
	res, err := Cost(in, m)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2.5 / (3500 * 3600 * 0.5) * 1e6; !near(res.PerMTokens, want, 0.0001) {
		t.Errorf("per M at 50%% busy = %v, want %.4f", res.PerMTokens, want)
	}
	in.Utilization = 1.5
	if _, err := Cost(in, m); err == nil {
		t.Error("utilisation 150% accepted; want an input error")
	}
}
