package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

func askOne(t *testing.T, text string) Answer {
	t.Helper()
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	return b.Answer(context.Background(), Message{Text: text, Team: "T1", Channel: "D1", User: "U1"})
}

// TestTheirFleetIsComparedWithThePlan: "Is 16x H100 enough … at 200 rps?"
// asks about the 16 cards they have. The plan is sized for the load alone
// (the 16 are not one replica's size), and the verdict compares: no, with
// the shortfall, in the first line.
func TestTheirFleetIsComparedWithThePlan(t *testing.T) {
	a := askOne(t, "Is 16x H100 enough for Llama-3.3-70B at 200 rps peak, 4k-token prompts, 256 out, p99 TTFT 1.5s?")
	if a.Err != "" || a.Typed == nil || a.Typed.Verdict == nil {
		t.Fatalf("no verdict: %+v\n%s", a.Typed, a.Text)
	}
	need := int(*a.Typed.Value)
	if a.Typed.Asked != "cards" || need <= 16 || *a.Typed.Verdict != "no" {
		t.Fatalf("typed %+v, want cards > 16 and verdict no", a.Typed)
	}
	if !strings.HasPrefix(a.Headline, "No — 16 cards are not enough") {
		t.Errorf("headline %q does not lead with the fleet's verdict", a.Headline)
	}
	res, ok := a.Result.(SLOAnswer) // a first-token target: the SLO plan
	if !ok {
		t.Fatalf("result %T, want a serving plan", a.Result)
	}
	if res.Inputs.Cost.GPUs == 16 || res.Cards != need {
		t.Errorf("plan %d cards (%d a replica, asked %d); their 16 are not a replica size", res.Cards, res.Replica.Inputs.GPUs, res.Inputs.Cost.GPUs)
	}
	if a.Used["cards"] != "your card count: the verdict" {
		t.Errorf("cards used as %q", a.Used["cards"])
	}
}

// TestMachineHourlyAndMonthlyBothPerMachine: "腾讯云V100 8卡，按量95.84一小时，
// 包月4.6万，每天只开8小时". Both prices are the 8-card machine's (46,000 ÷
// 95.84 = 480 of its hours), so per card: 95.84 ÷ 8 = 11.98 /h and 46,000 ÷
// 8 = 5,750 /month; break-even 5,750 ÷ 11.98 = 480 h. They use 8 h a day =
// 8 × 365/12 = 243.33 h a month, under 480: stay on demand, saving
// 5,750 − 243.33 × 11.98 = 2,834.87 a card, × 8 = 22,679 a month.
// (Dividing only the month gave 60 h and the opposite verdict.)
func TestMachineHourlyAndMonthlyBothPerMachine(t *testing.T) {
	a := askOne(t, "腾讯云V100 8卡，按量95.84一小时，包月4.6万，我们每天只开8小时，包月是不是亏了？")
	res, ok := a.Result.(advisor.MonthlyResult)
	if !ok {
		t.Fatalf("result %T (%s), want a monthly answer", a.Result, a.Text)
	}
	if math.Abs(res.BreakevenHoursPerMonth-480) > 0.5 {
		t.Errorf("break-even %.2f h, want 480", res.BreakevenHoursPerMonth)
	}
	if res.Cheaper != "on_demand" {
		t.Errorf("cheaper %q, want on_demand", res.Cheaper)
	}
	if !strings.Contains(a.Headline, "22,679") {
		t.Errorf("headline %q, want the 8 cards' saving ¥22,679 a month", a.Headline)
	}
}

// TestCommitOnTheNamedPlatform: "32 H100s on AWS" is answered with AWS's
// own pair (reserved_prices.csv: p5.48xlarge on demand $3.90, 1-year
// $2.80 per card-hour): 32 × 8,760 × (0.55 × 3.90 − 2.80) = −$183,609.60,
// break-even 2.80 ÷ 3.90 = 71.79 %.
func TestCommitOnTheNamedPlatform(t *testing.T) {
	a := askOne(t, "32 H100s on AWS — is 1-yr reserved still cheaper than on-demand if we only use them 55% of the time?")
	v, ok := a.Result.(CommitView)
	if !ok {
		t.Fatalf("result %T (%s), want a commitment", a.Result, a.Text)
	}
	if v.Chosen.Provider != "AWS" {
		t.Fatalf("chosen %q, want AWS (the platform named)", v.Chosen.Provider)
	}
	if math.Abs(v.Saving-(-183609.60)) > 1 || math.Abs(v.BreakevenUtilization-0.7179) > 0.0001 {
		t.Errorf("saving %.2f, break-even %.4f; want −183,609.60 and 0.7179", v.Saving, v.BreakevenUtilization)
	}
	// a yes/no choice is still a choice: on demand, with the verdict no,
	// leads; the saving at their usage is the figure behind it
	if a.Typed.Asked != "which" || a.Typed.Choice != "on_demand" || a.Typed.Verdict == nil || *a.Typed.Verdict != "no" ||
		len(a.Typed.Also) == 0 || a.Typed.Also[0].Asked != "saving" {
		t.Errorf("typed %+v, want the choice (on demand) with the verdict no, then the saving", a.Typed)
	}
}

// TestFitHoldsTheRequestsContext: "32 concurrent 8k requests" on
// Qwen2.5-72B: the KV cache is 2 (K, V) × 80 layers × 8 KV heads × 128 ×
// 2 bytes = 327,680 B a token, × 8,192 tokens × 32 requests = 85.9 GB.
func TestFitHoldsTheRequestsContext(t *testing.T) {
	a := askOne(t, "Min VRAM for Qwen2.5-72B INT4 with 32 concurrent 8k requests?")
	if a.Slots.SeqLen != 8192 {
		t.Fatalf("seq_len %d, want 8192 from the 8k requests", a.Slots.SeqLen)
	}
	if _, ign := a.Ignored["input_tokens"]; ign {
		t.Errorf("the request length was ignored: %v", a.Ignored)
	}
	kv := 327680.0 * 8192 * 32 / 1e9
	if !strings.Contains(a.Text, "85.9 GB") || kv < 85.8 || kv > 86.0 {
		t.Errorf("want the KV cache ≈ %.1f GB in the working:\n%s", kv, a.Text)
	}
}

