package parse

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
)

// Readings added with the whole-question work of round 4: owners (project,
// team, region), money in millions, request shapes written "X in / Y out",
// peaks written after their rate, residual value in tenths or "zero
// resale", card counts said in passing. Each want is what the sentence
// states, read by hand.
var ownerReadings = []struct {
	in   string
	want map[string]any
}{
	{"set a monthly budget of $15k for rag-sg, alert me at 80%", map[string]any{"project": "rag-sg"}},
	{"Set project atlas-llm's total budget to $2.5M.", map[string]any{"project": "atlas-llm", "budget": map[string]any{"amount": 2.5e6, "currency": "USD"}}},
	{"记一笔：火山引擎 H20 按量，11月份，asr 项目，共 ¥23,460，跑了340小时。", map[string]any{"project": "asr"}},
	{"Record spend: $112k, team llm-serving, Oct 2026, CoreWeave H100 reserved.", map[string]any{"team": "llm-serving"}},
	{"NLP组的月预算从3万提到4.5万", map[string]any{"team": "nlp"}},
	{"a small team of 5 — how's the team doing on spend?", map[string]any{"team": nil}},
	// a group named in Chinese, with its word; pronouns and "to build" are not teams
	{"推理组这个季度预算30万，现在花到哪了？", map[string]any{"team": "推理组", "method": nil, "budget": map[string]any{"amount": 300000.0}}},
	{"算法组上个月的GPU账单多少？", map[string]any{"team": "算法组"}},
	{"给大模型组的预算改成每月2万", map[string]any{"team": "大模型组"}},
	{"我们组今年的预算还剩多少", map[string]any{"team": nil}},
	{"国内二手4090现在多少钱一张？想组个两卡机，预算多少合适", map[string]any{"team": nil}},
	// grammar words where a name would stand are not projects
	{"How much headroom is left on llm-ft for December? I think the cap is ¥12,000/month.", map[string]any{"project": "llm-ft"}},
	{"how far over budget is video-gen this quarter?", map[string]any{"project": "video-gen"}},
	// a bare figure before a card is a count, not money
	{"we have 8 H100, how long for a 70b full fine-tune on 1B tokens?", map[string]any{"cards": 8.0, "budget": nil}},
	// providers read by the names providers.yaml lists as aliases
	{"going rate for H200 per GPU-hr in us-east: Lambda vs CoreWeave vs Azure?", map[string]any{"platforms": []any{"lambda", "coreweave", "azure"}}},
	{"Record spend: $112k, team llm-serving, Oct 2026, CoreWeave H100 reserved.", map[string]any{"platform": "coreweave"}},
	{"OCI H100 price per hour", map[string]any{"platform": "oracle"}},
	{"what latitude does the region sit at", map[string]any{"platform": nil}},
	// a share of idle time is the rest used
	{"我们lab有台8卡a100 40g，60%的时间都闲着，要不要租出去", map[string]any{"utilization": 0.4}},
	{"our 8x H100 sit 30% idle", map[string]any{"utilization": 0.7}},
	{"we run them at 70% utilization", map[string]any{"utilization": 0.7}},
	// a deadline in hours
	{"８w条指令数据，lora qwen3-14b 3轮，一张4090 48小时内跑得完不", map[string]any{"days": 2.0, "hours": nil}},
	{"EU-only (GDPR). Llama-3.1-70B, 60 rps peak / 20 avg, TTFT 1s.", map[string]any{"region": "eu", "peak_requests_per_s": 60.0, "requests_per_s": 20.0}},
	{"Vendor quoted us $280k for an 8x H100 server", map[string]any{"region": nil}},
	{"qwen 2.5 7b, 500 rps peak avg 150, 300 in 150 out", map[string]any{"peak_requests_per_s": 500.0, "requests_per_s": 150.0, "input_tokens": 300.0, "output_tokens": 150.0}},
	// 4k = 4 × 1024 tokens, the way the engine counts a context
	{"Is 16x H100 enough for Llama-3.3-70B at 200 rps peak, 4k-token prompts, 256 out?", map[string]any{"input_tokens": 4096.0, "output_tokens": 256.0, "cards": 16.0}},
	{"Min VRAM for Qwen2.5-72B INT4 with 32 concurrent 8k requests?", map[string]any{"input_tokens": 8192.0, "concurrency": 32.0, "price": nil}},
	{"Buy vs rent: 8x H200 server at $315k, 5-yr life, 20% residual", map[string]any{"residual": 0.2, "price": map[string]any{"amount": 315000.0, "currency": "USD"}}},
	{"一台8卡4090整机报价22万，电费0.8元/度，残值两成，用三年", map[string]any{"residual": 0.2}},
	{"$515k per 8-GPU HGX, opex $60k/yr, 5-year life, zero resale", map[string]any{"residual": 0.0}},
	{"我们每天大概1亿token，其中输出占两成，模型是Qwen2.5-72B", map[string]any{"utilization": nil, "tokens_per_day": 1e8}},
	{"We push ~30M output tokens a day through a hosted API", map[string]any{"tokens_per_day": 3e7}},
	{"which GCP region is cheapest for H100s rn? We need 16 for 1 yr.", map[string]any{"cards": 16.0}},
	{"Is the ascend 910b legit? uni cluster has 16 of them", map[string]any{"cards": 16.0}},
	{"A800和H800现在还能买到吗？学校采购要走流程，要4张", map[string]any{"cards": 4.0, "yes_no": true}},
	{"H20现在还能走正规渠道买到吗？听说又被卡了。", map[string]any{"yes_no": true}},
	{"LoRA训练每月大约用300卡时A800，按量每卡时12，包月每卡7000", map[string]any{"price": map[string]any{"amount": 12.0}, "monthly": map[string]any{"amount": 7000.0}}},
}

