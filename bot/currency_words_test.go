package bot

import (
	"strings"
	"testing"
)

// TestOtherCurrencyIsSaidNotDropped: no sourced exchange rate converts to
// EUR, GBP or JPY, so an answer asked "in EUR" stays in USD (or CNY) — and
// says why in its "Not used" line, in the user's language, instead of
// printing dollars as if the request had been honoured.
func TestOtherCurrencyIsSaidNotDropped(t *testing.T) {
	for _, c := range []struct{ text, code, say string }{
		{"show everything in EUR: 8 H100 for a month on lambda", "EUR", "no sourced EUR exchange rate"},
		{"how much is an H100 on runpod in euros?", "EUR", "no sourced EUR exchange rate"},
		{"8张H100在lambda上一个月多少钱，用欧元算", "EUR", "没有可查来源的EUR汇率"},
		{"4090 on vast per hour, in GBP please", "GBP", "no sourced GBP exchange rate"},
	} {
		a := askOne(t, c.text)
		if a.Err != "" {
			t.Errorf("%q: error %s", c.text, a.Err)
			continue
		}
		if !strings.Contains(a.Ignored["other_currency"], c.code) {
			t.Errorf("%q: ignored %v, want other_currency naming %s", c.text, a.Ignored, c.code)
		}
		if !strings.Contains(a.Text, c.say) {
			t.Errorf("%q: text does not say %q:\n%s", c.text, c.say, a.Text)
		}
		if strings.Contains(a.Text, "€") || strings.Contains(a.Text, "£") {
			t.Errorf("%q: prints a converted symbol without a rate:\n%s", c.text, a.Text)
		}
	}
	// a currency the catalogue has stays what it was: USD read, nothing ignored
	if a := askOne(t, "how much is an H100 on runpod in usd?"); a.Ignored["other_currency"] != "" {
		t.Errorf("USD asked is not another currency: %v", a.Ignored)
	}
}

// TestTrainingImagesAreSteps: "SDXL LoRA on 3000 images" names the training
// set, not pictures to generate. At batch 1 one optimizer step sees one
// image, so one epoch over 3,000 images is 3,000 steps and 2 epochs 6,000:
// the time is 3× (and 6×) the default 1,000-step fine-tune's on the same
// card — whatever the engine's step time is.
func TestTrainingImagesAreSteps(t *testing.T) {
	base := askOne(t, "SDXL LoRA fine-tune, how long on a 4090?")
	if base.Typed == nil || base.Typed.Value == nil || base.Typed.Asked != "hours" {
		t.Fatalf("default fine-tune: typed %+v\n%s", base.Typed, base.Text)
	}
	for _, c := range []struct {
		text  string
		times float64
		steps string
	}{
		{"SDXL LoRA on 3000 images, how long on a 4090?", 3, "3,000 steps"},
		{"SDXL LoRA on 3000 images, 2 epochs, how long on a 4090?", 6, "6,000 steps"},
		{"用3000张图训练SDXL LoRA，4090要多久", 3, "3,000 步"},
	} {
		a := askOne(t, c.text)
		if a.Typed == nil || a.Typed.Value == nil || a.Typed.Asked != "hours" {
			t.Errorf("%q: typed %+v\n%s", c.text, a.Typed, a.Text)
			continue
		}
		if got, want := *a.Typed.Value, *base.Typed.Value*c.times; got < want*0.98 || got > want*1.02 {
			t.Errorf("%q: %.3f h, want %.0f× the 1,000-step %.3f h = %.3f h", c.text, got, c.times, *base.Typed.Value, want)
		}
		if !strings.Contains(a.Headline, c.steps) {
			t.Errorf("%q: headline %q does not say %s", c.text, a.Headline, c.steps)
		}
		if !strings.Contains(a.Used["images"], "training set") {
			t.Errorf("%q: images used as %q, want the training set", c.text, a.Used["images"])
		}
	}
	// a small set is repeated to the usual 1,000 steps, not trained for 30
	if a := askOne(t, "SDXL LoRA on 30 images with a 3090, how long?"); !strings.Contains(a.Headline, "1,000 steps") {
		t.Errorf("30 images: %q, want the usual 1,000 steps", a.Headline)
	}
	// generating stays generating: "出图3000张" prices 3,000 images
	if a := askOne(t, "SDXL 出图3000张，4090要多久"); strings.Contains(a.Used["images"], "training set") {
		t.Errorf("generation read as training: %v", a.Used)
	}
}
