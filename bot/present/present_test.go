package present

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
)

func TestEscapeNeutralisesSlackControlSequences(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<!channel> ping", "&lt;!channel&gt; ping"},
		{"<!here>", "&lt;!here&gt;"},
		{"<@U123>", "&lt;@U123&gt;"},
		{"<https://evil.example|your bill>", "&lt;https://evil.example|your bill&gt;"},
		{"R&D", "R&amp;D"},
		// Keys stay pasteable: an underscore is not formatting mid-word.
		{"seq_len=4096 lora_rank=16", "seq_len=4096 lora_rank=16"},
		{"4*4096 *粗体*", "4×4096 ×粗体×"},
		{"~150 h", "∼150 h"},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNumAndMoney(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{Num(1234.5), "1,235"},
		{Num(41.125), "41.13"},
		{Num(0.1984), "0.198"},
		{Num(-0.0001), "0"},
		{Num(1e6), "1,000,000"},
		{Money(1234.5, "CNY"), "¥1,235"},
		{Money(0.15, "USD"), "$0.15"},
		{Money(-40, "USD"), "−$40"},
		{Pct(0.625), "62.5%"},
		{SignedPct(4.2), "+4.2%"},
		{SignedPct(-3), "−3%"},
		{Date(time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), ZH), "2026年9月1日"},
		{Age(EN, "2026-09-01", time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)), "90 days ago"},
		{Age(ZH, "2026-09-01", time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)), "90 天前"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func longDoc(items int) Doc {
	d := Doc{Lang: EN, Headline: "Headline with <!channel>", Assumed: []string{"seq_len=4096"}, Next: "try bits=4"}
	for i := range items {
		d.List = append(d.List, strings.Repeat("entry ", 40)+Num(float64(i)))
		d.Working = append(d.Working, Step{Kind: StepCalc, Label: "step", Formula: strings.Repeat("x", 500)})
	}
	for range 8 {
		d.Figures = append(d.Figures, Figure{Label: "f", Value: "1"})
	}
	return d
}

func TestTextKeepsTheShapeWithinTheLimit(t *testing.T) {
	d := longDoc(30)
	txt := d.Text()
	if n := len([]rune(txt)); n > MaxText {
		t.Errorf("text is %d characters, over %d", n, MaxText)
	}
	for _, want := range []string{"Headline", "Assumed: seq_len=4096", "Next: try bits=4", "more"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lost %q:\n%s", want, txt)
		}
	}
	if got := strings.Count(txt, "f: 1"); got != MaxFigures {
		t.Errorf("%d figures shown, want %d", got, MaxFigures)
	}
}

func TestBlocksStayWithinSlackLimits(t *testing.T) {
	d := longDoc(200)
	for _, v := range []View{Short, Working, More} {
		bs := d.Blocks(v)
		if len(bs) == 0 || len(bs) > MaxBlocks {
			t.Errorf("view %q: %d blocks", v, len(bs))
		}
		raw, _ := json.Marshal(bs)
		if strings.Contains(string(raw), "<!channel>") {
			t.Errorf("view %q: unescaped <!channel> in blocks", v)
		}
		for i, b := range bs {
			if s, ok := b.(*slack.SectionBlock); ok && s.Text != nil && len([]rune(s.Text.Text)) > MaxSectionText {
				t.Errorf("view %q block %d: %d characters", v, i, len([]rune(s.Text.Text)))
			}
		}
	}
	if got := len(d.Blocks(Short)); got > 6 {
		t.Errorf("short view has %d blocks; it is meant to be a handful", got)
	}
}

func TestLimitSaysWhatWasCut(t *testing.T) {
	var bs []slack.Block
	for range 60 {
		bs = append(bs, Section("x"))
	}
	out := Limit(bs, 1)
	if len(out) != MaxBlocks-1 {
		t.Fatalf("%d blocks, want %d", len(out), MaxBlocks-1)
	}
	raw, _ := json.Marshal(out[len(out)-1])
	if !strings.Contains(string(raw), "12 more") { // 60 − 48 shown
		t.Errorf("last block does not say how many were cut: %s", raw)
	}
}

func TestFallbackIsEscapedAndNeverEmpty(t *testing.T) {
	if got := Fallback(ZH, " "); got == "" {
		t.Error("empty fallback")
	}
	if got := Fallback(EN, "<!here> hi"); strings.Contains(got, "<!here>") {
		t.Errorf("fallback not escaped: %q", got)
	}
}