func TestOwnerAndShapeReadings(t *testing.T) {
	p := newParser(t)
	for _, tt := range ownerReadings {
		req := p.ParseAt(tt.in, issueNow)
		b, _ := json.Marshal(req.Slots)
		var got map[string]any
		_ = json.Unmarshal(b, &got)
		for k, want := range tt.want {
			if !reflect.DeepEqual(got[k], want) {
				t.Errorf("Parse(%q) %s = %v, want %v (slots %s)", tt.in, k, got[k], want, b)
			}
		}
	}
}

// TestStatedTargetsAreNotAsked: a latency or per-user speed the message
// states is a target to meet, not a figure it asks for — unless it asks
// one as well.
func TestStatedTargetsAreNotAsked(t *testing.T) {
	p := newParser(t)
	for _, tt := range []struct {
		in          string
		want, never string
	}{
		{"Coding assistant on Qwen2.5-Coder-32B: SLO 60 tok/s per user, 150 concurrent, 4k in / 300 out. H100 or H200, and how many?", "cards", "tokens_per_s"},
		{"Qwen2.5-72B 峰值40 QPS，首token要压在800ms以内，H20 96G的要几张？", "cards", "ttft_ms"},
		{"每路要30 token/s，首token多少毫秒？", "ttft_ms", "tokens_per_s"},
		{"p99 TTFT 500ms at 64 users on Llama-3.1-8B: what tok/s will each user see?", "tokens_per_s", "ttft_ms"},
	} {
		got := p.ParseAt(tt.in, issueNow).Slots.Targets
		if !slices.Contains(got, tt.want) || slices.Contains(got, tt.never) {
			t.Errorf("Parse(%q) targets %v, want %s and not %s", tt.in, got, tt.want, tt.never)
		}
	}
}

// TestTargetsOrder: what a message asks, in the order it asks, a choice
// named only by "vs" after the figure asked of each option.
func TestTargetsOrder(t *testing.T) {
	p := newParser(t)
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"48 H100s on Azure for the next 3 years: 3-yr reserved vs on-demand, total saving?", []string{"saving"}},
		{"Price-check for 32 H100s over 12 months: Lambda 1-yr commit vs GCP 1-yr CUD vs RunPod on-demand. Total for each?", []string{"money_total", "which"}},
		{"买还是租，就看5年总成本", []string{"which", "money_total"}},
		{"How many H100-hours for full-FT SFT of Llama-3.1-70B on 150M tokens, 3 epochs?", []string{"gpu_hours"}},
		{"单张 H100 跑 Llama-3.1-8B，最多能扛多少并发？", []string{"concurrency"}},
	} {
		got := p.ParseAt(tt.in, issueNow).Slots.Targets
		if len(got) < len(tt.want) || !reflect.DeepEqual(got[:len(tt.want)], tt.want) {
			t.Errorf("Parse(%q) targets %v, want %v first", tt.in, got, tt.want)
		}
	}
}

// TestProjectQuotedOrMarked (review Q49, writers cto-050): a project named
// in quotes beside 项目, or between 把 and 项目, is read — even a word that
// is a workload elsewhere ("eval").
func TestProjectQuotedOrMarked(t *testing.T) {
	p := newParser(t)
	for text, want := range map[string]string{
		`给项目"星火"记一笔支出 1.2万元 A800租赁`: "星火",
		`给项目“星火”记一笔支出 1.2万元`:        "星火",
		"把 eval 项目加进预算，每月5000块封顶。":  "eval",
	} {
		if got := p.ParseAt(text, issueNow).Slots.Project; got != want {
			t.Errorf("%s: project %q, want %q", text, got, want)
		}
	}
}