// TestBudgetVerdictAnswersTheWayItWasAsked: the same "over" state is a
// yes to "超了吗" and a no to "够不够".
func TestBudgetVerdictAnswersTheWayItWasAsked(t *testing.T) {
	for _, tt := range []struct {
		q    string
		over bool
		want string
	}{
		{"上个月我们超预算了吗？", true, "yes"},
		{"照现在的速度够不够？", true, "no"},
		{"are we over budget?", false, "no"},
		{"is there enough headroom left?", false, "yes"},
	} {
		if got := *overVerdict(tt.q, tt.over); got != tt.want {
			t.Errorf("%q with over=%v: verdict %s, want %s", tt.q, tt.over, got, tt.want)
		}
	}
}

// TestCommitAgainstOnDemandWithYearlyUsage: "AWS上H100一年期预留比按需能便宜
// 多少？我们一年大概用5000卡时" is a commitment (it was a price list), at
// their usage: 5,000 ÷ 8,760 = 57.08 %. AWS p5 at FX 7.2: on demand
// $3.90 = ¥28.08, 1-year $2.80 = ¥20.16 a card-hour; on demand 5,000 ×
// 28.08 = ¥140,400 vs committed 8,760 × 20.16 = ¥176,601.60: the
// commitment costs ¥36,201.60 more.
func TestCommitAgainstOnDemandWithYearlyUsage(t *testing.T) {
	a := askOne(t, "AWS上H100一年期预留比按需能便宜多少？我们一年大概用5000卡时，总价差多少？")
	v, ok := a.Result.(CommitView)
	if !ok {
		t.Fatalf("result %T (%s), want a commitment", a.Result, a.Text)
	}
	if math.Abs(v.Saving-(-36201.60)) > 1 || v.Cheaper != "on_demand" {
		t.Errorf("saving %.2f (%s), want −36,201.60 on demand", v.Saving, v.Cheaper)
	}
	if _, ign := a.Ignored["gpu_hours"]; ign {
		t.Errorf("their 5,000 card-hours a year were ignored")
	}
}

// TestTheirCardsAgainstTheJob: a yes/no about the asker's own cards is
// answered about those cards, never refused and never answered on others.
func TestTheirCardsAgainstTheJob(t *testing.T) {
	// 7B full fine-tune on 3B tokens: 6 × 7e9 × 3e9 = 1.26e20 FLOP; an
	// A100's 312 TFLOPS at the default 0.40 MFU does 1.248e14 FLOP/s, so
	// 1.26e20 ÷ 1.248e14 ÷ 3600 = 280.45 GPU-hours; on their 2 cards
	// 140.2 h — past the 36 h they have: no.
	a := askOne(t, "can 2 A100 finish a 7b full finetune on 3B tokens within 36 hours?")
	if a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "no" || a.Typed.Asked != "hours" {
		t.Fatalf("typed %+v (%s), want hours with verdict no", a.Typed, a.Headline)
	}
	if math.Abs(*a.Typed.Value-140.2) > 1.5 || !strings.HasPrefix(a.Headline, "No — 2× A100") {
		t.Errorf("2× A100: %v h, headline %q; want ≈140.2 h on their 2 cards first", *a.Typed.Value, a.Headline)
	}
	if a.Slots.Days != 1.5 {
		t.Errorf("\"within 36 hours\" read as %v days, want 1.5", a.Slots.Days)
	}

	// 70B full fine-tune: weights, gradients and Adam states alone are
	// 16 bytes a parameter = 1,120 GB, at least 14 cards of 80 GB. Their 8
	// cannot hold it: the answer says no and works on the count it needs
	// (it was an error before).
	a = askOne(t, "we have 8 H100, how long for a 70b full fine-tune on 1B tokens?")
	if a.Err != "" || a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "no" {
		t.Fatalf("8× H100 for 70B full: err %q typed %+v", a.Err, a.Typed)
	}
	res, ok := a.Result.(advisor.CostResult)
	if !ok || res.GPUs < 14 || !strings.HasPrefix(a.Headline, "No — 8× H100") {
		t.Errorf("result %T with %d cards, headline %q; want no, worked on ≥ 14 cards", a.Result, res.GPUs, a.Headline)
	}

	// "3060 12g 能 qlora 7b 吗": a memory yes/no. A 7B in 4 bits is
	// 7e9 × 0.5 B = 3.5 GB of weights; with LoRA, activations at 2k tokens
	// and the CUDA context it stays well under 12 GB: yes, on one card.
	a = askOne(t, "3060 12g 能 qlora 7b 吗")
	if a.Intent != "fit" || a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "yes" || a.Typed.Asked != "memory_gb" {
		t.Fatalf("3060 qlora 7b: intent %s typed %+v", a.Intent, a.Typed)
	}
	if v := *a.Typed.Value; v < 3.5 || v > 12 || !strings.HasPrefix(a.Headline, "可以") {
		t.Errorf("3060: %v GB, headline %q", v, a.Headline)
	}
	// With no price for a 3060 anywhere, the yes/no still answers: memory
	// needs no price (it was refused for the missing price).
	a = askOne(t, "mistral-nemo 12b的qlora，3060 12g能跑通吗？数据就2千条，做个demo")
	if a.Err != "" || a.Intent != "fit" || a.Typed == nil || a.Typed.Verdict == nil {
		t.Errorf("3060 mistral-nemo: err %q intent %s typed %+v", a.Err, a.Intent, a.Typed)
	}
	// "does it fit on a single L40S? if not, how many A100 40GB?": the fit
	// leads (70B in 4 bits: 70.6e9 × 0.5 B ≈ 35 GB of weights alone, so
	// not far under 48 GB once the rest is added), the count follows.
	a = askOne(t, "Llama 3.1 70B QLoRA, 50k samples — does it fit on a single L40S 48GB? if not, what's the min number of A100 40GB?")
	if a.Typed == nil || a.Typed.Asked != "memory_gb" || a.Typed.Verdict == nil || len(a.Typed.Also) == 0 || a.Typed.Also[0].Asked != "cards" {
		t.Errorf("70B on L40S: typed %+v, want memory_gb with a verdict, then cards", a.Typed)
	}
	if v := *a.Typed.Value; v < 35 {
		t.Errorf("70B QLoRA %v GB, under its 4-bit weights alone", v)
	}
}

