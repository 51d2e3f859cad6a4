package phrase_test

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/phrase"
)

// Templates as the engine renders them (shortened), in both languages.
const (
	fitEN = "13B LoRA fine-tune: about 41.13 GB per replica\n\n" +
		"Fits on one card: L40S 48GB (6.86 GB spare); A100 80GB (38.86 GB spare)\n" +
		"Needs several cards: RTX 4090 ×2 (20.97 GB/card, from $0.15/card-h at vastai); RTX 3090 ×2 (20.97 GB/card)"
	fitZH = "13B LoRA 微调：单副本约需 41.13 GB 显存\n\n" +
		"单卡放得下：L40S 48GB（富余 6.86 GB）；A100 80GB（富余 38.86 GB）\n" +
		"需要多卡：RTX 4090 ×2（每卡 20.97 GB，低至 ¥1.08/卡时 @ vastai）"
	monthlyEN = "RTX 4090 monthly plan vs on demand: break-even at 500 h/month\n" +
		"At 200 h/month paying on demand is cheaper by $540 (60%)."
	monthlyZH = "RTX 4090 包月 vs 按需：每月 486.7 小时打平\n每月 300 小时：按需更划算，省 ¥224（38.4%）。"
	buyEN     = "Buy or rent H100 SXM: at these prices buying never pays off\nAt 70% utilisation renting is cheaper."
	buyZH     = "H100 SXM 买还是租：按这些价格，买永远回不了本\n利用率 70% 时租更省。"
	budgetEN  = "7B LoRA fine-tune on RTX 4090: about $1.54, within your $100 budget\ncards: 2"
	budgetZH  = "7B LoRA 微调（RTX 4090）：约 ¥11.1，在预算之内\n卡数: 2"
	compareEN = "Compare: H100 SXM vs H800 SXM\nPick H100 SXM for multi-node training: NVLink 900 GB/s against 400 GB/s.\nCheapest offer: $1.33/card-hour at cn-market."
	compareZH = "对比：H100 SXM vs H800 SXM\n多机训练首选 H100 SXM：NVLink 900 GB/s，H800 只有 400 GB/s。\n最低报价 ¥9.58/卡时 @ cn-market。"
)

