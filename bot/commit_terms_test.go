package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Enterprise questions about sourced term rates, each answered in its
// first line, in both languages. Hand values from reserved_prices.csv:
// AWS p5.48xlarge on demand $98.32/instance-h ÷ 8 = $12.29/card-h (Epoch,
// 2025-03-17, us-east-1); AWS 1-yr $52/instance-h ÷ 8 = $6.50 (medium,
// Q1 2026); no AWS H100 3-yr row; Azure ND H100 v5 1-yr $2.50-3.50/GPU-h;
// Lambda 1-yr "reserved clusters" $1.85-1.89/GPU-h. Chinese questions with
// no $ are answered in CNY at the bot's 7.2.
func TestTermQuestionsByHand(t *testing.T) {
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	cases := []struct {
		name, q string
		head    []string // in the first line
		notHead []string
	}{{
		name: "p5 on demand vs 1-year, 4 nodes, a month",
		q:    "What's the monthly difference between p5 on-demand and a 1-year reserved for 4 nodes?",
		// 4 nodes × 8 = 32 cards; 32 × 730 = 23,360 card-h; on demand
		// 23,360 × 12.29 = 287,094.40; 1-yr 23,360 × 6.50 = 151,840;
		// difference 23,360 × 5.79 = 135,254.40
		head: []string{"4 nodes (32×", "$135,254", "$287,094", "$151,840"},
	}, {
		name: "4 instances are 4 nodes",
		q:    "What's the monthly difference between p5 on-demand and a 1-year reserved for 4 instances?",
		// as above: 32 × 730 × 5.79 = 135,254.40
		head: []string{"(32×", "$135,254"},
	}, {
		name: "p5 on demand vs 1-year, 4 台, zh",
		q:    "p5 按需和一年预留，4 台每月差多少？",
		// × 7.2: 135,254.40 → 973,831.68; 287,094.40 → 2,067,079.68; 151,840 → 1,093,248
		head: []string{"32 张", "¥973,832", "¥2,067,080", "¥1,093,248"},
	}, {
		name: "Azure vs AWS 1-year, 2 nodes, a year",
		q:    "Azure ND H100 v5 vs AWS p5 — which is cheaper on a 1-year reservation for 2 nodes?",
		// 16 cards × 8,760 h: Azure × 2.50 = 350,400 (× 3.50 = 490,560);
		// AWS × 6.50 = 911,040; 911,040 − 350,400 = 560,640
		head:    []string{"Microsoft Azure is cheaper", "$350,400–490,560", "$911,040", "$560,640"},
		notHead: []string{"on demand"},
	}, {
		name: "Azure vs AWS 1-year, 2 台, zh",
		q:    "Azure ND H100 v5 和 AWS p5 比，2 台签一年预留哪个便宜？",
		// × 7.2: 350,400 → 2,522,880; 911,040 → 6,559,488
		head: []string{"更便宜", "¥2,522,880", "¥6,559,488"},
	}, {
		name: "a month's budget on Lambda's 1-year rate",
		q:    "We have a $500k monthly budget for inference GPUs. How many H100s can we keep running on a 1-yr reserved at Lambda's rate?",
		// floor(500,000 ÷ (1.89 × 730 = 1,379.70)) = 362; ÷ (1.85 × 730 = 1,350.50) = 370
		head:    []string{"362–370", "$1.85–1.89", "Lambda"},
		notHead: []string{"$2.99"},
	}, {
		name: "a month's budget on Lambda's 1-year rate, zh",
		q:    "每月预算 50 万美元做推理，按 Lambda 的一年预留价能养多少张 H100？",
		head: []string{"362–370", "$1.85–1.89"},
	}, {
		name: "two regions, 2 p5 each, on demand a month",
		q:    "Multi-region serving (us-east-1 + eu-west-1): what's the monthly on-demand cost of 2x p5.48xlarge per region, 24/7?",
		// 2 × 2 regions = 4 instances = 32 cards; 32 × 730 × 12.29 = 287,094.40
		head:    []string{"$287,094", "us-east-1", "2025-03-17", "No sourced price for eu-west-1"},
		notHead: []string{"does not list"},
	}, {
		name: "two regions, zh",
		q:    "多区域部署（us-east-1 + eu-west-1），每个区域 2 台 p5.48xlarge 全天候跑，按需每月多少钱？",
		head: []string{"¥2,067,080", "eu-west-1 没有"},
	}, {
		name: "AWS on demand vs 1-yr vs 3-yr, 8 cards a month",
		q:    "H100 SXM on AWS: on-demand vs 1-yr vs 3-yr, per month for 8 cards",
		// 8 × 730 = 5,840 card-h: × 12.29 = 71,773.60; × 6.50 = 37,960; no 3-yr row
		head: []string{"$71,774", "$37,960", "no sourced 3-year rate"},
	}, {
		name: "AWS three terms, zh",
		q:    "AWS 上 H100 SXM：按需、一年、三年预留，8 张卡每月各多少？",
		// × 7.2: 71,773.60 → 516,769.92; 37,960 → 273,312
		head: []string{"¥516,770", "¥273,312", "三年期"},
	}, {
		name: "a month's spend and the year, at their rate",
		q:    "We pay $2.49/hr per H100 on RunPod and run 8 of them 24/7. What's our monthly spend, and annualized?",
		// 8 × 730 × 2.49 = 14,541.60; 8 × 8,760 × 2.49 = 174,499.20
		head: []string{"$14,542", "$174,499"},
	}, {
		name: "a month's spend and the year, zh",
		q:    "我们在 RunPod 上租了 8 张 H100，每张每小时 $2.49，24/7 跑，每月花多少？一年呢？",
		head: []string{"$14,542", "$174,499"},
	}, {
		name: "a month's spend alone: no year",
		q:    "We pay $2.49/hr per H100 on RunPod and run 8 of them 24/7. What's our monthly spend?",
		head: []string{"$14,542"}, notHead: []string{"$174,499"},
	}, {
		name: "Lambda contract total, its own sourced rate beside, zh",
		q:    "我们跟 Lambda 签了一年 16 张 H100 的合约，$1.89/卡时，合同总额是多少？",
		// 16 × 8,760 × 1.89 = 264,902.40
		head: []string{"$264,902"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := b.Answer(context.Background(), Message{Text: c.q})
			first, _, _ := strings.Cut(a.Text, "\n")
			for _, w := range c.head {
				if !strings.Contains(first, w) {
					t.Errorf("%q\nfirst line %q\nwant %q", c.q, first, w)
				}
			}
			if _, ok := a.Ignored["samples"]; ok {
				t.Errorf("%q: samples ignored, want the instances used as nodes", c.q)
			}
			for _, w := range c.notHead {
				if strings.Contains(first, w) {
					t.Errorf("%q\nfirst line %q\nwant no %q", c.q, first, w)
				}
			}
		})
	}
}

// The sourced rate beside a contract at the user's own rate is the named
// platform's row: Lambda's 1-year $1.85-1.89 (Alpha One, Q4 2025), not
// GCP a3-highgpu-8g's $44,810.08 ÷ 8 ÷ 730 = $7.67.
func TestTermQuoteNamedPlatformsRate(t *testing.T) {
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	for _, q := range []string{
		"我们跟 Lambda 签了一年 16 张 H100 的合约，$1.89/卡时，合同总额是多少？",
		"1-year commitment of 16 H100s on Lambda at $1.89/hr — total annual cost?",
	} {
		a := b.Answer(context.Background(), Message{Text: q})
		head, _, _ := strings.Cut(a.Text, "\n")
		// 16 × 8,760 × 1.89 = 264,902.40
		if !strings.Contains(head, "$264,902") || !strings.Contains(a.Text, "$1.85–1.89") || !strings.Contains(a.Text, "Lambda H100 (reserved clusters)") || strings.Contains(a.Text, "7.67") {
			t.Errorf("%q:\n%s", q, a.Text)
		}
	}
}