// TestPlatformsNamedAreTheOptions: "runpod or vast?" costs the job on each
// platform and answers which; a budget is checked on the best; money the
// user states in one currency is answered in it.
func TestPlatformsNamedAreTheOptions(t *testing.T) {
	a := askOne(t, "budget is literally $100. need to qlora qwen2.5-14b on 15k samples, 3 epochs. runpod or vast? which card")
	v, ok := a.Result.(OptionsAnswer)
	if !ok || len(v.Rows)+len(v.Failed) != 2 {
		t.Fatalf("result %T %+v (%s), want the two platforms as options", a.Result, a.Result, a.Headline)
	}
	seen := map[string]bool{}
	for i, r := range v.Rows {
		seen[r.Platform] = true
		if i > 0 && r.Value < v.Rows[i-1].Value {
			t.Errorf("rows not cheapest first: %+v", v.Rows)
		}
		// each option's total is its GPU-hours at its own hourly price
		if math.Abs(r.Value-r.Result.GPUHours*r.Result.Hourly) > 0.02 {
			t.Errorf("%s: total %v ≠ %v GPU-h × %v", r.Platform, r.Value, r.Result.GPUHours, r.Result.Hourly)
		}
	}
	for _, f := range v.Failed {
		seen[f.Platform] = true
	}
	if !seen["runpod"] || !seen["vastai"] {
		t.Errorf("platforms costed %v, want runpod and vastai", seen)
	}
	if a.Typed == nil || a.Typed.Asked != "which" || a.Typed.Verdict == nil || *a.Typed.Verdict != "yes" {
		t.Errorf("typed %+v, want which with the budget's yes", a.Typed)
	}
	if _, ig := a.Ignored["platforms"]; ig {
		t.Errorf("platforms ignored: %v", a.Ignored)
	}
	a = askOne(t, "hey, need 2 epochs qlora on qwen2.5-72b w/ 40k samples and I can only afford ~¥1000. which platform + card?")
	if a.Currency != "CNY" || !strings.Contains(a.Headline, "¥1,000") {
		t.Errorf("a ¥ budget answered in %s: %q", a.Currency, a.Headline)
	}
}

// TestDailyUsersAndTheCardAsked: "日活2万，人均聊10轮，每轮输入600、输出200"
// is 20,000 × 10 × (600 + 200) = 160,000,000 tokens a day (the turn's own
// size, not the 1,500-token default); "L20够用吗？要几张？" is answered yes,
// with the plan's count on that card.
func TestDailyUsersAndTheCardAsked(t *testing.T) {
	a := askOne(t, "我们App日活2万，人均聊10轮，每轮输入600、输出200 token，Qwen2.5-32B自己部署，L20够用吗？要几张？")
	if a.Slots.Turns != 10 || a.Slots.TokensPerDay != 1.6e8 {
		t.Fatalf("turns %v, tokens a day %v; want 10 and 160,000,000", a.Slots.Turns, a.Slots.TokensPerDay)
	}
	if a.Typed == nil || a.Typed.Asked != "cards" || a.Typed.Verdict == nil || *a.Typed.Verdict != "yes" || a.Typed.Choice != "l20" {
		t.Fatalf("typed %+v, want cards on L20 with a yes", a.Typed)
	}
	if !strings.HasPrefix(a.Headline, "够用：L20 可以承载") {
		t.Errorf("headline %q", a.Headline)
	}
}

// TestRentalTotalAtTheQuotedPrice: cards × hours asked with a price are
// priced at the rate the headline quotes, and the typed answer is that
// rate (it used to be the list's first row, a different offer): 4 cards ×
// 3 days = 4 × 72 h = 288 card-hours at the on-demand rate quoted ("no
// spot" refuses spot).
func TestRentalTotalAtTheQuotedPrice(t *testing.T) {
	a := askOne(t, "renting 4x a100 80gb on lambda for 3 days straight, how much $$? deadline-driven so no spot")
	v, ok := a.Result.(PriceView)
	if !ok || v.Rental == nil || v.Spot {
		t.Fatalf("result %T %+v, want a rental total, spot refused", a.Result, a.Result)
	}
	o, _, _ := headlineOffer(v.Offers, "a100-80g", false)
	if o.Interruptible || a.Typed == nil || a.Typed.Asked != "money_total" || math.Abs(*a.Typed.Value-288*o.Price) > 0.01 || v.Rental.CardHours != 288 {
		t.Fatalf("typed %+v, quoted %+v (%s); want 288 card-hours × the quoted on-demand rate", a.Typed, o, a.Headline)
	}
	// spot asked: the spot rate is quoted and typed, and the total uses it
	a = askOne(t, "GCP上8卡H100 spot一小时多少美元？跑个3天的训练总共多少？")
	v, ok = a.Result.(PriceView)
	if !ok || v.Rental == nil || a.Typed == nil || a.Typed.Value == nil {
		t.Fatalf("result %T typed %+v", a.Result, a.Typed)
	}
	o, _, _ = headlineOffer(v.Offers, "h100-sxm", true)
	if !o.Interruptible || *a.Typed.Value != o.Price || math.Abs(v.Rental.Total-8*72*o.Price) > 0.01 {
		t.Errorf("spot: quoted %+v, typed %v, total %v; want the spot rate × 576 card-hours", o, *a.Typed.Value, v.Rental.Total)
	}
}

// TestExportQuestionsWhateverTheRoute: a card's export status is answered
// however the question is routed, and the yes/no follows the question
// (export_controls.yaml: L20 allowed, H20 needs a licence).
func TestExportQuestionsWhateverTheRoute(t *testing.T) {
	for _, c := range []struct{ q, gpu, verdict string }{
		{"H20现在还能走正规渠道买到吗？听说又被卡了。", "h20", "no"},        // may we still buy? no (被卡 is a remark)
		{"H20现在能买吗", "h20", "no"},                       // may we buy? no
		{"L20受不受出口管制？我们打算一次采购50张，交期大概多久？", "l20", "no"}, // restricted? no (it was a purchase-price error)
		{"is the H20 restricted for China?", "h20", "yes"},
	} {
		a := askOne(t, c.q)
		if a.Err != "" || a.Typed == nil || a.Typed.Asked != "export_status" || a.Typed.Choice != c.gpu || a.Typed.Verdict == nil || *a.Typed.Verdict != c.verdict {
			t.Errorf("%s: err %q typed %+v, want %s's export status, verdict %s", c.q, a.Err, a.Typed, c.gpu, c.verdict)
		}
	}
}

