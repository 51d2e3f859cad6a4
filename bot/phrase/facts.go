package phrase

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// Fact is one thing the engine said. A numeric fact (Text empty) is Value in
// Unit; Unit is "" (a plain number or count), "GB", "GiB", "CNY", "USD", "%",
// "ratio" (0–1), "h", "month", "year", "B" (billions, as in params_b), or a
// rate such as "CNY/h", "USD/M tokens", "h/month". A text fact (names,
// assumptions, dates, guide items) allows every number, date and name
// written in it.
type Fact struct {
	Name  string
	Value float64
	Unit  string
	Text  string
}

// MarshalJSON writes a numeric fact as {name, value, unit} and a text fact as
// {name, text}, the form the model sees.
func (f Fact) MarshalJSON() ([]byte, error) {
	if f.Text != "" {
		return json.Marshal(struct {
			Name string `json:"name,omitempty"`
			Text string `json:"text"`
		}{f.Name, f.Text})
	}
	return json.Marshal(struct {
		Name  string  `json:"name,omitempty"`
		Value float64 `json:"value"`
		Unit  string  `json:"unit,omitempty"`
	}{f.Name, f.Value, f.Unit})
}

func (f Fact) describe() string {
	if f.Text != "" {
		return fmt.Sprintf("%s (%q)", f.Name, f.Text)
	}
	return fmt.Sprintf("%s (%s %s)", f.Name, strconv.FormatFloat(f.Value, 'f', -1, 64), f.Unit)
}

// AnswerFact is the name of the text fact that carries the template answer
// itself: every number and name the engine rendered is allowed.
const AnswerFact = "answer"

