package profile

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	return New(rdb, nil)
}

func TestApply(t *testing.T) {
	kb := knowledge.MustShipped()
	p, changed, err := Apply(Profile{Team: "T1"}, []string{"currency=usd", "fx=7.1", "platforms=阿里云,AutoDL", "cards=h800:8,4090:2", "channel=<#C0SPEND42|gpu-spend>"}, kb)
	if err != nil {
		t.Fatal(err)
	}
	want := Profile{Team: "T1", Currency: knowledge.USD, FX: 7.1, Platforms: []string{"aliyun", "autodl"},
		Cards: map[string]int{"h800": 8, "rtx4090": 2}, RecapChannel: "C0SPEND42"}
	if d := cmp.Diff(want, p); d != "" {
		t.Errorf("Apply (-want +got):\n%s", d)
	}
	if len(changed) != 5 {
		t.Errorf("changed = %v, want one line per setting", changed)
	}
	if !p.Allows("aliyun") || p.Allows("vastai") || !(Profile{}).Allows("vastai") {
		t.Error("Allows disagrees with the platform list")
	}
	for _, bad := range [][]string{{"currency=eur"}, {"fx=-1"}, {"platforms=nowhere"}, {"cards=h800"}, {"cards=h900:2"}, {"channel=general"}, {"colour=blue"}, {"aliyun"}} {
		if _, _, err := Apply(want, bad, kb); !errors.As(err, new(*SettingError)) {
			t.Errorf("Apply(%v) err = %v, want a SettingError", bad, err)
		}
	}
	// A bad setting changes nothing, even after good ones.
	if got, _, _ := Apply(want, []string{"currency=cny", "fx=abc"}, kb); got.Currency != knowledge.USD {
		t.Error("a rejected command applied part of its settings")
	}
}

func TestSettingsCommand(t *testing.T) {
	st := newStore(t)
	kb := knowledge.MustShipped()
	b := bot.New(bot.Config{FX: 7.2}, kb, nil)
	b.Route(parse.Settings, NewHandler(st, kb, nil, func() time.Time { return time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC) }))
	say := func(text string) bot.Answer {
		return b.Answer(context.Background(), bot.Message{Text: text, Team: "T1", Channel: "C1", User: "U1"})
	}
	a := say("/gpu settings platforms=aliyun currency=CNY")
	if !strings.Contains(a.Text, "Settings saved: platforms aliyun; currency CNY") {
		t.Fatalf("set: %s", a.Text)
	}
	a = say("/gpu settings")
	if !strings.Contains(a.Text, "platforms: aliyun") || !strings.Contains(a.Text, "currency: CNY") {
		t.Errorf("show: %s", a.Text)
	}
	if got, _ := st.Platforms(context.Background(), "T1"); !cmp.Equal(got, []string{"aliyun"}) {
		t.Errorf("stored platforms = %v", got)
	}
	a = say("/gpu settings currency=EUR")
	if !strings.Contains(a.Text, `read "eur": currency=CNY or currency=USD`) {
		t.Errorf("bad currency: %s", a.Text)
	}
}

// TestFXRefusesWhatIsNoRate: issue #28 item 9 — fx=NaN passed both bounds
// (every comparison with NaN is false) and broke later conversions, and
// fx=1e-320 (a denormal, > 0) was accepted. Each is refused with the
// accepted form in both languages, and the profile is unchanged.
func TestFXRefusesWhatIsNoRate(t *testing.T) {
	kb := knowledge.MustShipped()
	start := Profile{Team: "T1", FX: 7.1}
	for _, v := range []string{"NaN", "nan", "-NaN", "Inf", "+Inf", "-inf", "1e-320", "0", "0.001", "1001", "1e308", "-7.2"} {
		got, changed, err := Apply(start, []string{"fx=" + v}, kb)
		var se *SettingError
		if !errors.As(err, &se) {
			t.Errorf("fx=%s: err %v, want a SettingError", v, err)
			continue
		}
		if !strings.Contains(se.Want, "0.01 to 1000") || !strings.Contains(se.Want, "汇率") {
			t.Errorf("fx=%s: message %q, want the accepted range in English and Chinese", v, se.Want)
		}
		if got.FX != 7.1 || changed != nil {
			t.Errorf("fx=%s changed the profile: fx %v, %v", v, got.FX, changed)
		}
	}
	for v, want := range map[string]float64{"7.2": 7.2, "0.01": 0.01, "1000": 1000, "6.95": 6.95} {
		if got, _, err := Apply(start, []string{"fx=" + v}, kb); err != nil || got.FX != want {
			t.Errorf("fx=%s: %v, %v; want %v", v, got.FX, err, want)
		}
	}
}

// persona= is a team setting: enterprise (or its Chinese word) is kept as
// the canonical persona, none clears it, a word that names no persona is
// refused with the accepted forms and nothing applied; the store returns it.
func TestPersonaSetting(t *testing.T) {
	kb := knowledge.MustShipped()
	p, changed, err := Apply(Profile{Team: "T1"}, []string{"persona=enterprise"}, kb)
	if err != nil || p.Persona != "enterprise" || len(changed) != 1 || changed[0] != "persona enterprise" {
		t.Fatalf("persona=enterprise: %+v %v %v", p, changed, err)
	}
	if q, _, err := Apply(p, []string{"persona=企业"}, kb); err != nil || q.Persona != "enterprise" {
		t.Errorf("persona=企业: %+v %v", q, err)
	}
	if q, _, err := Apply(p, []string{"persona=none"}, kb); err != nil || q.Persona != "" {
		t.Errorf("persona=none: %+v %v", q, err)
	}
	var se *SettingError
	if q, _, err := Apply(p, []string{"persona=ceo"}, kb); !errors.As(err, &se) || !strings.Contains(se.Want, "persona=enterprise") || q.Persona != "enterprise" {
		t.Errorf("persona=ceo: %+v %v; want refused with the accepted forms, nothing applied", q, err)
	}
	st := newStore(t)
	ctx := context.Background()
	if err := st.Put(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Persona(ctx, "T1"); err != nil || got != "enterprise" {
		t.Errorf("Store.Persona = %q, %v", got, err)
	}
	if !strings.Contains(Describe(p, "en"), "persona: enterprise (prices from contracted clouds only") {
		t.Errorf("Describe does not show the persona: %q", Describe(p, "en"))
	}
}
