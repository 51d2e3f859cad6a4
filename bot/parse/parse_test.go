package parse

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/knowledge"
)

// writeRows stand in for the intent table's writes (bot.Rows and the write
// intents' packages, which this package cannot import): a follow-up never
// merges into one.
var writeRows = []intent.Row{{ID: Spend, Writes: true}, {ID: Subscribe, Writes: true}, {ID: Watch, Writes: true},
	{ID: Budget, Writes: true}, {ID: Settings, Writes: true}, {ID: Listen, Writes: true}}

func newParser(t testing.TB) *Parser {
	t.Helper()
	return New(knowledge.MustShipped(), writeRows...)
}

func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSlashGrammar checks every command form the issues document, with the
// whole slot set (notes and missing included).
func TestSlashGrammar(t *testing.T) {
	p := newParser(t)
	tests := []struct {
		in     string
		intent Intent
		slots  string
	}{
		{"fit 13b lora", Fit, `{"params_b":13,"method":"lora"}`},
		{"fit 70b inference conc=50 gpu=h20", Fit, `{"params_b":70,"method":"inference","concurrency":50,"gpus":["h20"]}`},
		{"cost 7b lora 50k samples 2 epochs on 4090", Cost, `{"params_b":7,"method":"lora","gpus":["rtx4090"],"samples":50000,"epochs":2}`},
		{"cost 70b inference 100M tokens", Cost, `{"params_b":70,"method":"inference","tokens":100000000}`},
		{"cost 70b inference 100M tokens tps=3500 price=2.5usd", Cost, `{"params_b":70,"method":"inference","price":{"amount":2.5,"currency":"USD"},"tps":3500,"tokens":100000000}`},
		{"monthly 4090 200h", Monthly, `{"gpus":["rtx4090"],"hours_per_month":200,"notes":["200 h read as hours per month"]}`},
		{"monthly 4090 200h price=1.8 monthly=900", Monthly, `{"gpus":["rtx4090"],"hours_per_month":200,"price":{"amount":1.8},"monthly":{"amount":900},"notes":["200 h read as hours per month"]}`},
		{"monthly h100 @autodl 120h", Monthly, `{"gpus":["h100-sxm"],"platform":"autodl","hours_per_month":120,"notes":["120 h read as hours per month"]}`},
		{"monthly 4090", Monthly, `{"gpus":["rtx4090"],"missing":["hours_per_month"]}`},
		{"buy h100 util=70%", Buy, `{"gpus":["h100-sxm"],"utilization":0.7}`},
		{"buy 4090 price=16000 years=3 power=1.0", Buy, `{"gpus":["rtx4090"],"price":{"amount":16000},"years":3,"power":{"amount":1},"missing":["utilization|hours_per_month"]}`},
		{"buy h100 price=25000usd rent=2.5usd years=3 watts=0 ops=0 rate=0", Buy, `{"gpus":["h100-sxm"],"price":{"amount":25000,"currency":"USD"},"rent":{"amount":2.5,"currency":"USD"},"years":3,"watts":0,"ops":{"amount":0},"rate":0,"missing":["utilization|hours_per_month"]}`},
		{"price h100", Price, `{"gpus":["h100-sxm"]}`},
		{"compare h100 h800 h20", Compare, `{"gpus":["h100-sxm","h800","h20"]}`},
		{"recommend 70b inference", Recommend, `{"params_b":70,"method":"inference","workload":"inference"}`},
		{"recommend budget=5000", Recommend, `{"budget":{"amount":5000}}`},
		{"spend add 40h 4090 @autodl ¥75 project=llm-ft", Spend, `{"gpus":["rtx4090"],"platform":"autodl","hours":40,"amount":{"amount":75,"currency":"CNY"},"project":"llm-ft","mode":"add"}`},
		{"spend add 3x h100 8h lambda project=pretrain", Spend, `{"gpus":["h100-sxm"],"platform":"lambda","hours":8,"cards":3,"project":"pretrain","mode":"add"}`},
		{"spend add 3x h100", Spend, `{"gpus":["h100-sxm"],"cards":3,"mode":"add","missing":["amount|hours"]}`},
		{"spend list 2026-09 project=llm-ft", Spend, `{"month":"2026-09","project":"llm-ft","mode":"list"}`},
		{"spend undo", Spend, `{"mode":"undo"}`},
		{"spend delete x9f3", Spend, `{"mode":"delete","id":"x9f3"}`},
		{"spend delete", Spend, `{"mode":"delete","missing":["id"]}`},
		{"spend report", Spend, `{"mode":"report"}`},
		{"listen on", Listen, `{"mode":"on"}`},
		{"listen", Listen, `{"mode":"status"}`},
		{"subscribe prices gpu=h100,4090 threshold=5%", Subscribe, `{"gpus":["h100-sxm","rtx4090"],"topic":"prices","mode":"subscribe","threshold":0.05}`},
		{"subscribe recap", Subscribe, `{"topic":"recap","mode":"subscribe"}`},
		{"unsubscribe", Subscribe, `{"mode":"unsubscribe"}`},
		{"unsubscribe recap", Subscribe, `{"topic":"recap","mode":"unsubscribe"}`},
		{"subscriptions", Subscribe, `{"mode":"list"}`},
		{"订阅 日报", Subscribe, `{"topic":"prices","mode":"subscribe"}`},
		{"监听 关", Listen, `{"mode":"off"}`},
		{"listen 状态", Listen, `{"mode":"status"}`},
		{"spend", Spend, `{"mode":"report"}`},
		{"help", Help, `{}`},
		{"", Help, `{}`},
	}
	for _, tt := range tests {
		req := p.ParseSlash(tt.in)
		if !req.Slash || req.Confidence != 1 {
			t.Errorf("ParseSlash(%q) slash=%v confidence=%v, want true, 1", tt.in, req.Slash, req.Confidence)
		}
		if req.Intent != tt.intent {
			t.Errorf("ParseSlash(%q) intent = %s, want %s", tt.in, req.Intent, tt.intent)
		}
		if len(req.Problems) > 0 {
			t.Errorf("ParseSlash(%q) problems = %+v", tt.in, req.Problems)
		}
		var want, got map[string]any
		if err := json.Unmarshal([]byte(tt.slots), &want); err != nil {
			t.Fatalf("%q: bad want: %v", tt.in, err)
		}
		_ = json.Unmarshal([]byte(jsonOf(t, req.Slots)), &got)
		if d := slotDiff(want, got); d != "" {
			t.Errorf("ParseSlash(%q) slots: %s\n got %s", tt.in, d, jsonOf(t, req.Slots))
		}
	}
}