func TestClaimGuard(t *testing.T) {
	tests := []struct {
		name, template, text string
		reject               string // "" = accepted; else a substring of a reason
	}{
		// card counts
		{"count kept", fitEN, "A 13B LoRA fine-tune needs about 41 GB: one A100 80GB or an L40S holds it, or two RTX 4090s.", ""},
		{"single card where the engine said two", fitEN, "It fits on a single RTX 4090.", "rtx4090 ×1"},
		{"count in digits changed", fitEN, "Use 3 RTX 3090s.", "rtx3090 ×3"},
		{"free count the answer never gives", fitEN, "You need four cards.", "4 cards"},
		{"count kept, Chinese", fitZH, "13B LoRA 微调约需 41 GB 显存，单张 A100 80GB 就放得下；用 RTX 4090 要 2 张：RTX 4090 ×2。", ""},
		{"单卡 where the engine said two, Chinese", fitZH, "一张 RTX 4090 就够了。", "rtx4090 ×1"},
		{"八卡 the answer never gives, Chinese", fitZH, "建议用八卡 A100。", "a100-80g ×8"},
		// fits / does not fit
		{"does not fit where it fits", fitEN, "It doesn't fit on an A100 80GB.", "does not say a100-80g does not fit"},
		{"fits where it fits", fitEN, "An A100 80GB fits it with room to spare.", ""},
		{"放不下 where it fits, Chinese", fitZH, "A100 80GB 放不下。", "a100-80g does not fit"},
		{"a fit claim in a cost answer", budgetEN, "About $1.54 and it fits.", "does not say it fits"},
		// verdicts
		{"cheaper option kept", monthlyEN, "At 200 h a month, on-demand is cheaper: you save $540 (60%).", ""},
		{"cheaper option flipped", monthlyEN, "At 200 h a month the monthly plan is cheaper.", "cheaper is not monthly"},
		{"cheaper kept, Chinese", monthlyZH, "每月 300 小时的话按需更划算，能省 ¥224（38.4%）。", ""},
		{"cheaper flipped, Chinese", monthlyZH, "每月 300 小时包月更划算。", "cheaper is not monthly"},
		{"pays off where it never does", buyEN, "Buying an H100 SXM pays off at 70% utilisation.", "worth is not yes"},
		{"worth kept", buyEN, "At these prices buying an H100 SXM never pays off; at 70% utilisation renting is cheaper.", ""},
		{"值得 where it never pays off, Chinese", buyZH, "H100 SXM 值得买。", "worth is not yes"},
		{"over budget where within", budgetEN, "About $1.54, which is over your $100 budget.", "budget is not no"},
		{"超预算 where within, Chinese", budgetZH, "约 ¥11.1，超出预算了。", "budget is not no"},
		{"yes where the verdict is no", buyEN, "Yes — at 70% utilisation renting is cheaper.", "opening with"},
		{"是 where the verdict is no, Chinese", buyZH, "是的，利用率 70% 时租更省。", "opening with"},
		{"no where the verdict is no", buyEN, "No: at these prices buying never pays off.", ""},
		// chosen card and platform
		{"choice kept", compareEN, "For multi-node training go with the H100 SXM (900 GB/s NVLink vs 400 GB/s).", ""},
		{"choice flipped", compareEN, "For multi-node training go with the H800 SXM.", "does not choose h800"},
		{"choice flipped, Chinese", compareZH, "多机训练首选 H800。", "does not choose h800"},
		{"platform swapped", compareEN, "The cheapest offer is on runpod at $1.33/card-hour.", "platform runpod"},
		{"platform swapped, Chinese", compareZH, "最便宜的是 autodl。", "platform autodl"},
		{"a card the answer never names", fitEN, "昇腾也放得下。", "card ascend-910b"},
		// currency
		{"currency kept", monthlyEN, "Paying on demand is cheaper by $540.", ""},
		{"currency switched in words", monthlyEN, "On demand is cheaper, priced in yuan.", "currency CNY"},
		{"currency switched in words, Chinese", monthlyZH, "按需更划算，按美元计。", "currency USD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, reasons := phrase.CheckClaims(tt.text, tt.template, nil)
			switch {
			case tt.reject == "" && !ok:
				t.Errorf("CheckClaims(%q) rejected it: %v", tt.text, reasons)
			case tt.reject != "" && ok:
				t.Errorf("CheckClaims(%q) accepted it, want a reason with %q", tt.text, tt.reject)
			case tt.reject != "" && !strings.Contains(strings.Join(reasons, "; "), tt.reject):
				t.Errorf("CheckClaims(%q) reasons %v, want one with %q", tt.text, reasons, tt.reject)
			}
			for _, r := range reasons {
				if !strings.HasPrefix(r, phrase.ReasonClaim+": ") {
					t.Errorf("reason %q lacks the %q kind", r, phrase.ReasonClaim)
				}
			}
		})
	}
}

// TestClaimFactsBackCounts: a count the template leaves out but the
// result holds (cost: gpus beside gpu) is backed.
func TestClaimFactsBackCounts(t *testing.T) {
	tmpl := "7B LoRA fine-tune on RTX 4090: about $1.54"
	facts := phrase.FactsFrom(tmpl, map[string]any{"result": map[string]any{"gpu": "rtx4090", "gpus": 2, "currency": "USD", "total": 1.54}})
	if ok, r := phrase.CheckClaims("Two RTX 4090s, about $1.54.", tmpl, facts); !ok {
		t.Errorf("rejected a count the result holds: %v", r)
	}
	if ok, _ := phrase.CheckClaims("One RTX 4090, about $1.54.", tmpl, facts); ok {
		t.Error("accepted one card where the result says 2")
	}
}

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"<!channel> it fits":                     " it fits",
		"ask <@U123> about <!here|here>":         "ask  about ",
		"see <https://example.com|the guide>":    "see the guide",
		"see <https://example.com>":              "see https://example.com",
		"@channel heads up, @Here and @everyone": "channel heads up, Here and everyone",
		"in <#C123|general>":                     "in ",
	} {
		if got := phrase.Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}
