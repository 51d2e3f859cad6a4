package advisor

import (
	"math"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpubot/gpubot/knowledge"
)

// freshMarket is the shipped market in new slices, so that no kept card
// set or offer index matches it.
func freshMarket() Market {
	m := MarketOf(knowledge.MustShipped())
	m.GPUs = append([]knowledge.GPU(nil), m.GPUs...)
	m.Archs = append([]knowledge.Arch(nil), m.Archs...)
	m.Offers = append([]knowledge.Offer(nil), m.Offers...)
	return m
}

func rowOf(rk Ranking, gpu string) (Ranked, bool) {
	for _, r := range rk.Rows {
		if r.GPU == gpu {
			return r, true
		}
	}
	return Ranked{}, false
}

func excludes(rk Ranking, gpu string) bool {
	for _, r := range rk.Excluded {
		if r.GPU == gpu {
			return true
		}
	}
	return false
}

// A card's figures are worked out once per card set, but a card edited in
// place is ranked from its new figures.
func TestCardTablesFollowCardEdits(t *testing.T) {
	m := freshMarket()
	in := RecommendInput{Preset: PresetDiffusion, Currency: knowledge.USD, Limit: 100}
	before, err := Recommend(in, m)
	if err != nil {
		t.Fatal(err)
	}
	// The report's SD3 floor is 24 GB: a 16 GB card is left out.
	g := -1
	for i, c := range m.GPUs {
		if c.VRAMGB < diffusionVRAMFloorGB && c.PeakTFLOPS() > 0 && c.BandwidthGBs > 0 && len(indexOf(m.Offers).byGPU[c.ID]) > 0 {
			g = i
			break
		}
	}
	if g < 0 {
		t.Fatal("no card under 24 GB with an offer in the shipped catalogue")
	}
	id := m.GPUs[g].ID
	if !excludes(before.Rankings[0], id) {
		t.Fatalf("%s (%v GB) is not excluded from diffusion training", id, m.GPUs[g].VRAMGB)
	}
	m.GPUs[g].VRAMGB = 48
	after, _ := Recommend(in, m)
	if excludes(after.Rankings[0], id) {
		t.Errorf("%s at 48 GB is still excluded", id)
	}
	priced := false
	for _, r := range append(after.Rankings[0].Rows, after.Rankings[0].Aside...) {
		priced = priced || r.GPU == id
	}
	if !priced {
		t.Errorf("%s at 48 GB is neither ranked nor set aside with its price", id)
	}

	// A consumer card's diffusion score is 100 × peak × MFU ÷ the
	// reference's: half the BF16 peak halves it (its MFU class stays).
	r4090, ok := rowOf(after.Rankings[0], "rtx4090")
	if !ok {
		t.Fatal("no RTX 4090 row")
	}
	for i := range m.GPUs {
		if m.GPUs[i].ID == "rtx4090" {
			m.GPUs[i].BF16TFLOPS /= 2
		}
	}
	halved, _ := Recommend(in, m)
	h, _ := rowOf(halved.Rankings[0], "rtx4090")
	if math.Abs(h.Score-r4090.Score/2) > 0.01 {
		t.Errorf("4090 at half its BF16 peak scores %v, want %v / 2", h.Score, r4090.Score)
	}

	// An offer edited in place is priced afresh: the 4090's cheapest offer
	// at twice its price halves that row's value. (freshMarket has its own
	// architectures, so each call makes its own cache; a prepared market is
	// prepared again after such an edit: TestPreparedMarketRepreparedAfterEdit.)
	cheapest := h
	for _, r := range halved.Rankings[0].Rows {
		if r.GPU == "rtx4090" && r.Price < cheapest.Price {
			cheapest = r
		}
	}
	for i := range m.Offers {
		if m.Offers[i].Key == cheapest.Offer {
			m.Offers[i].PriceLow *= 2
			m.Offers[i].PriceHigh *= 2
		}
	}
	repriced, _ := Recommend(in, m)
	for _, r := range repriced.Rankings[0].Rows {
		if r.Offer == cheapest.Offer && math.Abs(r.Value-cheapest.Value/2) > 0.01 {
			t.Errorf("%s at twice its price: value %v, want %v / 2", r.Offer, r.Value, cheapest.Value)
		}
	}
}