// TestBigBatchRunsWithAccumulation: "batch 16 … on 1 A100 40G" for a 1B
// full fine-tune was "does not fit even on 16384 × A100 40GB" — the batch
// was taken as one micro-batch. It runs as micro-batch 1 × 16 accumulation
// steps: 20,000 samples × 512 tokens × 3 epochs = 30.72M tokens; 6 ×
// 1.236e9 × 3.072e7 = 2.278e17 FLOP ÷ (312e12 × 0.40 MFU) ÷ 3600 = 0.51 h.
func TestBigBatchRunsWithAccumulation(t *testing.T) {
	a := askOne(t, "epochs vs steps confusion: 20k samples, batch 16, 3 epochs. how many steps and how long on 1 a100 40g for llama-3.2-1b full ft?")
	res, ok := a.Result.(advisor.CostResult)
	if a.Err != "" || !ok {
		t.Fatalf("err %q result %T", a.Err, a.Result)
	}
	if res.GPUs != 1 || res.Inputs.Workload.Batch != 1 || math.Abs(res.WallHours-0.51) > 0.01 || !strings.Contains(a.Text, "micro-batch 1 × 16") {
		t.Errorf("%d cards, batch %d, %v h; text %q — want 1 card, micro-batch 1, ≈0.51 h, the accumulation said", res.GPUs, res.Inputs.Workload.Batch, res.WallHours, a.Text)
	}
}

// TestServingSpeedAtAConcurrency: "how many tok/s … w/ 8 concurrent
// requests" on 2× A100 80GB is a serving speed (it was a memory fit). The
// roofline bounds it by hand: every decode step reads the 70.55e9 × 2 B =
// 141.1 GB of weights from 2 × 2,039 GB/s, so one sequence gets at most
// 4,078 ÷ 141.1 = 28.9 tokens/s; the engine's kernel efficiency keeps it
// under that and well above half.
func TestServingSpeedAtAConcurrency(t *testing.T) {
	a := askOne(t, "llama-3.3-70b on 2x a100 80gb with vllm. how many tok/s can I expect w/ 8 concurrent requests?")
	res, ok := a.Result.(advisor.CostResult)
	if !ok || res.Serving == nil || a.Typed == nil || a.Typed.Asked != "tokens_per_s" {
		t.Fatalf("result %T typed %+v (%s), want a serving speed", a.Result, a.Typed, a.Headline)
	}
	if res.Serving.Concurrency != 8 || res.GPUs != 2 {
		t.Errorf("concurrency %d on %d cards, want 8 on 2", res.Serving.Concurrency, res.GPUs)
	}
	if per := res.Serving.PerSequenceTPS; per > 28.9 || per < 14.5 {
		t.Errorf("%v tokens/s each, outside the roofline's (14.5, 28.9]", per)
	}
	if !strings.HasPrefix(a.Headline, "≈ ") || !strings.Contains(a.Headline, "at 8 concurrent sequences") {
		t.Errorf("headline %q does not lead with the speed", a.Headline)
	}
}

// TestRentalAtTheirRate: "3090s at $0.22/hr … for 200h, what do I pay" is
// 200 × $0.22 = $44 at their rate (it asked for a model size before).
func TestRentalAtTheirRate(t *testing.T) {
	a := askOne(t, "vast has verified 3090s at $0.22/hr, meh whatever. for 200h of qlora total what do I pay")
	if a.Err != "" || a.Typed == nil || a.Typed.Asked != "money_total" || a.Typed.Value == nil || *a.Typed.Value != 44 || a.Typed.Currency != "USD" {
		t.Fatalf("err %q typed %+v, want $44", a.Err, a.Typed)
	}
	if !strings.Contains(a.Headline, "≈ $44 for 1 card(s) × 200 h") {
		t.Errorf("headline %q", a.Headline)
	}
	// "8卡a800要几小时" asks hours, not cards
	a = askOne(t, "全参qwen2.5-7b，1亿token，8卡a800要几小时？按autodl的价格大概多少钱")
	if a.Typed == nil || a.Typed.Asked != "hours" {
		t.Errorf("8卡a800要几小时: typed %+v, want hours first", a.Typed)
	}
}

// TestImageFineTuneTime: "60 imgs, 1024, ~3000 steps. how long on a 3090"
// reads the steps and the images and answers the time first: 3,000 steps ×
// the step's seconds (the engine's, shown in the headline) = hours.
func TestImageFineTuneTime(t *testing.T) {
	a := askOne(t, "gonna train an sdxl lora for my art thesis: 60 imgs, 1024, ~3000 steps. how long on a 3090 & how much on runpod")
	if a.Slots.Steps != 3000 || a.Slots.Images != 60 {
		t.Fatalf("steps %d, images %v; want 3000 and 60", a.Slots.Steps, a.Slots.Images)
	}
	res, ok := a.Result.(advisor.ImageResult)
	if !ok || len(res.Options) == 0 || a.Typed == nil || a.Typed.Asked != "hours" {
		t.Fatalf("result %T typed %+v", a.Result, a.Typed)
	}
	o := res.Options[0]
	if res.Inputs.TrainSteps != 3000 || math.Abs(o.TrainHours-3000*o.SecondsStep/3600) > 0.001 || *a.Typed.Value != o.TrainHours {
		t.Errorf("train steps %d, %v h at %v s a step; typed %v", res.Inputs.TrainSteps, o.TrainHours, o.SecondsStep, *a.Typed.Value)
	}
}

// TestSpendQuestionsKeepTheirMonth: a spend question the router did not
// label (burned, booked) reaches the ledger with the month it named.
func TestSpendQuestionsKeepTheirMonth(t *testing.T) {
	b, _ := spendBot(t) // clock 2026-10-20
	say(b, "U1", "/gpu spend add 40h 4090 @runpod $20 date=2026-09-10")
	say(b, "U1", "/gpu spend add 10h 4090 @runpod $5 date=2026-10-05")
	a := say(b, "U1", "not asking for a refund lol, just how many gpu hrs did i burn on runpod in sep? roughly")
	rep, ok := a.Result.(*ledger.Report)
	if a.Intent != "spend" || !ok || a.Slots.Month != "09" || rep.Total.CardHours != 40 {
		t.Errorf("intent %s month %q result %T (%s); want September's 40 card-hours", a.Intent, a.Slots.Month, a.Result, a.Headline)
	}
}

