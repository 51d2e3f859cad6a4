package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

// The writers' corpus (testdata/writers): questions written blind, in four
// users' voices, each with what it asks and every figure it states. A
// question is answered as asked when the answer's first figure is the one
// asked for, every other asked figure is there too, a yes/no gets a
// verdict, nothing failed, and every stated figure was read right. The
// test splits were committed before any tuning and are never edited.

type writerEntry struct {
	ID     string         `yaml:"id"`
	Split  string         `yaml:"split"`
	Text   string         `yaml:"text"`
	Lang   string         `yaml:"lang"`
	Asked  []string       `yaml:"asked"`
	YesNo  bool           `yaml:"yes_no"`
	Expect map[string]any `yaml:"expect"`
}

// writerFloors are the least share of each writer's test split answered as
// asked (every figure read right too) and with the asked figure first;
// measured values are logged (go test ./bot -run Writers -v). Test split,
// strict / asked first — round 3: before the whole-question work → after;
// round 4; round 5 (their own cards, platforms as options, deadlines in
// hours, budgets and ledger entries in words, and — from this round — the
// writers ask a bot wired with the ledger and budgets, as cmd/bot wires it,
// so ledger answers are scored for real, failures included):
// cto 0.0 → 6.2 → 12.5 → 18.8 → 23.4 % / 0.0 → 12.5 → 20.3 → 28.1 → 32.8 %;
// finance 3.1 → 17.2 → 34.4 → 34.4 → 37.5 % / 15.6 → 32.8 → 45.3 → 48.4 → 51.6 %;
// infra 3.1 → 12.5 → 21.9 → 31.2 → 35.9 % / 7.8 → 29.7 → 34.4 → 40.6 → 45.3 %;
// student 3.1 → 17.2 → 20.3 → 23.4 → 26.6 % / 12.5 → 18.8 → 23.4 → 29.7 → 32.8 %
// (round 6: the harness also prices from the shipped market snapshot, as
// cmd/bot's embedded default does; round 7: infra 35.9 → 39.1 % / 45.3 →
// 48.4 %, the other splits unchanged — this round's work was driven by two
// reviewers' fresh questions outside the corpus: 28 of 90, then 21 of 50
// answered right; round 8: infra 39.1 → 40.6 % / 48.4 → 50.0 %, student
// 32.8 → 34.4 % asked-first, driven by 60 then 40 fresh questions: 23 of
// 60, then 19 of 40 answered right).
// (finance's strict share first fell with the wiring — its ledger
// questions now meet the real handlers, whose refusals count: 20.3 % on the
// wired bot before this round's ledger fixes.) The floors sit a little
// under the after values so a regression fails.
var writerFloors = map[string][2]float64{"infra": {0.39, 0.48}, "student": {0.25, 0.32}, "cto": {0.21, 0.31}, "finance": {0.35, 0.50}}

func loadWriters(t *testing.T) map[string][]writerEntry {
	t.Helper()
	files, err := filepath.Glob("testdata/writers/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no writer corpora: %v", err)
	}
	out := map[string][]writerEntry{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var es []writerEntry
		if err := yaml.Unmarshal(b, &es); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".yaml")] = es
	}
	return out
}

// writerScore is one entry's verdict and the reasons it failed.
type writerScore struct {
	asked, slots, good bool
	why                []string
}

// intentTargets are the asked values an intent answers by itself.
var intentTargets = map[string]string{
	"spend": "spend", "spend_add": "spend", "spend_edit": "spend", "budget": "budget", "budget_set": "budget",
	"info": "knowledge", "export_status": "knowledge",
}

// fallbackAsked is what an answer without a typed value answered, by intent.
var fallbackAsked = map[string]string{
	"fit": "memory_gb", "cost": "money_total", "monthly": "break_even_hours", "buy": "break_even_util",
	"price": "price_per_card_hour", "compare": "which", "recommend": "which",
}