// TestSlashProblems checks that unreadable commands say what is wrong and
// show the right form, instead of guessing.
func TestSlashProblems(t *testing.T) {
	// The examples are the intent table's; this table holds the two the
	// cases below show.
	p := New(knowledge.MustShipped(), intent.Row{ID: Fit, Example: "/gpu fit 13b lora"}, intent.Row{ID: Price, Example: "/gpu price h100"})
	tests := []struct {
		in, field, hint string
	}{
		{"fit banana", "text", "/gpu fit 13b lora"},
		{"fit -5b", "params_b", "13b, 70B"}, // an English asker gets English examples
		{"fit 13b bs=abc", "batch", "bs=8"},
		{"fit 13b bits=5", "bits", "bits=4"},
		{"fit 13b colour=red", "colour", "settings look like bs=8, seq=4096, gpu=h100, price=1.8"},
		{"buy h100 util=170%", "util", "util=70%"},
		{"price banana", "text", "/gpu price h100"},
		{"foo bar", "command", "/gpu help"},
	}
	for _, tt := range tests {
		req := p.ParseSlash(tt.in)
		if len(req.Problems) == 0 {
			t.Errorf("ParseSlash(%q): no problem reported; slots %s", tt.in, jsonOf(t, req.Slots))
			continue
		}
		if got := req.Problems[0]; got.Field != tt.field || got.Hint != tt.hint {
			t.Errorf("ParseSlash(%q) problem = %+v, want field %q hint %q", tt.in, got, tt.field, tt.hint)
		}
	}
}