func TestFitThenSpeedOnTheirCards(t *testing.T) {
	// Llama-3.1-70B in 4 bits: 70.55e9 params × 0.5 B = 35.3 GB of
	// weights, under the 48 GB of two RTX 4090s (and over one's 24 GB):
	// yes, it fits — the memory first, with its verdict; the speed on
	// those two cards follows, in the same answer.
	a := askOne(t, "Llama-3.1-70B 4-bit on 2x RTX 4090 for an internal demo: will it fit, and what tok/s?")
	if a.Typed == nil || a.Typed.Asked != "memory_gb" || a.Typed.Verdict == nil || *a.Typed.Verdict != "yes" {
		t.Fatalf("typed %+v (%s), want memory_gb first with yes", a.Typed, a.Headline)
	}
	if v := *a.Typed.Value; v < 35.3 || v > 48 {
		t.Errorf("memory %v GB, want between the 35.3 GB of weights and the 48 GB of two cards", v)
	}
	speed := false
	for _, o := range a.Typed.Also {
		speed = speed || o.Asked == "tokens_per_s" && o.Value != nil && *o.Value > 0
	}
	if !speed || !strings.HasPrefix(a.Headline, "Yes") || !strings.Contains(a.Headline, "tokens/s") {
		t.Errorf("headline %q, also %+v; want the yes first, then the speed on 2× RTX 4090", a.Headline, a.Typed.Also)
	}

	// In 16 bits the weights alone are 70.55e9 × 2 B = 141 GB, three
	// times the 48 GB they have: no, and no speed is made up for cards
	// that cannot run it.
	a = askOne(t, "Llama-3.1-70B fp16 on 2x RTX 4090: will it fit, and what tok/s?")
	if a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "no" || a.Typed.Asked != "memory_gb" || *a.Typed.Value < 141 {
		t.Fatalf("fp16: typed %+v (%s), want no with ≥ 141 GB", a.Typed, a.Headline)
	}
	if !strings.Contains(a.Text, "Speed not estimated") {
		t.Errorf("fp16 text %q: want it to say why no speed is given", a.Text)
	}

	// A latency target is the fleet's verdict, not a fit: at TTFT < 800 ms
	// two cards are not enough (the plan needs more), so no.
	a = askOne(t, "Llama-3.1-70B 4-bit on 2x RTX 4090: will it fit? TTFT < 800ms")
	if a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "no" || !strings.HasPrefix(a.Headline, "No — 2 cards are not enough") {
		t.Errorf("with a TTFT target: typed %+v, headline %q; want the fleet's no", a.Typed, a.Headline)
	}

	// In Chinese: 三张3090 (72 GB) hold the 35.3 GB of 4-bit weights.
	a = askOne(t, "三张3090能不能跑llama3 70b 4bit推理？输入2k 输出512，速度大概多少")
	if a.Typed == nil || a.Typed.Asked != "memory_gb" || a.Typed.Verdict == nil || *a.Typed.Verdict != "yes" || !strings.HasPrefix(a.Headline, "可以") {
		t.Errorf("zh: typed %+v, headline %q; want 可以 with the memory first", a.Typed, a.Headline)
	}
}

func TestFitOnTheirCardsSaysHowMany(t *testing.T) {
	// Llama-3.1-405B in FP8: 405.9e9 params × 1 B = 406 GB of weights;
	// one H200 holds 141 GB, so at least ⌈406 ÷ 141⌉ = 3 cards, and their
	// 8 (1,128 GB) hold it: yes — with the count it takes, which the
	// headline states.
	a := askOne(t, "does Llama-3.1-405B in FP8 fit on one 8x H200 node?")
	if a.Typed == nil || a.Typed.Asked != "memory_gb" || a.Typed.Verdict == nil || *a.Typed.Verdict != "yes" {
		t.Fatalf("typed %+v (%s), want memory first with yes", a.Typed, a.Headline)
	}
	cards := 0.0
	for _, o := range a.Typed.Also {
		if o.Asked == "cards" && o.Value != nil {
			cards = *o.Value
		}
	}
	if cards < 3 || cards > 8 {
		t.Errorf("cards %v (also %+v), want between 3 and their 8", cards, a.Typed.Also)
	}
}

func TestCommitBreakEvenInHours(t *testing.T) {
	// $1,800 a card-month against $2.50 an hour on demand: the month pays
	// once a card works more than 1,800 ÷ 2.50 = 720 h of it (98.6 % of
	// the 730-hour month) — asked in hours, answered in hours first.
	a := askOne(t, "H100 at $1,800 a card-month reserved vs $2.50/hr on demand: how many hours a month before reserved wins?")
	if a.Typed == nil || a.Typed.Asked != "break_even_hours" || a.Typed.Value == nil || math.Abs(*a.Typed.Value-720) > 0.5 {
		t.Fatalf("typed %+v (%s), want break_even_hours ≈ 720", a.Typed, a.Headline)
	}
	if !strings.Contains(a.Headline, "720 h") {
		t.Errorf("headline %q: want the 720 h in it", a.Headline)
	}
}

func TestAPIWeighedAsAsked(t *testing.T) {
	// "调豆包API … 自己搞台4090跑14B … 是不是反而更贵？": no model id, but
	// the API named is Doubao's. doubao-1.5-pro at ¥0.8 in / ¥2 out per M,
	// at the default 1,000 in / 500 out: (1000×0.8 + 500×2) ÷ 1500 =
	// ¥1.2 per M; 10M tokens/day × 730/24 days ÷ 1e6 × 1.2 = ¥365.00 a
	// month. Self-hosting costs more, so "is it more expensive?" is yes.
	a := askOne(t, "调豆包API一个月才几千块，我们自己搞台4090跑14B，每天1000万token，是不是反而更贵？")
	v, ok := a.Result.(APIView)
	if !ok || len(v.Quotes) == 0 {
		t.Fatalf("result %T (%s), want self-host vs the Doubao API", a.Result, a.Text)
	}
	if q := v.Quotes[0]; !strings.HasPrefix(q.Provider, "ByteDance") || math.Abs(q.Monthly-365) > 0.01 {
		t.Errorf("first quote %s %s ¥%v a month, want ByteDance's ¥365.00", q.Provider, q.Model, q.Monthly)
	}
	for _, q := range v.Quotes {
		if !strings.HasPrefix(q.Provider, "ByteDance") {
			t.Errorf("quote %s %s: only the API named is weighed when no model is", q.Provider, q.Model)
		}
	}
	if a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "yes" {
		t.Errorf("typed %+v: \"是不是反而更贵\" — self-hosting costs more, so yes", a.Typed)
	}
	// the headline says what the cheaper way saves a month
	if saving := v.SelfHostMonthly - 365; !strings.Contains(a.Headline, "每月省 "+present.Money(saving, "CNY")) {
		t.Errorf("headline %q: want the month's saving %s in it", a.Headline, present.Money(saving, "CNY"))
	}

	// A model with no API price in the data: the self-hosted bill stands
	// and the answer says why the API side is missing.
	a = askOne(t, "每天1.5亿token，全是输出，自建 Llama-3.3-70B 的话，H800租 ¥15/卡时，要几张卡、每月多少钱？比调API能省多少？")
	if !strings.Contains(a.Text, "没有 llama-3.3-70b 的 API 报价") {
		t.Errorf("text %q: want it to say no API price is in the data", a.Text)
	}
}

