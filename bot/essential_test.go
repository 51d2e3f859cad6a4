package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/phrase"
)

// resultFigure reads one number of an answer's result by its JSON key.
func resultFigure(t *testing.T, a Answer, key string) string {
	t.Helper()
	b, err := json.Marshal(a.Result)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	v, ok := m[key].(float64)
	if !ok {
		t.Fatalf("%q: result has no number %s: %s", a.Text, key, b)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// TestRephraseKeepsTheIntentsFigures checks the guard with the essential
// figures the intent table names, as the transport passes them: a
// rewording that keeps the figure the answer is about passes, one that
// drops it is refused, in English and Chinese.
func TestRephraseKeepsTheIntentsFigures(t *testing.T) {
	b := newTestBot(t)
	tests := []struct {
		name, question string
		keys           []string // the figures the rewording keeps, by result key
		keep, drop     string   // %s: the figures, in keys' order
		// card adds the card count the headline gives ("1× A100 40GB")
		// as the last figure
		card bool
	}{
		{"cost en", "/gpu cost 7b lora 50k samples on 4090", []string{"total"},
			"About $%s in all.", "A small LoRA run; it is cheap.", false},
		{"cost zh", "7b lora 5万条数据 用 4090 训练要多少钱", []string{"total"},
			"大约 ¥%s。", "这是个小规模的 LoRA 训练，很便宜。", false},
		{"fit en", "/gpu fit 13b lora", []string{"memory_gb"},
			"It needs about %s GB in all: %s.", "It needs about 30 GB, so a mid-size card.", true},
		{"fit zh", "13b lora 要多大显存", []string{"memory_gb"},
			"大约需要 %s GB：%s。", "需要一张中等显存的卡。", true},
		{"monthly zh", "4090 包月 每月 200 小时 划算吗", []string{"breakeven_hours_per_month", "saving"},
			"包月要每月用满 %s 小时以上才划算，按需每月省 ¥%s。", "按需更省，包月不划算。", false},
		{"monthly en", "/gpu monthly 4090 200h", []string{"breakeven_hours_per_month", "saving"},
			"A monthly plan pays off above %s h a month; on demand saves $%s a month.", "Stay on demand; the monthly plan does not pay off.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := b.Answer(context.Background(), Message{Text: tt.question})
			facts := phrase.FactsFrom(a.Text, a.Result, a.Slots, a.Assumed)
			essential := phrase.EssentialFrom(a.Headline, a.Result, b.EssentialFigures(a.Intent))
			if len(essential) == 0 {
				t.Fatalf("%q (%s): no essential figure; headline %q", tt.question, a.Intent, a.Headline)
			}
			var figs []any
			for _, k := range tt.keys {
				figs = append(figs, resultFigure(t, a, k))
			}
			if tt.card {
				for _, e := range essential {
					if name, ok := strings.CutPrefix(e.Name, "options["); ok && strings.HasSuffix(name, "].count") {
						figs = append(figs, fmt.Sprintf("%v× %s", e.Value, strings.TrimSuffix(name, "].count")))
					}
				}
				if len(figs) != len(tt.keys)+1 {
					t.Fatalf("%q: headline %q gives no card count among essential %+v", tt.question, a.Headline, essential)
				}
			}
			keep := fmt.Sprintf(tt.keep, figs...)
			if ok, why := phrase.Check(keep, facts, essential); !ok {
				t.Errorf("Check(%q) refused a rewording keeping the figures: %v (essential %+v)", keep, why, essential)
			}
			ok, why := phrase.Check(tt.drop, facts, essential)
			if ok || !strings.Contains(strings.Join(why, ";"), phrase.ReasonEssential) {
				t.Errorf("Check(%q) = %v %v, want refused for a missing essential figure %+v", tt.drop, ok, why, essential)
			}
		})
	}
}
