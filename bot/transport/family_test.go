package transport

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/knowledge"
)

// countingBot is the real bot, counting every Answer (variants included).
type countingBot struct {
	*bot.Bot
	n atomic.Int32
	// hold, when set, keeps every variant waiting until it is closed.
	hold chan struct{}
}

func (c *countingBot) Answer(ctx context.Context, m bot.Message) bot.Answer {
	c.n.Add(1)
	if m.Variant && c.hold != nil {
		<-c.hold
	}
	return c.Bot.Answer(ctx, m)
}

func familyHarness(t *testing.T) (*harness, *countingBot) {
	t.Helper()
	cb := &countingBot{Bot: bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil)}
	return newHarness(t, cb), cb
}

// click sends a button click and returns the response_url body it got.
func (h *harness) click(t *testing.T, user, action, value, name string) map[string]any {
	t.Helper()
	h.settle() // the answer's variants are asked in the background; a person clicks later
	before := len(h.slack.Calls(bottest.ResponseURLMethod))
	payload := bottest.BlockAction("C1", user, "1.000001", action, value, h.slack.ResponseURL(name), "trig-"+name)
	h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(payload))
	h.settle()
	return h.slack.WaitCalls(t, bottest.ResponseURLMethod, before+1)[before].JSON(t)
}

// valuesFit checks every button value in blocks against Slack's limit.
func valuesFit(t *testing.T, blocks []byte) {
	t.Helper()
	for _, m := range regexp.MustCompile(`"value":("(?:[^"\\]|\\.)*")`).FindAllSubmatch(blocks, -1) {
		var v string
		if err := json.Unmarshal(m[1], &v); err != nil {
			t.Fatal(err)
		}
		if len(v) > maxButtonValue {
			t.Errorf("button value of %d characters, Slack takes %d", len(v), maxButtonValue)
		}
	}
}