func TestMonthlyForAModelPicksCardsThatHoldIt(t *testing.T) {
	// "部署Qwen2.5-72B … 24小时常驻，每月多少钱？包月更划算吗？" names no card:
	// the month is for cards that hold the model, not the 4090 reference.
	// In 16 bits its weights alone are 72.7e9 × 2 B = 145.4 GB.
	a := askOne(t, "部署Qwen2.5-72B，按量计费、一天24小时常驻，每月多少钱？是不是直接包月更划算？")
	r, ok := a.Result.(advisor.MonthlyResult)
	if !ok {
		t.Fatalf("result %T (%s), want a monthly answer", a.Result, a.Text)
	}
	g, _ := knowledge.MustShipped().GPU(r.Inputs.GPU)
	if held := g.VRAMGB * float64(r.Inputs.Cards); held < 145.4 {
		t.Fatalf("%d× %s hold %v GB, less than the 145.4 GB of weights", r.Inputs.Cards, r.Inputs.GPU, held)
	}
	// the month's bill for all the cards: cards × 730 h × the hourly price
	if want := float64(r.Inputs.Cards) * 730 * r.Hourly; math.Abs(r.OnDemandCost-want) > 1 {
		t.Errorf("on demand %v a month, want %d × 730 × %v = %v", r.OnDemandCost, r.Inputs.Cards, r.Hourly, want)
	}
	if a.Typed == nil || a.Typed.Asked != "money_monthly" || math.Abs(*a.Typed.Value-math.Min(r.OnDemandCost, r.MonthlyCost)) > 0.01 {
		t.Errorf("typed %+v, want the month's bill for the %d cards, the cheaper way", a.Typed, r.Inputs.Cards)
	}
	if !strings.Contains(a.Headline, fmt.Sprintf("%d 张卡", r.Inputs.Cards)) {
		t.Errorf("headline %q: want the cards' month in it", a.Headline)
	}
}

func TestPerMillionTokensAtTheirUtilisationAndAgainstTheAPI(t *testing.T) {
	// "Qwen2.5-72B … 每百万token成本 … H20一台8卡包月4.2万，利用率50%": the
	// machine's month is ¥42,000 ÷ 8 cards ÷ 730 h = ¥7.1918 a card-hour;
	// a million tokens carries the idle half of the hours paid:
	// 8 × 7.1918 ÷ (tokens/s × 3600 × 0.5) × 1e6.
	a := askOne(t, "Qwen2.5-72B自建的每百万token成本算下来多少？H20一台8卡包月4.2万，利用率50%。")
	r, ok := a.Result.(advisor.CostResult)
	if !ok || a.Intent != parse.Cost {
		t.Fatalf("intent %s result %T (%s), want the cost of a million tokens", a.Intent, a.Result, a.Text)
	}
	if math.Abs(r.Hourly-42000.0/8/730) > 0.001 {
		t.Errorf("hourly %v, want 42000 ÷ 8 ÷ 730 = 7.1918", r.Hourly)
	}
	want := 8 * (42000.0 / 8 / 730) / (r.TokensPerS * 3600 * 0.5) * 1e6
	if math.Abs(r.PerMTokens-want) > 0.01 || a.Typed == nil || a.Typed.Asked != "money_per_m_tokens" {
		t.Errorf("per M %v (typed %+v), want %.4f at 50%% busy", r.PerMTokens, a.Typed, want)
	}
	if _, ign := a.Ignored["utilization"]; ign {
		t.Errorf("utilisation ignored: %v", a.Ignored)
	}

	// "跟官方API价差几倍": DeepSeek's own API at $0.27 in / $1.10 out per M
	// (the shipped row) × 7.2 = ¥1.944 / ¥7.92; the default request of
	// 1,000 in and 500 out bills (1000 × 1.944 + 500 × 7.92) ÷ 500 =
	// ¥11.808 per million output tokens.
	a = askOne(t, "自建DeepSeek-V3，8卡H200、利用率按70%，每百万token成本多少？跟官方API价差几倍？")
	if a.apiPerM == nil {
		t.Fatalf("no API comparison: %s", a.Text)
	}
	c := *a.apiPerM
	if !strings.HasPrefix(c.Best.Provider, "DeepSeek") || math.Abs(c.PerMOutput-11.808) > 0.01 {
		t.Errorf("API %s at %v per M output, want DeepSeek's own at ¥11.808", c.Best.Provider, c.PerMOutput)
	}
	self := a.Result.(advisor.CostResult).PerMTokens
	if math.Abs(c.Ratio-self/11.808) > 0.01 || !strings.Contains(a.Headline, "倍") {
		t.Errorf("ratio %v, want %v ÷ 11.808; headline %q", c.Ratio, self, a.Headline)
	}
}

func TestBudgetRentsHours(t *testing.T) {
	// "经费一共８０００块，4090 2.2/h，够我跑多少卡时？": 8000 ÷ 2.2 = 3,636.36
	// card-hours (full-width digits read as digits).
	a := askOne(t, "老板说这学期算力经费一共８０００块，AutoDL 4090 2.2/h，够我跑多少卡时？")
	if a.Typed == nil || a.Typed.Asked != "gpu_hours" || math.Abs(*a.Typed.Value-3636.36) > 0.01 {
		t.Fatalf("typed %+v (%s), want 3,636.36 card-hours first", a.Typed, a.Headline)
	}
	if !strings.HasPrefix(a.Headline, "¥8,000 按 ¥2.2/卡时能租约 3,636 卡时") {
		t.Errorf("headline %q: want what the budget rents first", a.Headline)
	}
	if !slices.Contains(a.Slots.Targets, "gpu_hours") || slices.Contains(a.Slots.Targets, "cards") {
		t.Errorf("targets %v: \"多少卡时\" asks card-hours, not cards", a.Slots.Targets)
	}
	// a budget in another currency than the rate: $5,000 × 7.2 = ¥36,000,
	// ÷ ¥20 = 1,800 card-hours
	a = askOne(t, "budget $5000, H100 at ¥20/h, how many GPU hours?")
	if a.Typed == nil || a.Typed.Asked != "gpu_hours" || math.Abs(*a.Typed.Value-1800) > 0.01 {
		t.Errorf("typed %+v (%s), want 1,800 card-hours", a.Typed, a.Headline)
	}
}