func scoreWriter(e writerEntry, m map[string]any) writerScore {
	var sc writerScore
	fail := func(f string, a ...any) { sc.why = append(sc.why, fmt.Sprintf(f, a...)) }
	intent, _ := m["intent"].(string)
	if er, _ := m["error"].(string); er != "" {
		fail("error %q", er)
	}
	var got []string
	var verdict any
	if ans, ok := m["answer"].(map[string]any); ok {
		if a, _ := ans["asked"].(string); a != "" {
			got = append(got, a)
		}
		verdict = ans["verdict"]
		also, _ := ans["also"].([]any)
		for _, x := range also {
			if xm, ok := x.(map[string]any); ok {
				got = append(got, fmt.Sprint(xm["asked"]))
			}
		}
	} else if a, ok := fallbackAsked[intent]; ok {
		got = []string{a}
	}
	sc.asked = true
	for i, want := range e.Asked {
		if in, ok := intentTargets[want]; ok {
			ledgerQ := (in == "spend" || in == "budget") && (intent == "spend" || intent == "budget")
			if !strings.HasPrefix(intent, in) && !ledgerQ && !(want == "export_status" && intent == "export") {
				sc.asked = false
				fail("asked %s, answered as %s", want, intent)
			}
			continue
		}
		if i == 0 && (len(got) == 0 || got[0] != want) {
			sc.asked = false
			fail("asked %s first, answered %v", want, got)
			continue
		}
		if i > 0 && !slices.Contains(got, want) {
			sc.asked = false
			fail("asked %s too, answered %v", want, got)
		}
	}
	if e.YesNo && verdict == nil {
		sc.asked = false
		fail("a yes/no question got no verdict")
	}
	slots, _ := m["slots"].(map[string]any)
	sc.slots = true
	for k, want := range e.Expect {
		if ok, why := slotMatches(k, want, slots, e); !ok {
			sc.slots = false
			fail("%s: %s", k, why)
		}
	}
	sc.good = sc.asked && sc.slots && len(sc.why) == 0
	return sc
}

// platformIDs are the catalogue's ids for the writers' platform names (the
// schema named them before the catalogue was looked at).
var platformIDs = map[string][]string{
	"tencent": {"tencent-cloud"}, "gpushare": {"hengyuanyun"}, "vast": {"vastai"}, "huaweicloud": {"huawei-cloud"},
	"volcengine": {"volcano-engine", "huoshan"}, "matpool": {"juchiyun"}, "baidu": {"baidu-cloud", "baidu-aicloud"},
}

