package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/thread"
	"github.com/gpubot/gpubot/knowledge"
)

// convertBot is the bot the conversion tests ask: 7.2 CNY per USD.
func convertBot(t *testing.T) *Bot {
	t.Helper()
	return New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
}

// TestConversionsInWords asks the real bot for a stated figure in the
// other currency; every expected value is worked by hand in its comment.
func TestConversionsInWords(t *testing.T) {
	b := convertBot(t)
	type fig struct {
		asked, cur, unit string
		value            float64
	}
	for _, tc := range []struct {
		text     string
		first    fig
		also     []fig
		headline string   // the headline starts with this (the converted figure)
		says     []string // and the text says these (the How line, the rate)
		used     []string // slots the answer accounts as used
	}{
		{
			// 14,342 × 7.2 = 103,262.40
			text:     "Convert $14,342 to CNY",
			first:    fig{"money_total", "CNY", "", 103262.40},
			headline: "¥103,262",
			says:     []string{"How: $14,342 × 7.2 = ¥103,262", "1 USD = 7.2 CNY"},
			used:     []string{"amount", "currency"},
		},
		{
			// 850,000 ÷ 7.2 = 118,055.56 a month; × 12 = 1,416,666.67 a year
			text:     "our run rate is 850,000 CNY/mo, what is that in USD per year?",
			first:    fig{"money_total", "USD", "year", 1416666.67},
			also:     []fig{{"money_monthly", "USD", "month", 118055.56}},
			headline: "$1,416,667 a year",
			says:     []string{"¥850,000 a month ÷ 7.2 = $118,056 a month", "× 12 = $1,416,667 a year"},
			used:     []string{"amount", "currency"},
		},
		{
			// 68,000 ÷ 7.2 = 9,444.44 a month; 68,000 ÷ (8 × 720) = ¥11.806
			// a GPU-hour, ÷ 7.2 = $1.6397
			text:     "what's ¥68,000 a month per machine in dollars, and per GPU-hour if the box has 8 cards and runs 720 hours?",
			first:    fig{"money_monthly", "USD", "month", 9444.44},
			also:     []fig{{"price_per_card_hour", "USD", "card_hour", 1.6397}},
			headline: "$9,444 a month",
			says:     []string{"¥68,000 ÷ (8 cards × 720 h) = ¥11.81 = $1.64"},
			used:     []string{"monthly", "cards", "hours_per_month", "currency"},
		},
		{
			// 2.49 × 7.2 = 17.928 a card-hour
			text:     "$2.49一小时的H100换成人民币是多少？",
			first:    fig{"price_per_card_hour", "CNY", "card_hour", 17.928},
			headline: "H100 SXM：¥17.93/卡时",
			says:     []string{"算法：$2.49/卡时 × 7.2 = ¥17.93/卡时", "1 美元 = 7.2 元"},
			used:     []string{"price", "gpus", "currency"},
		},
		{
			// the rate said: 265,000 × 7.15 = 1,894,750
			text:     "这台8卡H100报价 $265k，折合人民币多少？汇率7.15。",
			first:    fig{"money_total", "CNY", "", 1894750},
			headline: "8× H100 SXM：¥1,894,750",
			says:     []string{"按你给的汇率", "$265,000 × 7.15"},
			used:     []string{"price", "fx", "cards", "gpus"},
		},
		{
			// 每月 85 万元 ÷ 7.2 = 118,055.56 一个月；× 12 = 1,416,666.67 一年
			text:     "每月85万人民币，折合美元一年是多少？",
			first:    fig{"money_total", "USD", "year", 1416666.67},
			also:     []fig{{"money_monthly", "USD", "month", 118055.56}},
			headline: "$1,416,667/年",
			says:     []string{"¥850,000/月 ÷ 7.2 = $118,056/月"},
			used:     []string{"monthly", "currency"},
		},
		{
			// "at 7.1" is the rate: 50,000 ÷ 7.1 = 7,042.25
			text:     "what is ¥50,000 in USD at 7.1?",
			first:    fig{"money_total", "USD", "", 7042.25},
			headline: "$7,042",
			says:     []string{"1 USD = 7.1 CNY, your rate"},
			used:     []string{"amount", "fx"},
		},
		{
			// 按7.15算: 1,200 ÷ 7.15 = 167.83
			text:     "¥1,200 合多少美元？按7.15算",
			first:    fig{"money_total", "USD", "", 167.83},
			headline: "$167.83",
			says:     []string{"1 美元 = 7.15 元，按你给的汇率"},
			used:     []string{"amount", "fx", "currency"},
		},
	} {
		t.Run(tc.text, func(t *testing.T) {
			a := b.Answer(context.Background(), Message{Text: tc.text})
			if a.Err != "" || a.Intent != convertIntent {
				t.Fatalf("Answer(%q) = intent %s, err %q, want a conversion:\n%s", tc.text, a.Intent, a.Err, a.Text)
			}
			if !strings.HasPrefix(a.Headline, tc.headline) {
				t.Errorf("headline = %q, want it to lead with %q", a.Headline, tc.headline)
			}
			for _, s := range tc.says {
				if !strings.Contains(a.Text, s) {
					t.Errorf("text does not say %q:\n%s", s, a.Text)
				}
			}
			if a.Typed == nil {
				t.Fatalf("no typed answer")
			}
			check := func(what string, got Typed, want fig) {
				t.Helper()
				if got.Asked != want.asked || got.Currency != want.cur || got.Unit != want.unit || got.Value == nil || math.Abs(*got.Value-want.value) > 0.01 {
					v := math.NaN()
					if got.Value != nil {
						v = *got.Value
					}
					t.Errorf("%s = %s %v %s (%s), want %s %v %s (%s)", what, got.Asked, v, got.Currency, got.Unit, want.asked, want.value, want.cur, want.unit)
				}
			}
			check("answer", *a.Typed, tc.first)
			for _, w := range tc.also {
				found := false
				for _, g := range a.Typed.Also {
					if g.Asked == w.asked {
						check("also "+w.asked, g, w)
						found = true
					}
				}
				if !found {
					t.Errorf("answer.also has no %s: %+v", w.asked, a.Typed.Also)
				}
			}
			for _, k := range tc.used {
				if _, ok := a.Used[k]; !ok {
					t.Errorf("used has no %s: used %v, ignored %v", k, a.Used, a.Ignored)
				}
			}
		})
	}
}