// TestSlashSentence: a /gpu command without a sub-command is read as a
// sentence, with the confidence of a command.
func TestSlashSentence(t *testing.T) {
	p := newParser(t)
	for in, want := range map[string]Intent{"13b lora 要多大显存": Fit, "包月划算吗": Monthly, "H100 和 H800 选哪个": Compare} {
		req := p.ParseSlash(in)
		if req.Intent != want || req.Confidence != 1 || req.Lang != "zh" {
			t.Errorf("ParseSlash(%q) = %s %.2f %s, want %s 1 zh", in, req.Intent, req.Confidence, req.Lang, want)
		}
	}
}

// TestHardNegatives are messages whose words point at one intent while the
// message means another.
func TestHardNegatives(t *testing.T) {
	p := newParser(t)
	tests := []struct {
		in   string
		want Intent
	}{
		{"报销：4090 包月 1100 块", Spend},
		{"记一笔：4090 跑了 40 小时 75 块 项目 aigc", Spend},
		{"包月合同要注意什么", Knowledge},
		{"包月能退吗", Knowledge},
		{"阿里云的 A800 包月多少钱", Price},
		{"买 H100 要走什么采购流程", Knowledge},
		{"13b lora 在 4090 上会 OOM 吗", Fit},
		{"13b lora 在 4090 上 OOM 了怎么办", Knowledge},
		{"从 A100 迁移到昇腾 910B 要注意什么", Knowledge},
		{"昇腾 910B 和 A100 比怎么样", Compare},
		{"租 GPU 的隐藏费用有哪些", Knowledge},
		{"训练 7B 要多少钱", Cost},
		{"4090 多少钱", Price},
		{"4090 和 3090 哪个性价比高", Compare},
		{"性价比最高的卡", Recommend},
		{"英伟达股票还能买吗", Unknown},
		{"4090 打游戏帧数多少", Unknown},
		{"can someone help me with the deploy", Unknown},
		{"nvidia stock price today", Unknown},
	}
	for _, tt := range tests {
		if got := p.Parse(tt.in); got.Intent != tt.want {
			t.Errorf("Parse(%q) = %s (%.2f), want %s", tt.in, got.Intent, got.Confidence, tt.want)
		}
	}
}

// TestChannelThreshold: in a channel the bot answers clear questions and
// stays silent on chatter and weak guesses.
func TestChannelThreshold(t *testing.T) {
	p := newParser(t)
	answer := []string{"4090 多少钱", "包月划算吗", "H100 和 H800 选哪个", "13b lora 要多大显存", "how much to fine-tune a 70B with QLoRA?", "/gpu price h100", "记一笔：4090 跑了 40 小时 75 块"}
	silent := []string{"今天天气怎么样", "thanks!", "hey team, the a100 job finished", "4090 shortage again", "ok", "谁有空帮我看下服务器", "the deploy failed again"}
	for _, in := range answer {
		if req := p.Parse(in); !req.InChannel() {
			t.Errorf("Parse(%q) = %s %.2f: want an answer in channel", in, req.Intent, req.Confidence)
		}
	}
	for _, in := range silent {
		if req := p.Parse(in); req.InChannel() {
			t.Errorf("Parse(%q) = %s %.2f: want silence in channel", in, req.Intent, req.Confidence)
		}
	}
	for _, in := range append(answer, silent...) {
		if c := p.Parse(in).Confidence; c < 0 || c > 1 {
			t.Errorf("Parse(%q) confidence %v outside [0,1]", in, c)
		}
	}
}