func TestServingOptionsRankedByTheFigureAsked(t *testing.T) {
	// "cheapest per million tokens … A10G, L4 or L40S?" at a load: ranked
	// by what a million tokens cost at that load, and the choice's
	// headline carries its cards and month too.
	a := askOne(t, "which is cheapest per million tokens for Qwen2.5-7B at 2B tokens/day: A10G, L4 or L40S?")
	v, ok := a.Result.(OptionsAnswer)
	if !ok || v.Asked != "money_per_m_tokens" || len(v.Rows) < 2 {
		t.Fatalf("result %T asked %q (%s), want options ranked per million tokens", a.Result, v.Asked, a.Text)
	}
	for i := 1; i < len(v.Rows); i++ {
		if v.Rows[i-1].Result.Plan.PerMTokens > v.Rows[i].Result.Plan.PerMTokens {
			t.Errorf("row %d (%s) dearer per M than row %d (%s)", i-1, v.Rows[i-1].Name, i, v.Rows[i].Name)
		}
	}
	best := v.Rows[0].Result.Plan
	got := map[string]bool{}
	for _, o := range append([]Typed{*a.Typed}, a.Typed.Also...) {
		got[o.Asked] = true
	}
	if a.Typed.Asked != "which" || !got["money_per_m_tokens"] || !got["cards"] || !got["money_monthly"] {
		t.Errorf("typed %+v: want the choice, then its per-M, cards and month", a.Typed)
	}
	if !strings.Contains(a.Headline, fmt.Sprintf("%d cards", best.Cards)) {
		t.Errorf("headline %q: want the choice's %d cards", a.Headline, best.Cards)
	}
}

func TestServingPlanOnACommitment(t *testing.T) {
	// A fleet's month on AWS's 1-year H100 term: the shipped AWS sheet
	// pairs $3.90 on demand with $2.80 committed a card-hour. For the
	// plan's cards every hour of a 730-hour month: committed cards × 730 ×
	// 2.80; the headline weighs it against the on-demand month it shows,
	// and on the term's own sheet the saving is cards × 730 × (3.90 − 2.80).
	a := askOne(t, "Llama-3.1-70B serving: peak 60 rps, avg 20, TTFT < 1s. How many H100s, and what's the monthly bill on AWS on-demand vs 1-yr reserved?")
	if a.planTerm == nil {
		t.Fatalf("no commitment weighed: %s", a.Text)
	}
	n := float64(a.planTerm.Inputs.Cards)
	if a.planTerm.Chosen.OnDemand != 3.9 || a.planTerm.Chosen.Committed != 2.8 {
		t.Fatalf("term %s on demand %v committed %v, want AWS's 3.90 / 2.80", a.planTerm.Chosen.Provider, a.planTerm.Chosen.OnDemand, a.planTerm.Chosen.Committed)
	}
	same := advisor.TermMonthly(*a.planTerm)
	if math.Abs(same.CommittedMonthly-n*730*2.8) > 0.01 || math.Abs(same.Difference-n*730*1.1) > 0.01 || same.Cheaper != "commit" {
		t.Errorf("%v cards: committed %v a month, saving on the sheet %v (%s); want %v and %v", n, same.CommittedMonthly, same.Difference, same.Cheaper, n*730*2.8, n*730*1.1)
	}
	var shown float64
	switch v := a.Result.(type) {
	case SLOAnswer:
		shown = v.MonthlyTotal
	case advisor.CostResult:
		shown = v.Plan.MonthlyOnDemand
	}
	pt := advisor.WeighPlanTerm(shown, *a.planTerm)
	if !strings.Contains(a.Headline, present.Money(pt.Difference, "USD")) || !strings.Contains(a.Headline, "AWS's term") {
		t.Errorf("headline %q: want the difference with the on-demand month shown (%s) and whose term", a.Headline, present.Money(pt.Difference, "USD"))
	}
	if !strings.Contains(a.Text, present.Money(same.Difference, "USD")) {
		t.Errorf("text %q: want the saving on the term's own sheet too", a.Text)
	}

	// A cheap on-demand offer beats a dear term from another provider:
	// no saving is claimed, and the term's provider is named.
	a = askOne(t, "Llama-3.1-8B serving at 0.5 rps on H100 on Lambda: monthly bill on-demand vs 3-yr reserved?")
	if a.planTerm != nil && strings.Contains(a.Headline, "less than on demand") && advisor.WeighPlanTerm(a.Result.(advisor.CostResult).Plan.MonthlyOnDemand, *a.planTerm).Cheaper != "commit" {
		t.Errorf("headline %q claims a saving the figures do not show", a.Headline)
	}
}

func TestUpcastReachesTheJSON(t *testing.T) {
	// 13B in 8 bits on a V100 (no 8-bit kernels): the weights are held in
	// 16 bits, 13e9 × 2 B = 26 GB — the option's upcast_gb, in the JSON a
	// tool reads, and more than the 13e9 × 1 B = 13 GB of 8-bit weights.
	a := askOne(t, "/gpu fit 13b bits=8")
	v, ok := a.Result.(FitResult)
	if !ok {
		t.Fatalf("result %T", a.Result)
	}
	for _, o := range v.Options {
		if o.GPU != "v100-sxm2" {
			continue
		}
		if o.UpcastGB < 26 {
			t.Errorf("V100 upcast %v GB, want ≥ 26 (16-bit weights)", o.UpcastGB)
		}
		b, _ := json.Marshal(o)
		if !strings.Contains(string(b), `"upcast_gb":`) {
			t.Errorf("option JSON %s has no upcast_gb", b)
		}
		return
	}
	t.Errorf("no V100 option in %d options", len(v.Options))
}