// slotMatches checks one stated figure against the parsed slots.
func slotMatches(k string, want any, s map[string]any, e writerEntry) (bool, string) {
	num := func(v any) (float64, bool) {
		switch x := v.(type) {
		case float64:
			return x, true
		case int:
			return float64(x), true
		}
		return 0, false
	}
	near := func(got any, want float64, tol float64) (bool, string) {
		g, ok := num(got)
		if !ok {
			return false, fmt.Sprintf("not read (want %v)", want)
		}
		if math.Abs(g-want) > tol*math.Max(math.Abs(want), 1e-9) {
			return false, fmt.Sprintf("read %v, want %v", g, want)
		}
		return true, ""
	}
	money := func(slot string, w any) (bool, string) {
		wm, _ := w.(map[string]any)
		got, _ := s[slot].(map[string]any)
		if got == nil {
			return false, fmt.Sprintf("%s not read (want %v)", slot, wm["amount"])
		}
		a, _ := num(wm["amount"])
		if ok, why := near(got["amount"], a, 0.02); !ok {
			// a machine quote may be read per card
			if per, _ := wm["per"].(string); per == "machine" && s["quote_per"] == "machine" {
				return true, ""
			}
			return false, slot + " " + why
		}
		if c, _ := wm["currency"].(string); c != "" && got["currency"] != nil && got["currency"] != c {
			return false, fmt.Sprintf("%s currency %v, want %s", slot, got["currency"], c)
		}
		return true, ""
	}
	switch k {
	case "model":
		if s["model"] == want || s["arch"] == want || strings.HasPrefix(fmt.Sprint(s["model"]), fmt.Sprint(want)+"-") {
			return true, ""
		}
		return false, fmt.Sprintf("read %v, want %v", s["model"], want)
	case "params_b":
		w, _ := num(want)
		return near(s["params_b"], w, 0.12)
	case "method":
		w := fmt.Sprint(want)
		if w == "pretrain" {
			return s["method"] == "full" && s["pretrain"] == true, fmt.Sprintf("read %v, want pretraining", s["method"])
		}
		return s["method"] == w, fmt.Sprintf("read %v, want %v", s["method"], w)
	case "gpus":
		got, _ := s["gpus"].([]any)
		for _, w := range want.([]any) {
			found := false
			for _, g := range got {
				if g == w || strings.HasPrefix(fmt.Sprint(g), fmt.Sprint(w)) {
					found = true
				}
			}
			if !found {
				return false, fmt.Sprintf("read %v, want %v", got, want)
			}
		}
		return true, ""
	case "platforms":
		var got []string
		if p, _ := s["platform"].(string); p != "" {
			got = append(got, p)
		}
		if ps, ok := s["platforms"].([]any); ok {
			for _, p := range ps {
				got = append(got, fmt.Sprint(p))
			}
		}
		for _, w := range want.([]any) {
			ok := slices.Contains(got, fmt.Sprint(w))
			for _, alt := range platformIDs[fmt.Sprint(w)] {
				ok = ok || slices.Contains(got, alt)
			}
			if !ok {
				return false, fmt.Sprintf("read %v, want %v", got, want)
			}
		}
		return true, ""
	case "month":
		got := fmt.Sprint(s["month"])
		switch {
		case got == "last":
			got = "2026-11"
		case got == "this":
			got = "2026-12"
		case len(got) <= 2 && got != "<nil>":
			got = "2026-" + fmt.Sprintf("%02s", got)
		}
		return got == fmt.Sprint(want), fmt.Sprintf("read %v, want %v", s["month"], want)
	case "requests_per_s":
		w, _ := num(want)
		if _, avg := e.Expect["requests_per_s_avg"]; avg {
			return near(s["peak_requests_per_s"], w, 0.02)
		}
		if ok, _ := near(s["peak_requests_per_s"], w, 0.02); ok {
			return true, ""
		}
		return near(s["requests_per_s"], w, 0.02)
	case "requests_per_s_avg":
		w, _ := num(want)
		return near(s["requests_per_s"], w, 0.02)
	case "tps_per_user":
		w, _ := num(want)
		return near(s["tps_per_user"], w, 0.02)
	case "budget":
		return money("budget", want)
	case "amount":
		return money("amount", want)
	case "purchase_price":
		return money("price", want)
	case "monthly_price":
		return money("monthly", want)
	case "hourly_price":
		if ok, _ := money("rent", want); ok {
			return true, ""
		}
		return money("price", want)
	case "opex_per_year":
		return money("ops", want)
	case "power_price":
		return money("power", want)
	case "residual", "utilization":
		w, _ := num(want)
		return near(s[k], w, 0.02)
	case "currency":
		return s["currency"] == want, fmt.Sprintf("read %v, want %v", s["currency"], want)
	case "project", "region", "team":
		return fmt.Sprint(s[k]) == fmt.Sprint(want), fmt.Sprintf("read %v, want %v", s[k], want)
	case "days":
		w, _ := num(want)
		if ok, _ := near(s["hours"], w*24, 0.1); ok {
			return true, "" // "8x H100 for 10 days": the rental's length, in hours
		}
		return near(s["days"], w, 0.1)
	case "resolution":
		// the writers wrote "1024x1024" where the slot is a square's side
		// (1024); a non-square "WxH" is read as the side of the same pixels
		if w, h, ok := strings.Cut(fmt.Sprint(want), "x"); ok {
			wf, _ := strconv.ParseFloat(w, 64)
			hf, _ := strconv.ParseFloat(h, 64)
			return near(s["resolution"], math.Round(math.Sqrt(wf*hf)), 0.02)
		}
	case "input_tokens", "output_tokens":
		w, _ := num(want)
		return near(s[k], w, 0.03) // "1.5k" read as 1,536 or 1,500: both are how people count
	case "vram_gb":
		w, _ := num(want)
		if ok, _ := near(s["vram_gb"], w, 0.02); ok {
			return true, ""
		}
		kb := knowledge.MustShipped()
		if gs, _ := s["gpus"].([]any); len(gs) > 0 {
			if g, ok := kb.GPU(fmt.Sprint(gs[0])); ok && math.Abs(g.VRAMGB-w) <= 1 {
				return true, "" // "H20 96G": the named card's own memory
			}
		}
		return false, fmt.Sprintf("read %v, want %v", s["vram_gb"], w)
	}
	w, ok := num(want)
	if !ok {
		return fmt.Sprint(s[k]) == fmt.Sprint(want), fmt.Sprintf("read %v, want %v", s[k], want)
	}
	return near(s[k], w, 0.02)
}

// WritersBudget wires the budget handler into the writers' bot. It is set
// by writers_budget_test.go (package bot_test): bot/budget imports this
// package, so only the external test package can reach it.
var WritersBudget func(t *testing.T, b *Bot, st *store.Store, l *ledger.Ledger, now func() time.Time)

