package digest

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/knowledge"
)

// offers is a fixed catalogue for the bot's price answers.
type offers []knowledge.Offer

func (o offers) Offers(context.Context) ([]knowledge.Offer, error) { return o, nil }

// One price, read in "/gpu price" and in the daily post, is written the
// same way: ¥12.50 was "¥12.5" in the answer and "¥12.50" in the post, and
// ¥1,234.50 "¥1,235" and "¥1,234.50". Both now go through bot/present:
// two decimals at most, no trailing zeros, whole and grouped from 1,000.
func TestAPriceReadsTheSameInAnAnswerAndTheDailyPost(t *testing.T) {
	for _, tt := range []struct {
		price float64
		want  string
	}{{12.50, "¥12.5"}, {1234.50, "¥1,235"}} {
		o := offer("team/suanjiayun/h800", "suanjiayun", "h800", tt.price, knowledge.CNY)
		b := bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil)
		b.UsePrices(offers{o})
		ans := b.Answer(context.Background(), bot.Message{Text: "price h800 currency=cny", Slash: true})
		if !strings.Contains(ans.Text, tt.want+"/card-hour") {
			t.Errorf("/gpu price h800 at ¥%v: %q lacks %s", tt.price, ans.Text, tt.want)
		}

		in := fixture(t)
		in.Prev, in.HasPrev, in.Lows = nil, false, nil
		in.Cur = []knowledge.Offer{o}
		in.Filter = Filter{Lang: "en"}
		text, _ := Compose(in, opts(t)).Render()
		if !strings.Contains(text, "H800 SXM: "+tt.want+" Suanjiayun") {
			t.Errorf("daily post at ¥%v lacks %s:\n%s", tt.price, tt.want, text)
		}
	}
}

// A market provider is named the same in an answer and in the daily post:
// the post printed the source's id ("primeintellect") where /gpu price
// printed "Prime Intellect", the name the provider uses on its website
// (knowledge/data/providers.yaml). Both now read knowledge.Base.PlatformNames.
func TestAProviderIsNamedTheSameInAnAnswerAndTheDailyPost(t *testing.T) {
	o := offer("gpuhunt-primeintellect-h100", "primeintellect", "h100-sxm", 1.99, knowledge.USD)
	b := bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil)
	b.UsePrices(offers{o})
	ans := b.Answer(context.Background(), bot.Message{Text: "price h100 currency=usd", Slash: true})
	if !strings.Contains(ans.Text, "Prime Intellect") {
		t.Errorf("/gpu price h100: %q lacks Prime Intellect", ans.Text)
	}

	in := fixture(t)
	in.Prev, in.HasPrev, in.Lows = nil, false, nil
	in.Cur = []knowledge.Offer{o}
	for _, lang := range []string{"en", "zh"} {
		in.Filter = Filter{Lang: lang}
		text, _ := Compose(in, opts(t)).Render()
		if !strings.Contains(text, "Prime Intellect") || strings.Contains(text, "primeintellect") {
			t.Errorf("%s daily post names the provider by its id, not Prime Intellect:\n%s", lang, text)
		}
	}
}