func TestMachineOpexStaysAsSaid(t *testing.T) {
	// "8卡…整机…托管每年16万": the slot keeps the machine's ¥160,000 a year as
	// said; the engine is given 160,000 ÷ 8 = ¥20,000 per card a year.
	a := askOne(t, "8卡H800整机报价200万，托管每年16万，利用率60%，按需每卡时15，买还是租？")
	if a.Slots.Ops == nil || a.Slots.Ops.Amount != 160000 {
		t.Fatalf("ops slot %+v, want 160000 as said", a.Slots.Ops)
	}
	var r advisor.BuyResult
	switch v := a.Result.(type) {
	case BuyView:
		r = v.BuyResult
	case advisor.BuyResult:
		r = v
	default:
		t.Fatalf("result %T (%s), want a buy answer", a.Result, a.Text)
	}
	if r.Inputs.Ops == nil || math.Abs(r.Inputs.Ops.Amount-20000) > 0.01 {
		t.Errorf("engine ops %+v, want ¥20,000 per card a year", r.Inputs.Ops)
	}
	// "按需每卡时15" is a card-hour rate, not a per-card quote: the ¥2,000,000
	// is the machine's, ¥250,000 a card
	if math.Abs(r.PricePerCard-250000) > 0.01 {
		t.Errorf("price per card %v, want 2,000,000 ÷ 8 = 250,000", r.PricePerCard)
	}
	// "4090D一张1.45万，买8张" is a per-card quote: ¥14,500 a card
	a = askOne(t, "4090D一张1.45万，买8张自己攒机，电费1块钱一度，对比按需每卡时2元，多久能回本？")
	if v, ok := a.Result.(BuyView); !ok || math.Abs(v.PricePerCard-14500) > 0.01 {
		t.Errorf("4090D: result %T (%s), want ¥14,500 a card", a.Result, a.Text)
	}
}

func TestMonthlyForAModelCountsTheCardsItNeeds(t *testing.T) {
	// Qwen2.5-72B in 16 bits: 145.4 GB of weights. On RTX 4090s (24 GB)
	// that is at least ⌈145.4 ÷ 24⌉ = 7 cards, not the one the plan
	// price is for; "on 2 cards" is too few for any card of ≤ 72 GB.
	for _, q := range []string{"部署Qwen2.5-72B，用4090，24小时常驻，每月多少钱？包月划算吗？", "Deploy Qwen2.5-72B on 2 cards always on: monthly cost? is a monthly plan cheaper?"} {
		a := askOne(t, q)
		r, ok := a.Result.(advisor.MonthlyResult)
		if !ok {
			t.Fatalf("%s: result %T (%s)", q, a.Result, a.Text)
		}
		g, _ := knowledge.MustShipped().GPU(r.Inputs.GPU)
		if float64(r.Inputs.Cards)*g.VRAMGB < 145.4 {
			t.Errorf("%s: %d× %s (%v GB each) cannot hold 145.4 GB of weights", q, r.Inputs.Cards, r.Inputs.GPU, g.VRAMGB)
		}
		if _, ign := a.Ignored["params_b"]; ign {
			t.Errorf("%s: the model's size ignored: %v", q, a.Ignored)
		}
	}
}

func TestMachineMonthBesideACardHourRate(t *testing.T) {
	// A machine's month beside a per-card hourly rate: the month is the
	// machine's, the rate the card's. $14,000 ÷ 8 = $1,750 a card-month
	// against $2.50 a card-hour: 1,750 ÷ 2.5 = 700 h; ¥100,000 ÷ 8 ÷ ¥20 =
	// 625 h.
	for _, c := range []struct {
		q    string
		want float64
	}{
		{"8x H100 node at $14,000 a month reserved vs $2.50 per GPU-hour on demand: how many hours a month before reserved wins?", 700},
		{"H100 8卡整机包月 10万，按需每卡 ¥20/小时，每月用多少小时以上包月划算？", 625},
	} {
		a := askOne(t, c.q)
		if a.Typed == nil || a.Typed.Asked != "break_even_hours" || math.Abs(*a.Typed.Value-c.want) > 0.5 {
			t.Errorf("%s: typed %+v (%s), want %v h", c.q, a.Typed, a.Headline, c.want)
		}
	}
}

func TestImagesTakeCardHours(t *testing.T) {
	// "SDXL 出图1万张，4090 要跑多久": 10,000 images × the seconds one image
	// takes ÷ 3600 = the card-hours they take on one card, asked first.
	a := askOne(t, "SDXL 出图1万张 1024分辨率，一张4090要跑多久？")
	r, ok := a.Result.(advisor.ImageResult)
	if !ok || r.Best == nil {
		t.Fatalf("result %T (%s)", a.Result, a.Text)
	}
	want := 10000 * r.Best.SecondsImage / 3600
	if math.Abs(r.TotalHours-want) > 0.01*want || a.Typed == nil || a.Typed.Asked != "hours" || math.Abs(*a.Typed.Value-r.TotalHours) > 0.01 {
		t.Errorf("total hours %v (typed %+v), want 10,000 × %v s ÷ 3600 = %.2f first", r.TotalHours, a.Typed, r.Best.SecondsImage, want)
	}
}

func TestServingPlanOnMonthlyPlans(t *testing.T) {
	// "常驻服务 … 包月划算吗": the plan's cards on 包月 for the whole month,
	// against the on-demand month shown: cards × the plan's card-month.
	a := askOne(t, "Qwen2.5-7B 常驻服务，每天1亿token，4090 按量每月多少？包月划算吗？")
	c, ok := a.Result.(advisor.CostResult)
	if !ok || c.Plan == nil || a.planMonthly == nil {
		t.Fatalf("result %T (%s), want a serving plan weighed on monthly plans", a.Result, a.Text)
	}
	mr := a.planMonthly
	if want := float64(c.Plan.Cards) * mr.MonthlyPrice; math.Abs(mr.MonthlyCost-want) > 0.01 {
		t.Errorf("monthly plans %v a month, want %d cards × %v", mr.MonthlyCost, c.Plan.Cards, mr.MonthlyPrice)
	}
	cheaper := mr.MonthlyCost < c.Plan.MonthlyOnDemand
	if a.Typed == nil || a.Typed.Verdict == nil || (*a.Typed.Verdict == "yes") != cheaper {
		t.Errorf("typed %+v: 包月划算吗 is %v (plans %v vs on demand %v)", a.Typed, cheaper, mr.MonthlyCost, c.Plan.MonthlyOnDemand)
	}
	if _, ign := a.Ignored["hours_per_month"]; ign {
		t.Errorf("常驻 (730 h) ignored though the plans bill it: %v", a.Ignored)
	}
}