// FactsFrom collects the facts of an answer so that the bot can phrase any
// intent the same way: answerText is the template answer (Answer.Text) and
// values are JSON-marshalable results (Answer.Result, and Answer.Slots and
// Answer.Assumed, or the whole Answer).
//
// facts holds a text fact named AnswerFact with answerText, a numeric fact
// for every number in values (named by its JSON path, with the unit read from
// the key: *_gb is GB, price/total/*_cost take the nearest "currency",
// *_hours is h, *_months is month, utilization is a ratio, params_b is B)
// and a text fact for every string in values that the template does not
// already show. What a rephrase must keep is EssentialFrom's.
func FactsFrom(answerText string, values ...any) []Fact {
	facts := []Fact{{Name: AnswerFact, Text: answerText}}
	w := walker{template: answerText, seenText: map[string]bool{}}
	for _, v := range values {
		if v == nil {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var node any
		if dec.Decode(&node) != nil {
			continue
		}
		w.walk("", node, "", 0)
	}
	return append(facts, w.facts...)
}

// EssentialFrom returns the figures a rephrase must keep: the numbers of
// result named by keys that headline (the answer's first line, its verdict
// or the figure asked for) shows, to the digits it prints. A key is a JSON
// path into result with "[]" for any element of a list: "memory_gb",
// "options[].count", "offers[].price"; a list element counts only when the
// headline names it too ("fits on one A100 40GB": that option's count, not
// every option's count of one). The keys come from the bot's intent table,
// so each intent says which of its figures are the answer.
func EssentialFrom(headline string, result any, keys []string) []Fact {
	if len(keys) == 0 || strings.TrimSpace(headline) == "" {
		return nil
	}
	shown, shownQs := newGuard([]Fact{{Text: headline}}), extract(headline)
	var out []Fact
	for _, f := range FactsFrom(headline, result) {
		if f.Text != "" || !slices.Contains(keys, reElement.ReplaceAllString(f.Name, "[]")) || !elementsNamed(f.Name, headline) {
			continue
		}
		r := numericRef(f)
		for i := range shownQs {
			if q := &shownQs[i]; q.kind == kNumber && shown.matchNumber(q, &r, false) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// reElement is a list element's name in a fact's path ("[RTX 4090]").
var reElement = regexp.MustCompile(`\[[^\]]*\]`)

// elementsNamed reports whether text names every list element in path:
// options[A100 40GB].count needs "A100 40GB"; offers[autodl h100-sxm].price
// needs each of its words, spaces and hyphens aside ("autodl" and
// "RTX 4090").
func elementsNamed(path, text string) bool {
	squeeze := strings.NewReplacer(" ", "", "-", "")
	t := squeeze.Replace(strings.ToLower(text))
	for _, m := range reElement.FindAllString(path, -1) {
		for _, w := range strings.Fields(strings.ToLower(strings.Trim(m, "[]"))) {
			if !strings.Contains(t, squeeze.Replace(w)) {
				return false
			}
		}
	}
	return true
}

type walker struct {
	template string
	facts    []Fact
	seenText map[string]bool
}

func (w *walker) walk(path string, node any, currency string, depth int) {
	if depth > 32 {
		return
	}
	switch n := node.(type) {
	case map[string]any:
		if c, ok := n["currency"].(string); ok && c != "" {
			currency = strings.ToUpper(c)
		}
		keys := make([]string, 0, len(n))
		for k := range n {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if depth == 0 && (k == "text" || k == "error") {
				continue // the template itself, or an error string
			}
			p := k
			if path != "" {
				p = path + "." + k
			}
			switch v := n[k].(type) {
			case json.Number:
				f, err := v.Float64()
				if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
					continue
				}
				w.facts = append(w.facts, Fact{Name: p, Value: f, Unit: unitFor(k, f, n, currency)})
			case string:
				w.text(p, k, v)
			default:
				w.walk(p, v, currency, depth+1)
			}
		}
	case []any:
		for i, e := range n {
			w.walk(fmt.Sprintf("%s[%s]", path, elemName(e, i)), e, currency, depth+1)
		}
	case string:
		w.text(path, "", n)
	case json.Number:
		if f, err := n.Float64(); err == nil && !math.IsInf(f, 0) {
			w.facts = append(w.facts, Fact{Name: path, Value: f})
		}
	}
}

// elemName names an array element by its name, or its platform, card and
// key, so the model reads options[RTX 4090].spare_gb and
// offers[autodl rtx4090].price rather than options[3].
func elemName(e any, i int) string {
	m, ok := e.(map[string]any)
	if !ok {
		return strconv.Itoa(i)
	}
	if s, ok := m["name"].(string); ok && s != "" {
		return s
	}
	var parts []string
	for _, k := range []string{"platform", "gpu", "key", "id", "project"} {
		if s, ok := m[k].(string); ok && s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return strconv.Itoa(i)
	}
	return strings.Join(parts, " ")
}

// nameKeys hold names worth showing the model even without digits.
var nameKeys = map[string]bool{
	"name": true, "gpu": true, "platform": true, "project": true, "from": true,
	"arch": true, "source": true, "note": true, "observed_at": true, "cheaper": true,
}

// text adds a string as a text fact when it carries digits (a card id, a
// date, a formula) or names something, and the template does not already
// show it. Labels and code words without digits add nothing to check.
func (w *walker) text(path, key, s string) {
	s = strings.TrimSpace(s)
	if strings.IndexFunc(s, isDigit) < 0 && !nameKeys[key] {
		return
	}
	if s == "" || w.seenText[s] || strings.Contains(w.template, s) {
		return
	}
	w.seenText[s] = true
	w.facts = append(w.facts, Fact{Name: path, Text: s})
}

var moneyKeys = map[string]bool{
	"price": true, "total": true, "amount": true, "cost": true, "hourly": true,
	"monthly": true, "spend": true, "saving": true, "savings": true, "saved": true,
	"per_m_tokens": true, "on_demand": true, "budget": true, "capex": true, "opex": true,
	"depreciation": true, "power": true, "ops": true, "opportunity": true, "rent": true,
}

// unitFor reads a number's unit from its JSON key and siblings.
func unitFor(key string, v float64, obj map[string]any, currency string) string {
	k := strings.ToLower(key)
	per := ""
	if u, ok := obj["unit"].(string); ok && u != "" {
		if _, hasCur := obj["currency"]; hasCur {
			per = "/" + canonicalPer(u) // an offer: unit is the billing period
		} else if k == "value" {
			return u // a Line: {value, unit}
		}
	}
	switch {
	case k == "hourly":
		per = "/h"
	case k == "per_m_tokens":
		per = "/M tokens"
	}
	switch {
	case strings.HasSuffix(k, "_gb") || k == "gb":
		return "GB"
	case strings.HasSuffix(k, "_usd"):
		return "USD" + per
	case strings.HasSuffix(k, "_cny"):
		return "CNY" + per
	case moneyKeys[k] || strings.HasSuffix(k, "_cost") || strings.HasSuffix(k, "_price") ||
		strings.HasSuffix(k, "_total") || strings.HasSuffix(k, "_spend") || strings.HasSuffix(k, "_saving") ||
		strings.HasSuffix(k, "_savings"):
		if currency == "" {
			return ""
		}
		return currency + per
	case strings.HasSuffix(k, "hours_per_month"):
		return "h/month"
	case k == "hours" || strings.HasSuffix(k, "_hours"):
		return "h"
	case k == "months" || strings.HasSuffix(k, "_months"):
		return "month"
	case k == "years" || strings.HasSuffix(k, "_years"):
		return "year"
	case strings.Contains(k, "utilization") || strings.Contains(k, "utilisation") || k == "mfu" ||
		k == "rate" || k == "discount" || strings.HasSuffix(k, "_ratio") || strings.HasSuffix(k, "_share"):
		if math.Abs(v) > 1 {
			return "%"
		}
		return "ratio"
	case strings.HasSuffix(k, "_pct") || strings.HasSuffix(k, "_percent") || k == "pct" || k == "percent":
		return "%"
	case k == "params_b":
		return "B"
	}
	return ""
}

// GuideFacts turns retrieved guide items into text facts for a knowledge
// answer: the title and body in the asker's language and the source. Phrase
// such an answer with Input{Template: the rendered items, Facts: GuideFacts(…)}
// and no Essential: the model may only reword what the items say, and every
// number it writes must be one of theirs.
func GuideFacts(lang string, items []knowledge.GuideItem) []Fact {
	var out []Fact
	for _, it := range items {
		title, body := it.TitleEN, it.BodyEN
		if lang == "zh" {
			title, body = it.TitleZH, it.BodyZH
		}
		name := "guide[" + it.ID + "]"
		if title != "" {
			out = append(out, Fact{Name: name + ".title", Text: title})
		}
		if body != "" {
			out = append(out, Fact{Name: name + ".body", Text: body})
		}
		if it.Source != "" {
			out = append(out, Fact{Name: name + ".source", Text: it.Source})
		}
	}
	return out
}
