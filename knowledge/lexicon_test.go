package knowledge

import "testing"

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