// TestConversionWeighsTwoFigures: a figure converted and weighed against
// another per the same hour.
func TestConversionWeighsTwoFigures(t *testing.T) {
	b := convertBot(t)
	// $2.49 × 7.2 = ¥17.928 a card-hour against ¥15.8: dearer by ¥2.128
	a := b.Answer(context.Background(), Message{Text: "$2.49一小时的H100换成人民币是多少？比 AutoDL 上H800的 ¥15.8/小时贵还是便宜？"})
	if a.Typed == nil || a.Typed.Asked != "price_per_card_hour" || math.Abs(*a.Typed.Value-17.928) > 0.001 {
		t.Fatalf("answer = %+v, want ¥17.928 a card-hour first:\n%s", a.Typed, a.Text)
	}
	if !strings.Contains(a.Headline, "贵 ¥2.13") {
		t.Errorf("headline = %q, want it dearer by ¥2.13", a.Headline)
	}
	var which *Typed
	for i := range a.Typed.Also {
		if a.Typed.Also[i].Asked == "which" {
			which = &a.Typed.Also[i]
		}
	}
	if which == nil || which.Choice != "¥15.8" || math.Abs(*which.Value-2.128) > 0.001 {
		t.Errorf("which = %+v, want ¥15.8 cheaper by 2.128", which)
	}
	if _, ok := a.Used["price"]; !ok {
		t.Errorf("the $2.49 is not accounted as used: %v", a.Used)
	}
}

// TestConversionAsksForTheAmount: an ask with no figure says what is
// missing and the right form, in the asker's language.
func TestConversionAsksForTheAmount(t *testing.T) {
	b := convertBot(t)
	for _, tc := range []struct {
		text string
		says []string
	}{
		{"多少刀？按7.2算。", []string{"金额", "折合多少美元"}},
		{"what is that in USD?", []string{"which amount", "convert ¥68,000"}},
	} {
		a := b.Answer(context.Background(), Message{Text: tc.text})
		if a.Intent != convertIntent || a.Err == "" {
			t.Errorf("Answer(%q) = intent %s err %q, want the amount asked for:\n%s", tc.text, a.Intent, a.Err, a.Text)
			continue
		}
		for _, s := range tc.says {
			if !strings.Contains(a.Text, s) {
				t.Errorf("Answer(%q) does not say %q:\n%s", tc.text, s, a.Text)
			}
		}
	}
}

