package knowledge

import (
	"strings"
	"testing"
)

func TestLexiconLoads(t *testing.T) {
	l, err := ShippedLexicon()
	if err != nil {
		t.Fatal(err)
	}
	// model_configs.json lists 74 language models, image_models.json 5
	// image models.
	if len(l.Models) != 74+5 {
		t.Errorf("lexicon has %d models, want the 74 of model_configs.json and the 5 of image_models.json", len(l.Models))
	}
	m, ok := l.Model("mixtral-8x7b")
	if !ok || m.ParamsB != 46.703 {
		t.Errorf("mixtral-8x7b = %+v, %v; want params_b 46.703 (model_configs.json)", m, ok)
	}
	for word, want := range map[string]string{"学生": "individual", "team": "startup", "Enterprise": "enterprise", "高校": "enterprise"} {
		if got, ok := l.Persona(word); !ok || got != want {
			t.Errorf("Persona(%q) = %q, %v; want %q", word, got, ok, want)
		}
	}
	if _, ok := l.Persona("gpu"); ok {
		t.Error("Persona(gpu) found a persona")
	}
	s, ok := l.Setting("bs")
	if !ok || s.Key != "batch" || s.Hint == "" {
		t.Errorf("Setting(bs) = %+v, %v; want batch with a hint", s, ok)
	}
	if s, _ := l.Setting("hpm"); s.Max != 744 {
		t.Errorf("hpm max = %v, want 744 (31 days × 24 h)", s.Max)
	}
}

// TestLexiconIntentsChecked: the intents section refuses what would make a
// /gpu word ambiguous or a grammar setting meaningless.
func TestLexiconIntentsChecked(t *testing.T) {
	tests := []struct {
		name    string
		intents map[string]IntentWords
		want    string
	}{
		{"a word for two intents", map[string]IntentWords{"fit": {Words: []string{"fit", "vram"}}, "cost": {Words: []string{"VRAM"}}}, "runs both"},
		{"no words", map[string]IntentWords{"fit": {}}, `"fit" has no words`},
		{"a sub slot the parser has not", map[string]IntentWords{"subscribe": {Words: []string{"subscribe"}, SubSlot: "month"}}, "sub_slot"},
		{"a command-word mode that is no word", map[string]IntentWords{"subscribe": {Words: []string{"subscribe"}, WordModes: map[string][]string{"list": {"subscriptions"}}}}, "not one of its words"},
	}
	for _, tt := range tests {
		l := &Lexicon{Intents: tt.intents}
		if err := l.checkIntents(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: checkIntents = %v, want %q", tt.name, err, tt.want)
		}
	}
	if err := MustLexicon().checkIntents(); err != nil {
		t.Errorf("the shipped lexicon: %v", err)
	}
}