func respBlocks(t *testing.T, body map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(body["blocks"])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var reUSD, reCNY = regexp.MustCompile(`from \$([0-9.]+)/card-hour`), regexp.MustCompile(`from ¥([0-9.]+)/card-hour`)

func firstPrice(t *testing.T, re *regexp.Regexp, text string) float64 {
	t.Helper()
	m := re.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s in %q", re, text)
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

// A currency click shows the CNY figures stored with the answer: the bot
// is asked nothing; the asker's message is replaced, anyone else gets a
// copy; and the stored variant's buttons lead back into the same family.
func TestCurrencyClickRendersTheStoredVariant(t *testing.T) {
	h, cb := familyHarness(t)
	h.event(t, "Ev1", bottest.Mention("C1", "U1", "1.000001", "<@UBOT> /gpu price h100"))
	h.settle()
	post := h.slack.WaitCalls(t, "chat.postMessage", 1)[0]
	usd := firstPrice(t, reUSD, post.Form.Get("text"))
	blocks := []byte(post.Form.Get("blocks"))
	valuesFit(t, blocks)
	asked := cb.n.Load() // the question and its CNY variant
	if asked != 2 {
		t.Errorf("%d answers for a price question with a currency button, want 2 (it and its CNY variant)", asked)
	}

	value := buttonValue(t, blocks, actCurrency)
	got := h.click(t, "U1", actCurrency, value, "cny")
	if n := cb.n.Load() - asked; n != 0 {
		t.Errorf("the currency click asked the bot %d times, want 0", n)
	}
	if got["replace_original"] != true {
		t.Errorf("the asker's click did not replace the answer: %v", got)
	}
	// Independent check: the shipped FX is 7.2 CNY per USD and both
	// figures are rounded to the cent.
	cny := firstPrice(t, reCNY, got["text"].(string))
	if want := usd * 7.2; cny < want-0.04 || cny > want+0.04 {
		t.Errorf("CNY variant from ¥%v, want $%v × 7.2 = ¥%.2f", cny, usd, want)
	}
	valuesFit(t, respBlocks(t, got))

	// Another member's click on the same button: the same stored figures,
	// privately, still without asking.
	other := h.click(t, "U2", actCurrency, value, "cny-u2")
	if other["replace_original"] == true || other["response_type"] != "ephemeral" {
		t.Errorf("U2's click: %v; want an ephemeral copy", other)
	}
	if other["text"] != got["text"] {
		t.Errorf("U2 saw %q, the asker %q", other["text"], got["text"])
	}
	// The variant's own button goes back to USD from the same family.
	back := buttonValue(t, respBlocks(t, got), actCurrency)
	var st, st0 state
	json.Unmarshal([]byte(back), &st)
	json.Unmarshal([]byte(value), &st0)
	if st.Key != st0.Key {
		t.Errorf("the CNY variant's button points to family %q, the answer's to %q", st.Key, st0.Key)
	}
	again := h.click(t, "U1", actCurrency, back, "usd")
	if again["text"] != post.Form.Get("text") {
		t.Errorf("back to USD shows %q, want the first answer %q", again["text"], post.Form.Get("text"))
	}
	if n := cb.n.Load() - asked; n != 0 {
		t.Errorf("three clicks asked the bot %d times, want 0", n)
	}
}

// 8-bit is a stored variant too, and it can be undone.
func TestBitsClickRendersTheStoredVariant(t *testing.T) {
	h, cb := familyHarness(t)
	h.slash(t, "fit 13b", "fit", "t1") // inference: 16-bit weights by default
	first := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0].JSON(t)
	h.settle() // the variants are asked in the background
	// fit 13b offers currency and 8-bit: the question and three variants.
	if n := cb.n.Load(); n != 4 {
		t.Errorf("%d answers, want 4 (the question, CNY, 8-bit, 8-bit in CNY)", n)
	}
	asked := cb.n.Load()
	got := h.click(t, "U1", actBits, buttonValue(t, respBlocks(t, first), actBits), "bits")
	if n := cb.n.Load() - asked; n != 0 {
		t.Errorf("the 8-bit click asked the bot %d times, want 0", n)
	}
	text := got["text"].(string)
	// 13B weights: 13e9 × 2 bytes = 26 GB in 16-bit, about half that in
	// 8-bit (13 GB plus the quantisation scales).
	if !strings.Contains(first["text"].(string), "weights: 26 GB") {
		t.Errorf("16-bit answer lacks 26 GB weights: %q", first["text"])
	}
	w := regexp.MustCompile(`weights: ([0-9.]+) GB`).FindStringSubmatch(text)
	if w == nil {
		t.Fatalf("8-bit variant lacks the weights: %q", text)
	}
	if gb, _ := strconv.ParseFloat(w[1], 64); gb < 13 || gb > 14 {
		t.Errorf("8-bit weights %v GB, want 13–14 (13B × 1 byte + scales)", gb)
	}
	if got["response_type"] != "ephemeral" || got["replace_original"] != true {
		t.Errorf("a private slash answer's click: %v; want it replaced, still private", got)
	}
	undo := h.click(t, "U1", actBits, buttonValue(t, respBlocks(t, got), actBits), "undo")
	if undo["text"] != first["text"] {
		t.Errorf("Undo 8-bit shows %q, want the first answer", undo["text"])
	}
	if n := cb.n.Load() - asked; n != 0 {
		t.Errorf("two clicks asked the bot %d times, want 0", n)
	}
}

// Without the family (expired, Redis flushed) a click asks the read-only
// question again, once, and stores a new family for the next click.
func TestClickWithoutTheFamilyAsksAgain(t *testing.T) {
	h, cb := familyHarness(t)
	h.event(t, "Ev1", bottest.Mention("C1", "U1", "1.000001", "<@UBOT> /gpu price h100"))
	h.settle()
	post := h.slack.WaitCalls(t, "chat.postMessage", 1)[0]
	value := buttonValue(t, []byte(post.Form.Get("blocks")), actCurrency)
	usd := firstPrice(t, reUSD, post.Form.Get("text"))
	h.mini.FlushAll()
	asked := cb.n.Load()
	got := h.click(t, "U1", actCurrency, value, "cny")
	// The CNY question, and its USD variant for the next click.
	if n := cb.n.Load() - asked; n != 2 {
		t.Errorf("the click asked %d times, want 2 (the CNY question and its USD variant)", n)
	}
	if cny := firstPrice(t, reCNY, got["text"].(string)); cny < usd*7.2-0.04 || cny > usd*7.2+0.04 {
		t.Errorf("re-asked CNY answer from ¥%v, want ≈ $%v × 7.2", cny, usd)
	}
	asked = cb.n.Load()
	h.click(t, "U1", actCurrency, buttonValue(t, respBlocks(t, got), actCurrency), "usd")
	if n := cb.n.Load() - asked; n != 0 {
		t.Errorf("the next click asked %d times, want 0: the new family serves it", n)
	}
}

// Long questions: every value of every variant's buttons fits Slack's
// 2,000 characters. A question that leaves room gets its buttons, the
// family's key included; one too long for a value gets none rather than
// broken ones, and so does one longer than the parser reads (1,000
// characters: currency=cny after that is never read, so the button would
// show the same USD answer).
func TestFamilyButtonValuesFit(t *testing.T) {
	for _, tt := range []struct {
		pad     int
		buttons bool
	}{{900, true}, {1200, false}, {1990, false}} {
		h, _ := familyHarness(t)
		q := "/gpu price h100 " + strings.Repeat("x", tt.pad)
		h.event(t, "Ev1", bottest.Mention("C1", "U1", "1.000001", "<@UBOT> "+q))
		h.settle()
		blocks := []byte(h.slack.WaitCalls(t, "chat.postMessage", 1)[0].Form.Get("blocks"))
		valuesFit(t, blocks)
		if got := strings.Contains(string(blocks), actCurrency); got != tt.buttons {
			t.Fatalf("a question of %d characters: currency button %v, want %v", len(q), got, tt.buttons)
		}
		if !tt.buttons {
			continue
		}
		got := h.click(t, "U1", actCurrency, buttonValue(t, blocks, actCurrency), "cny")
		valuesFit(t, respBlocks(t, got))
		if !strings.Contains(got["text"].(string), "¥") {
			t.Errorf("the long question's CNY variant: %q", got["text"])
		}
	}
}

// The variants cost the answer no time: with every variant held back, the
// answer is delivered anyway; a click before they are in asks the
// read-only question again; once they are in, clicks ask nothing.
func TestVariantsDoNotDelayTheAnswer(t *testing.T) {
	h, cb := familyHarness(t)
	cb.hold = make(chan struct{})
	h.slash(t, "price h100", "price", "t1")
	first := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0].JSON(t)
	if !strings.Contains(first["text"].(string), "$") {
		t.Fatalf("answer while the variants wait: %q", first["text"])
	}
	value := buttonValue(t, respBlocks(t, first), actCurrency)
	if _, ok := h.app.recall(context.Background(), mustState(t, value).Key, map[string]string{"currency": "cny"}); ok {
		t.Fatal("the CNY variant is stored before it was asked")
	}
	close(cb.hold)
	h.settle()
	if _, ok := h.app.recall(context.Background(), mustState(t, value).Key, map[string]string{"currency": "cny"}); !ok {
		t.Fatal("the CNY variant is not stored once asked")
	}
	asked := cb.n.Load()
	got := h.click(t, "U1", actCurrency, value, "cny")
	if n := cb.n.Load() - asked; n != 0 {
		t.Errorf("the click asked the bot %d times, want 0", n)
	}
	firstPrice(t, reCNY, got["text"].(string))
}

// When every background slot is busy, an answer skips its variants (its
// buttons will ask again) rather than queue work without bound.
func TestVariantsSkippedWhenEverySlotIsBusy(t *testing.T) {
	h, cb := familyHarness(t)
	cb.hold = make(chan struct{})
	for i := range variantBuilds + 1 {
		h.slash(t, "price h100 @runpod"+strings.Repeat(" ", i), "p"+strconv.Itoa(i), "t"+strconv.Itoa(i))
	}
	h.slack.WaitCalls(t, bottest.ResponseURLMethod, variantBuilds+1)
	close(cb.hold)
	h.settle()
	// variantBuilds answers waited in their variant; the last one found
	// no slot and asked none. Counted once all is done: a variant's
	// goroutine may not have reached the bot when the answers are out.
	if n, want := cb.n.Load(), int32(2*variantBuilds+1); n != want {
		t.Errorf("%d answers asked, want %d (each question, one variant each for %d slots)", n, want, variantBuilds)
	}
}

func mustState(t *testing.T, v string) state {
	t.Helper()
	st, err := decodeState(v)
	if err != nil {
		t.Fatal(err)
	}
	return st
}