// TestMissingAndNotes: what the bot must fill in or ask for, and the
// readings that were not literal.
func TestMissingAndNotes(t *testing.T) {
	p := newParser(t)
	tests := []struct {
		in      string
		missing []string
		note    string // a substring of one note, or ""
	}{
		{"包月划算吗", []string{"gpus", "hours_per_month"}, ""},
		{"4090 包月划算吗", []string{"hours_per_month"}, ""},
		{"训练 7B 要多少钱", []string{"tokens|samples"}, ""},
		{"70b 推理要多少钱", []string{"tokens"}, ""},
		{"H100 买还是租", []string{"utilization|hours_per_month"}, ""},
		{"天天跑满的话买 A100 划算吗", nil, "730 h/month"},
		{"每天跑 8 小时的话 A100 包月值吗", nil, "8 h/day read as 243.33 h/month"},
		{"包月有必要吗，一周用 40 个小时", []string{"gpus"}, "173.81 h/month"},
		{"推荐个卡", []string{"workload|params_b|budget"}, ""},
		{"H100 对比一下", []string{"gpus"}, ""},
		{"记一笔 75 块", []string{"gpus"}, ""},
	}
	for _, tt := range tests {
		req := p.Parse(tt.in)
		if strings.Join(req.Slots.Missing, ",") != strings.Join(tt.missing, ",") {
			t.Errorf("Parse(%q) [%s] missing = %v, want %v", tt.in, req.Intent, req.Slots.Missing, tt.missing)
		}
		if tt.note != "" && !strings.Contains(strings.Join(req.Slots.Notes, "|"), tt.note) {
			t.Errorf("Parse(%q) notes = %q, want one containing %q", tt.in, req.Slots.Notes, tt.note)
		}
	}
}

// TestMoneyPlacement: one figure, read by its unit, the words around it, and
// the intent.
func TestMoneyPlacement(t *testing.T) {
	p := newParser(t)
	tests := []struct {
		in   string
		want string // JSON of the money slots
	}{
		{"4090 包月 1000 块，按需 1.9 一小时，每月 400 小时哪个省", `{"price":{"amount":1.9},"monthly":{"amount":1000,"currency":"CNY"}}`},
		{"3块钱一小时的 3090 每月跑 200h 包月 650 划算吗", `{"price":{"amount":3,"currency":"CNY"},"monthly":{"amount":650}}`},
		{"4090 买断 1.5万，租 1.8 一小时，买还是租", `{"price":{"amount":15000},"rent":{"amount":1.8}}`},
		{"buy vs rent: 4090 at ¥16000, electricity ¥0.6/kWh", `{"price":{"amount":16000,"currency":"CNY"},"power":{"amount":0.6,"currency":"CNY"}}`},
		{"运维一年 2 万，电费 0.8，H100 买还是租", `{"power":{"amount":0.8},"ops":{"amount":20000}}`},
		{"预算一万块，推荐什么卡", `{"budget":{"amount":10000,"currency":"CNY"}}`},
		{"3 万预算，推荐 diffusion 训练的卡", `{"budget":{"amount":30000}}`},
		{"记一笔 4090 40 小时 75 块", `{"amount":{"amount":75,"currency":"CNY"}}`},
		{"记一笔 4090 40 小时 1.8元/时", `{"price":{"amount":1.8,"currency":"CNY"}}`},
		{"10块4090 包月划算吗", `{}`}, // 10 cards, not ¥10
		{"3090 元的卡", `{}`},      // unknown intent: no money slots
		{"buy h100 with 700w power draw", `{}`},
	}
	for _, tt := range tests {
		req := p.Parse(tt.in)
		s := req.Slots
		got := jsonOf(t, Slots{Price: s.Price, Monthly: s.Monthly, Rent: s.Rent, Budget: s.Budget, Amount: s.Amount, Power: s.Power, Ops: s.Ops})
		var w, g map[string]any
		_ = json.Unmarshal([]byte(tt.want), &w)
		_ = json.Unmarshal([]byte(got), &g)
		if d := slotDiff(w, g); d != "" {
			t.Errorf("Parse(%q) [%s] money: %s", tt.in, req.Intent, d)
		}
	}
	if req := p.Parse("10块4090 包月划算吗"); req.Slots.Cards != 10 {
		t.Errorf("Parse(10块4090) cards = %d, want 10", req.Slots.Cards)
	}
}