// The check a card set makes on each call sees every figure the key of a
// card records: changing any one of a card's scalar fields makes the
// check fail exactly when the key changes.
func TestCardSetCheckSeesEveryFigure(t *testing.T) {
	base := knowledge.MustShipped().GPUs[0]
	k := keyOfGPU(base)
	v := reflect.ValueOf(&base).Elem()
	recorded := 0
	for i := range v.NumField() {
		g := base
		f := reflect.ValueOf(&g).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "x")
		case reflect.Float64:
			f.SetFloat(f.Float() + 1)
		case reflect.Int:
			f.SetInt(f.Int() + 1)
		default:
			continue // lists (aliases, sources) are not figures
		}
		changed := keyOfGPU(g) != k
		if changed {
			recorded++
		}
		if k.same(&g) == changed {
			t.Errorf("field %s: key changed %v, but the check says same %v", v.Type().Field(i).Name, changed, k.same(&g))
		}
	}
	// id, name, vendor, tier, fabric and the eleven numbers.
	if recorded != 16 {
		t.Errorf("the key records %d of the card's fields, want 16", recorded)
	}
}

// Answers from the kept tables equal answers worked out afresh: the same
// questions over the shipped market and over a copy of it in new slices
// (no kept set, table or index matches) give identical results, in either
// order of currencies.
func TestRecommendFromTablesEqualsFresh(t *testing.T) {
	shipped := MarketOf(knowledge.MustShipped())
	ins := []RecommendInput{
		{Currency: knowledge.CNY},
		{Budget: Money{Amount: 20000}, Currency: knowledge.CNY},
		{Preset: PresetInference, Budget: Money{Amount: 5000}, Persona: "startup", Currency: knowledge.USD},
		{Preset: PresetFineTune, Budget: Money{Amount: 3000}, Persona: "enterprise", Currency: knowledge.USD, Limit: 3},
		{Workload: Workload{ParamsB: 13, Method: LoRA}, Currency: knowledge.USD, Where: OfferFilter{NoInterruptible: true}},
		{Workload: Workload{ParamsB: 405, Method: Inference}, Currency: knowledge.CNY, Spot: true},
		{Preset: PresetDiffusion, Currency: knowledge.CNY, Where: OfferFilter{Platform: "autodl"}},
	}
	for _, in := range ins {
		if _, err := Recommend(in, shipped); err != nil { // fills the tables
			t.Fatalf("%+v: %v", in, err)
		}
		warm, werr := Recommend(in, shipped) // from the kept tables
		cold, cerr := Recommend(in, freshMarket())
		if werr != nil || cerr != nil {
			t.Fatalf("%+v: error %v from the tables, %v afresh", in, werr, cerr)
		}
		if diff := cmp.Diff(cold, warm); diff != "" {
			t.Errorf("%+v: the tables' answer differs (-fresh +tables):\n%s", in, diff)
		}
	}
}

// The rounding table gives the figures math.Pow does.
func TestRoundMatchesPow(t *testing.T) {
	for _, f := range []float64{0, 1.005, 2.675, -3.14159, 1e-7, 123456.789, 0.1 + 0.2, 7.2 / 3, math.Pi * 1e5} {
		for n := range 10 {
			p := math.Pow(10, float64(n))
			if got, want := round(f, n), math.Round(f*p)/p; got != want {
				t.Errorf("round(%v, %d) = %v, want %v", f, n, got, want)
			}
		}
	}
}

// Numbers in formulas: whole numbers plain, one decimal from 100, else up
// to three; money with its sign and a minus before it.
func TestNumAndMoney(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{{3, "3"}, {1234.56, "1234.6"}, {0.12345, "0.123"}, {2.5, "2.5"}, {-0.5, "-0.5"}, {1e15, "1000000000000000.0"}} {
		if got := num(c.f); got != c.want {
			t.Errorf("num(%v) = %q, want %q", c.f, got, c.want)
		}
	}
	if got := money(-1.5, knowledge.CNY); got != "−¥1.5" {
		t.Errorf("money(-1.5, CNY) = %q", got)
	}
	if got := money(0.198, knowledge.USD); got != "$0.198" {
		t.Errorf("money(0.198, USD) = %q", got)
	}
}
