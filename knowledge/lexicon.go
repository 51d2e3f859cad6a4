package knowledge

import (
	"bytes"
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// lexiconYAML is the one file of shared vocabularies: the parser, the
// router, help and the advisor's persona handling all read it, so no word
// list is written twice.
//
//go:embed data/lexicon.yaml
var lexiconYAML []byte

// Lexicon holds the words the bot understands, by what they name.
type Lexicon struct {
	// Models are named models with their size (model_configs.json ids).
	Models []ModelName `yaml:"models"`
	// Intents are the words of each intent, by intent id: the words that
	// start a /gpu command running it and the sub-words after them. The
	// intent table's rows (bot/intent.Row) take their words from here.
	Intents map[string]IntentWords `yaml:"intents"`
	// Settings are the key=value settings: their canonical key, the
	// spellings users type, the accepted range and a hint.
	Settings []Setting `yaml:"settings"`
	// Personas, Workloads and Billing are canonical values with their
	// words, in the order they are tried.
	Personas  []Term `yaml:"personas"`
	Workloads []Term `yaml:"workloads"`
	Billing   []Term `yaml:"billing"`
	// Spellings are common misspellings of the words questions are read
	// by, each to its right spelling (whole words, lower case).
	Spellings map[string]string `yaml:"spellings"`
	// Instances are cloud instance types read as the cards they hold
	// ("p5.48xlarge" is 8 H100 on AWS), rewritten like a spelling.
	Instances map[string]string `yaml:"instances"`
	// Cards are extra card spellings (typos, short forms) mapped to a name
	// the knowledge base resolves.
	Cards map[string]string `yaml:"cards"`
	// FalseFriends are words after a platform name that show it is not one.
	FalseFriends map[string][]string `yaml:"false_friends"`
	// Synonyms group words that mean the same thing for retrieval;
	// Stopwords say nothing about a topic.
	Synonyms  [][]string `yaml:"synonyms"`
	Stopwords []string   `yaml:"stopwords"`
	// Budget are the words before or after a figure that make it a budget.
	Budget struct {
		Before []string `yaml:"before"`
		After  []string `yaml:"after"`
	} `yaml:"budget"`
	// Methods are the training and serving methods and Topics the guide
	// topics of a knowledge question, each tried in order.
	Methods []Term `yaml:"methods"`
	Topics  []Term `yaml:"topics"`
	// Language holds the words that decide a message's language.
	Language struct {
		ZHParticles []string `yaml:"zh_particles"`
		Neutral     []string `yaml:"neutral"`
	} `yaml:"language"`
	// SlashFiller are words a /gpu command may carry that mean nothing by
	// themselves; FollowUp open or close a message leaning on the last one.
	SlashFiller []string `yaml:"slash_filler"`
	FollowUp    []string `yaml:"follow_up"`
	// Numerals say when a run of Chinese numerals is a number.
	Numerals struct {
		Counters []string `yaml:"counters"`
		LoneOne  []string `yaml:"lone_one"`
	} `yaml:"numerals"`
	// NotACardAfter are words after a card-like figure that make it an
	// amount or a duration ("3090 元").
	NotACardAfter []string `yaml:"not_a_card_after"`
	// Dates are the words of ledger dates; see lexicon.yaml.
	Dates struct {
		DaysBack  [][]string `yaml:"days_back"`
		Weekdays  [][]string `yaml:"weekdays"`
		Months    [][]string `yaml:"months"`
		MonthBack []Term     `yaml:"month_back"`
	} `yaml:"dates"`
	// SpendModes say what a ledger sentence asks for; Asking marks a
	// question rather than an entry.
	SpendModes []Term `yaml:"spend_modes"`
	// Targets are what a question asks for (the answer contract's asked
	// values), tried in order; YesNo are the words of a yes/no question.
	Targets []Term   `yaml:"targets"`
	YesNo   []string `yaml:"yes_no"`
	Asking  []string `yaml:"asking"`
	// CardFacts are the facts a question about a card asks (BF16, NVLink,
	// what it can run); InfoQuestions the words of an explain or how-to
	// question (bot/card.go).
	CardFacts     []Term `yaml:"card_facts"`
	InfoQuestions []Term `yaml:"info_questions"`
	// Projects are the phrases that name the project an entry is booked to
	// ("记在 X 名下"): a lead before the name and the words that may close it.
	Projects struct {
		Lead        []string `yaml:"lead"`
		Close       []string `yaml:"close"`
		After       []string `yaml:"after"`
		LedgerLead  []string `yaml:"ledger_lead"`
		NotNames    []string `yaml:"not_names"`
		LedgerWords []string `yaml:"ledger_words"`
		TeamBefore  []string `yaml:"team_before"`
		TeamAfter   []string `yaml:"team_after"`
	} `yaml:"projects"`
	// Regions are the regions a message restricts offers to.
	Regions []Term `yaml:"regions"`
	// APIs are the words of hosted-API questions (bot/api*.go).
	APIs APIWords `yaml:"apis"`
}

// APIWords are the words of a question about hosted LLM APIs.
type APIWords struct {
	// Words make a serving-cost question a self-host-vs-API one; Price
	// ask what an API itself charges; Official name the API of the model
	// asked about ("官方API").
	Words    []string `yaml:"words"`
	Price    []string `yaml:"price"`
	Official []string `yaml:"official"`
	// PerMillion ask the price per million tokens first, before a load's
	// bill.
	PerMillion []string `yaml:"per_million"`
	// SelfHost name the self-hosted side; Than and Compare find which side
	// a yes/no asks about (the side before Than, else the side said last
	// before a Compare word).
	SelfHost []string `yaml:"self_host"`
	Than     []string `yaml:"than"`
	Compare  []string `yaml:"compare"`
	// Families are the model families whose own API a question may name,
	// tried in order.
	Families []APIFamily `yaml:"families"`
	// Classes size the self-hosted side when a question names an API but
	// no model: the first class with a word in the API's name, else the
	// last.
	Classes []APIClass `yaml:"classes"`
}

// APIFamily is a model family with its own API: Provider is how the
// family's first-party rows of llm_api_prices.csv name their provider.
type APIFamily struct {
	Family   string   `yaml:"family"`
	Provider string   `yaml:"provider"`
	Words    []string `yaml:"words"`
}

// APIClass is a tier of hosted model and the open model (a Models id)
// self-hosting is weighed with against it.
type APIClass struct {
	Class    string   `yaml:"class"`
	SelfHost string   `yaml:"self_host"`
	Words    []string `yaml:"words"`
}

// APIClassOf is the class of a hosted model's name: the first class with
// one of its words in the name, else the last class.
func (l *Lexicon) APIClassOf(name string) (APIClass, bool) {
	if len(l.APIs.Classes) == 0 {
		return APIClass{}, false
	}
	n := strings.ToLower(name)
	for _, c := range l.APIs.Classes {
		for _, w := range c.Words {
			if strings.Contains(n, strings.ToLower(w)) {
				return c, true
			}
		}
	}
	return l.APIs.Classes[len(l.APIs.Classes)-1], true
}

// Term is a canonical value and the words for it: Words are read from
// sentences, Exact only as a whole value (persona=team).
type Term struct {
	Value string   `yaml:"value"`
	Words []string `yaml:"words"`
	Exact []string `yaml:"exact"`
	// With, when set, must match too; Unless cancels the match; Weak marks
	// a match that counts only next to other evidence (methods).
	With   []string `yaml:"with"`
	Unless []string `yaml:"unless"`
	Weak   bool     `yaml:"weak"`
}

// Fold returns the canonical value that word (a whole value, any case)
// names among terms.
func Fold(terms []Term, word string) (string, bool) {
	w := strings.ToLower(strings.TrimSpace(word))
	for _, t := range terms {
		if w == t.Value {
			return t.Value, true
		}
		for _, list := range [][]string{t.Words, t.Exact} {
			for _, x := range list {
				if strings.TrimSuffix(strings.ToLower(x), "*") == w {
					return t.Value, true
				}
			}
		}
	}
	return "", false
}

// Names returns every spelling of value among terms, Words and Exact.
func Names(terms []Term, value string) []string {
	for _, t := range terms {
		if t.Value == value {
			out := []string{t.Value}
			for _, x := range append(append([]string(nil), t.Words...), t.Exact...) {
				out = append(out, strings.TrimSuffix(x, "*"))
			}
			return out
		}
	}
	return nil
}

// Setting returns the setting a key spelling names.
func (l *Lexicon) Setting(spelling string) (Setting, bool) {
	for _, s := range l.Settings {
		if s.Key == spelling {
			return s, true
		}
		for _, a := range s.Aliases {
			if a == spelling {
				return s, true
			}
		}
	}
	return Setting{}, false
}

// ModelName is one named model.
type ModelName struct {
	ID            string   `yaml:"id"`
	ParamsB       float64  `yaml:"params_b"`
	ActiveParamsB float64  `yaml:"active_params_b"`
	Aliases       []string `yaml:"aliases"`
}

// Setting is one key=value setting.
type Setting struct {
	Key     string   `yaml:"key"`
	Aliases []string `yaml:"aliases"`
	// Min and Max bound a numeric value (inclusive); both zero means any
	// value the key's reader accepts.
	Min  float64 `yaml:"min"`
	Max  float64 `yaml:"max"`
	Hint string  `yaml:"hint"`
	// HintZH replaces Hint for a Chinese asker where the example differs.
	HintZH string `yaml:"hint_zh"`
	// Help is one line for /gpu help, in English and Chinese.
	Help   string `yaml:"help"`
	HelpZH string `yaml:"help_zh"`
	// Kind is "money" (an amount with a currency), "fraction" (70% or
	// 0.7) or "" (a figure or a word).
	Kind string `yaml:"kind"`
	// Intents are the commands whose help lists the setting.
	Intents []string `yaml:"intents"`
}

// Setting kinds.
const (
	KindMoney    = "money"
	KindFraction = "fraction"
)

var (
	lexOnce sync.Once
	lex     *Lexicon
	lexErr  error
)

// ShippedLexicon returns the embedded lexicon, decoded once. Callers must not
// modify it.
func ShippedLexicon() (*Lexicon, error) {
	lexOnce.Do(func() {
		var l Lexicon
		dec := yaml.NewDecoder(bytes.NewReader(lexiconYAML))
		dec.KnownFields(true)
		if err := dec.Decode(&l); err != nil {
			lexErr = fmt.Errorf("decode lexicon: %w", err)
			return
		}
		if err := l.check(); err != nil {
			lexErr = fmt.Errorf("lexicon: %w", err)
			return
		}
		lex = &l
	})
	return lex, lexErr
}

// MustLexicon is ShippedLexicon for callers that start from the embedded,
// tested data.
func MustLexicon() *Lexicon {
	l, err := ShippedLexicon()
	if err != nil {
		panic(err)
	}
	return l
}

// Persona folds a word for a kind of buyer to individual, startup or
// enterprise.
func (l *Lexicon) Persona(word string) (string, bool) { return Fold(l.Personas, word) }

// Model returns the named model with id.
func (l *Lexicon) Model(id string) (ModelName, bool) {
	for _, m := range l.Models {
		if m.ID == id {
			return m, true
		}
	}
	return ModelName{}, false
}

func (l *Lexicon) check() error {
	if err := l.checkIntents(); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, m := range l.Models {
		if m.ID == "" || m.ParamsB <= 0 {
			return fmt.Errorf("model %q needs an id and params_b", m.ID)
		}
		if seen[m.ID] {
			return fmt.Errorf("model %q listed twice", m.ID)
		}
		seen[m.ID] = true
	}
	if err := l.checkAPIs(seen); err != nil {
		return err
	}
	if len(l.Dates.Weekdays) != 7 || len(l.Dates.Months) != 12 {
		return fmt.Errorf("dates: %d weekdays and %d months, want 7 and 12", len(l.Dates.Weekdays), len(l.Dates.Months))
	}
	keys := map[string]bool{}
	for _, s := range l.Settings {
		if s.Key == "" || s.Hint == "" {
			return fmt.Errorf("setting %q needs a key and a hint", s.Key)
		}
		if s.Min > s.Max {
			return fmt.Errorf("setting %q: min %v above max %v", s.Key, s.Min, s.Max)
		}
		if s.Kind != "" && s.Kind != KindMoney && s.Kind != KindFraction {
			return fmt.Errorf("setting %q: unknown kind %q", s.Key, s.Kind)
		}
		for _, in := range s.Intents {
			if len(l.Intents[in].Words) == 0 {
				return fmt.Errorf("setting %q: intent %q has no slash words", s.Key, in)
			}
		}
		for _, a := range append([]string{s.Key}, s.Aliases...) {
			if keys[a] {
				return fmt.Errorf("setting spelling %q used twice", a)
			}
			keys[a] = true
		}
	}
	return nil
}

// checkAPIs holds the apis section to what bot/api*.go relies on: every
// family has a provider and words, every class sizes with a known model.
func (l *Lexicon) checkAPIs(models map[string]bool) error {
	if len(l.APIs.Words) == 0 || len(l.APIs.Classes) == 0 {
		return fmt.Errorf("apis: words and classes are required")
	}
	for _, f := range l.APIs.Families {
		if f.Family == "" || f.Provider == "" || len(f.Words) == 0 {
			return fmt.Errorf("apis: family %q needs a provider and words", f.Family)
		}
	}
	for _, c := range l.APIs.Classes {
		if !models[c.SelfHost] {
			return fmt.Errorf("apis: class %q sizes with %q, not a model of the lexicon", c.Class, c.SelfHost)
		}
	}
	return nil
}

// IntentWords are one intent's words in the lexicon.
type IntentWords struct {
	// Words start a /gpu command that runs the intent.
	Words []string `yaml:"words"`
	// Sub are the words after them, by the value they set ("add" → add,
	// log, +, 记).
	Sub map[string][]string `yaml:"sub"`
	// SubSlot is the slot the sub-words set: "" (Slots.Mode, and the word
	// is consumed) or "topic" (Slots.Topic; the word stays an argument).
	SubSlot string `yaml:"sub_slot"`
	// WordModes are modes set by the command word itself
	// ("unsubscribe" → unsubscribe); Default is the mode when neither a
	// command word nor a sub-word sets one.
	WordModes map[string][]string `yaml:"word_modes"`
	Default   string              `yaml:"default"`
	// Routable marks intents a plain sentence may be routed to: the
	// router's classes (with unknown), in the order of their ids.
	Routable bool `yaml:"routable"`
	// OwnArgs marks intents whose handler reads its arguments itself
	// (Slots.Args); with sub-words, only one of them or nothing after the
	// command word makes it the command.
	OwnArgs bool `yaml:"own_args"`
}

// SettingsOf returns the keys of the settings that list intent id.
func (l *Lexicon) SettingsOf(id string) []string {
	var keys []string
	for _, s := range l.Settings {
		if slices.Contains(s.Intents, id) {
			keys = append(keys, s.Key)
		}
	}
	return keys
}

// checkIntents holds the intents section to what the parser relies on: a
// /gpu word runs one intent, every intent has words, sub-words go to the
// mode or the topic, and a mode set by the command word is one of its
// words.
func (l *Lexicon) checkIntents() error {
	runs := map[string]string{}
	for id, w := range l.Intents {
		if len(w.Words) == 0 {
			return fmt.Errorf("intent %q has no words", id)
		}
		if w.SubSlot != "" && w.SubSlot != "topic" {
			return fmt.Errorf("intent %q: sub_slot %q, want topic or nothing", id, w.SubSlot)
		}
		for _, word := range w.Words {
			word = strings.ToLower(word)
			if other, ok := runs[word]; ok {
				return fmt.Errorf("/gpu %s runs both %q and %q", word, other, id)
			}
			runs[word] = id
		}
		for mode, words := range w.WordModes {
			for _, word := range words {
				if !slices.Contains(w.Words, word) {
					return fmt.Errorf("intent %q: word_modes %s: %q is not one of its words", id, mode, word)
				}
			}
		}
	}
	return nil
}