// TestLongMessage: a 40 KB paste is cut and answered, not choked on.
func TestLongMessage(t *testing.T) {
	p := newParser(t)
	unit := "4090 包月划算吗，每月 200 小时，七十亿参数 lora 两轮 1.6万条 ¥1.8/h <@U1> `x` 万万万亿亿 9999999999999999999b 0.0.0.0 "
	var b strings.Builder
	for b.Len() < 40<<10 {
		b.WriteString(unit)
	}
	msg := b.String()
	for _, in := range []string{msg, "/gpu fit " + msg, strings.Repeat("1", 40<<10), strings.Repeat("h100 ", 8<<10), strings.Repeat("七", 14<<10)} {
		req := p.Parse(in)
		if n := len([]rune(req.Text)); n > maxMessage {
			t.Errorf("Parse(40 KB) kept %d runes, want <= %d", n, maxMessage)
		}
	}
}

// TestHintsFollowTheAskersLanguage checks that an error's example is in
// the asker's language: no Chinese example for an English question (it
// once showed "40 小时" to everyone), the Chinese one for a Chinese asker.
func TestHintsFollowTheAskersLanguage(t *testing.T) {
	p := New(knowledge.MustShipped())
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in, lang, field, hint string
	}{
		{"/gpu cost 7b lora -40 hours on 4090", "en", "number", "40 hours, 8 cards, $75"},
		{"跑了 -40 小时 4090 多少钱", "zh", "number", "40 小时, 8 卡, ¥75"},
		{"/gpu fit -5b", "en", "params_b", "13b, 70B"},
		{"/gpu monthly 4090 30 hours a day", "en", "hours_per_month", "12 hours a day, 200h/month, 40 hours a week"},
		{"4090 每天用 30 小时 包月划算吗", "zh", "hours_per_month", "每天 12 小时, 200h/月, 每周 40 小时"},
		{"/gpu spend add 4090 10h $20 date=someday", "en", "date", "date=2026-11-03, date=yesterday"},
		{"/gpu 记账 add 4090 10h ¥20 date=某天", "zh", "date", "date=2026-11-03, date=昨天"},
		{"/gpu buy h100 util=170%", "en", "util", "util=70%"},
		{"how much for 2.5e3 hours on a 4090", "en", "number", "2500, 2.5k"},
		{"4090 跑 2.5e3 小时多少钱", "zh", "number", "2500, 2.5k, 1.2万"},
	}
	for _, tt := range tests {
		req := p.ParseAt(tt.in, now)
		if req.Lang != tt.lang {
			t.Errorf("ParseAt(%q) lang = %s, want %s", tt.in, req.Lang, tt.lang)
		}
		found := false
		for _, pr := range req.Problems {
			if tt.lang == "en" && hasHan(pr.Hint) {
				t.Errorf("ParseAt(%q) (English) problem %q has a Chinese hint %q", tt.in, pr.Field, pr.Hint)
			}
			if pr.Field == tt.field && pr.Hint == tt.hint {
				found = true
			}
		}
		if !found {
			t.Errorf("ParseAt(%q) problems %+v, want field %q with hint %q", tt.in, req.Problems, tt.field, tt.hint)
		}
	}
}

// TestSlashNameTypedTwice checks that a "/gpu" left in the command's text
// is dropped: "/gpu subscribe prices" typed as the text of /gpu once read
// as a price question.
func TestSlashNameTypedTwice(t *testing.T) {
	p := New(knowledge.MustShipped())
	for _, tt := range []struct {
		text   string
		intent Intent
		topic  string
	}{
		{"/gpu subscribe prices", Subscribe, "prices"},
		{"/GPU subscribe recap", Subscribe, "recap"},
		{"/gpu /gpu fit 13b lora", Fit, ""},
		{"/gpu", Help, ""},
	} {
		req := p.ParseSlash(tt.text)
		if req.Intent != tt.intent || req.Slots.Topic != tt.topic || !req.Slash {
			t.Errorf("ParseSlash(%q) = intent %s topic %q slash %v, want %s %q, a slash command", tt.text, req.Intent, req.Slots.Topic, req.Slash, tt.intent, tt.topic)
		}
	}
}
