package knowledge

// GuideItem is one piece of procurement knowledge (a step, checklist, pitfall,
// remedy or persona advice), written in the project's own words, with the
// facts taken from the seed documents.
type GuideItem struct {
	ID       string   `yaml:"id"`
	Topic    string   `yaml:"topic"`    // procurement, contract, hidden_costs, xinchuang, oom, pitfalls, persona, hardware
	Keywords []string `yaml:"keywords"` // lower-case terms in both languages used for ranking
	TitleEN  string   `yaml:"title_en"`
	TitleZH  string   `yaml:"title_zh"`
	BodyEN   string   `yaml:"body_en"`
	BodyZH   string   `yaml:"body_zh"`
	Source   string   `yaml:"source"`
	// Verdict is the item's answer to the yes/no question it is written
	// for ("yes" or "no"), and AnswerEN/AnswerZH that answer in one line,
	// verdict first; a yes/no question the item answers leads with them.
	Verdict  string `yaml:"verdict"`
	AnswerEN string `yaml:"answer_en"`
	AnswerZH string `yaml:"answer_zh"`
}