// TestConversionRefusesEuros: a figure in euros is not guessed; the
// answer says which currencies convert.
func TestConversionRefusesEuros(t *testing.T) {
	b := convertBot(t)
	for _, tc := range []struct {
		text string
		says []string
	}{
		{"EUR 2.10/GPU-hr — is that cheaper than $2.40? EUR/USD 1.08", []string{"EUR is not supported", "CNY", "USD"}},
		{"€2.1一卡时换成人民币是多少？", []string{"不支持欧元", "人民币", "美元"}},
	} {
		a := b.Answer(context.Background(), Message{Text: tc.text})
		if a.Err == "" {
			t.Errorf("Answer(%q) answered, want euros refused:\n%s", tc.text, a.Text)
			continue
		}
		for _, s := range tc.says {
			if !strings.Contains(a.Text, s) {
				t.Errorf("Answer(%q) does not say %q:\n%s", tc.text, s, a.Text)
			}
		}
	}
}

// TestNotAConversion: questions that size a job, set a budget, ask the
// ledger or total a rental keep their own answers.
func TestNotAConversion(t *testing.T) {
	b := convertBot(t)
	for _, text := range []string{
		"13b lora 5万条 4090 多少钱",
		"ads-rank 预算每月 $12,000，帮我改好。顺便换算成人民币是多少？汇率按7.2。",
		"这个月GPU一共花了多少？多少刀？汇率按7.15算。",
		"rent 2x H100 at $2/hr for 100 hours, what's that in RMB?",
		"vast上4090 $0.35/hr，lora llama3.1 8b 跑1个epoch大概多少刀？数据8k条",
		"阿里云A10做24小时在线推理，按量 ¥8.9/小时，包年折合每月 ¥2,600，一年能省多少？",
	} {
		if req, _ := plan(b.Parse(Message{Text: text})); isConversion(req) {
			t.Errorf("plan(%q) read a conversion", text)
		}
		if a := b.Answer(context.Background(), Message{Text: text}); a.Intent == convertIntent {
			t.Errorf("Answer(%q) answered as a conversion:\n%s", text, a.Text)
		}
	}
}

// TestConversionFollowUpIsNotTaken: "多少刀？按7.2算。" after a cost question
// in a thread is that question's follow-up (its figures in dollars), not
// a conversion missing its amount.
func TestConversionFollowUpIsNotTaken(t *testing.T) {
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer rdb.Close()
	b := convertBot(t)
	b.UseThreads(thread.New(rdb, thread.Options{}))
	ctx := context.Background()
	in := Message{Team: "T1", Channel: "C1", User: "U1", Thread: "1700000000.000200", Text: "13b lora 5万条 4090 多少钱"}
	if a := b.Answer(ctx, in); a.Intent != "cost" || a.Err != "" {
		t.Fatalf("first answer = %s (err %q), want the cost", a.Intent, a.Err)
	}
	in.Text = "多少刀？按7.2算。"
	if a := b.Answer(ctx, in); a.Intent == convertIntent {
		t.Errorf("the follow-up was answered as a conversion:\n%s", a.Text)
	}
}

// "1万美元" is ten thousand dollars (美元 ends in 元): ¥72,000 at 7.2; a
// pound or a yen is refused like a euro, never read as a dollar.
func TestConversionDollarsInChineseAndOtherCurrencies(t *testing.T) {
	a := askOne(t, "1万美元换成人民币是多少？")
	if a.Typed == nil || a.Typed.Value == nil || *a.Typed.Value != 72000 || a.Typed.Currency != "CNY" {
		t.Errorf("1万美元: typed %+v, want ¥72,000\n%s", a.Typed, a.Text)
	}
	a = askOne(t, "how many GBP is $1.2M, does it fit under a £1M cap?")
	if !strings.Contains(a.Text, "GBP is not supported") {
		t.Errorf("GBP: %s", a.Text)
	}
}