// writersBot is the bot the writers ask, wired as cmd/bot wires it: the
// read-only answers, the spend ledger (with usage) on an embedded Redis,
// and budgets. The clock is 2026-12-01 09:00 Shanghai, the day the writers
// counted their dates from.
func writersBot(t *testing.T) *Bot {
	t.Helper()
	st, err := store.OpenEmbedded(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, ledger.Shanghai) }
	kb := knowledge.MustShipped()
	l := ledger.New(st, ledger.Options{KB: kb, Now: now, Location: ledger.Shanghai})
	b := New(Config{FX: 7.2}, kb, nil)
	b.SetClock(now)
	// prices as cmd/bot has them on its embedded default: the dated public
	// market snapshot with the Chinese clouds' seeds (its catalogue's
	// fallback), not the knowledge base's short offer list alone
	offers, err := source.ShippedOffers(kb)
	if err != nil {
		t.Fatal(err)
	}
	b.UsePrices(shippedPrices(offers))
	b.Route(parse.Spend, NewSpend(l, ledger.NewAuthorizer([]string{"U1"}, nil, 0), 7.2, now))
	b.UseUsage(l)
	if WritersBudget != nil {
		WritersBudget(t, b, st, l, now)
	}
	return b
}

func TestWritersCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the writers corpus answers every entry (~40 s on a busy 2-core machine); make test runs it")
	}
	writers := loadWriters(t)
	names := make([]string, 0, len(writers))
	for n := range writers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		b := writersBot(t)           // one team's bot per writer: its ledger and budgets fill as it asks
		tally := map[string][3]int{} // split → good, asked right, n
		var fails []string
		for _, e := range writers[name] {
			a := b.Answer(context.Background(), Message{Text: strings.ReplaceAll(e.Text, "\n", " "), Team: "T1", Channel: "D1", User: "U1"})
			raw, err := json.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			checkAccounting(t, e.ID, a)
			if show := os.Getenv("WRITERS_SHOW"); show != "" && e.Split != "test" && slices.Contains(strings.Split(show, ","), e.ID) {
				// a train entry's whole answer, for working on it (never a test one)
				t.Logf("%s %s\n%s\nanswer %s", e.ID, a.Intent, a.Text, must(json.Marshal(a.Typed)))
			}
			sc := scoreWriter(e, m)
			c := tally[e.Split]
			if sc.good {
				c[0]++
			}
			if sc.asked {
				c[1]++
			}
			c[2]++
			tally[e.Split] = c
			if !sc.good && e.Split != "test" && testing.Verbose() {
				fails = append(fails, fmt.Sprintf("  %s %q: %s", e.ID, e.Text, strings.Join(sc.why, "; ")))
			}
		}
		for _, split := range []string{"train", "test"} {
			c := tally[split]
			if c[2] == 0 {
				continue
			}
			t.Logf("%s/%s: answered as asked %d/%d (%.1f%%), target right %d/%d (%.1f%%)", name, split,
				c[0], c[2], 100*float64(c[0])/float64(c[2]), c[1], c[2], 100*float64(c[1])/float64(c[2]))
		}
		if os.Getenv("WRITERS_FAILS") != "" {
			for _, f := range fails {
				t.Log(f)
			}
		}
		if c := tally["test"]; c[2] > 0 {
			f := writerFloors[name]
			if got := float64(c[0]) / float64(c[2]); got < f[0] {
				t.Errorf("%s test split answered as asked %.1f%%, floor %.0f%%", name, 100*got, 100*f[0])
			}
			if got := float64(c[1]) / float64(c[2]); got < f[1] {
				t.Errorf("%s test split asked figure first %.1f%%, floor %.0f%%", name, 100*got, 100*f[1])
			}
		}
	}
}

// checkAccounting holds the contract on every answer: each slot read from
// the message is in exactly one of used and ignored, and an ignored one is
// said in the text.
func checkAccounting(t *testing.T, id string, a Answer) {
	t.Helper()
	for _, k := range slotKeys(a.Slots) {
		_, u := a.Used[k]
		_, ig := a.Ignored[k]
		if u == ig {
			t.Errorf("%s: slot %s used=%v ignored=%v, want exactly one", id, k, u, ig)
		}
	}
	if len(a.Ignored) > 0 && a.Err == "" && a.Headline != "" && !strings.Contains(a.Text, tr(a.Lang, "Not used: ", "未使用：")) {
		t.Errorf("%s: ignored %v but the text does not say so:\n%s", id, a.Ignored, a.Text)
	}
	if a.Typed == nil {
		t.Errorf("%s: no typed answer", id)
	}
}

func must(b []byte, err error) string {
	if err != nil {
		return err.Error()
	}
	return string(b)
}
