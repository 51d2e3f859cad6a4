package advisor

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpubot/gpubot/knowledge"
)

// The engine keeps no state of its own (issue 27): every cache belongs to
// a value (a prepared Market, or one call), so no package-level variable
// holds a lock, a memo or a cache, and nothing imports unsafe.
func TestNoProcessWideState(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			if im.Path.Value == `"unsafe"` {
				t.Errorf("%s imports unsafe", name)
			}
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				typ := ""
				if vs.Type != nil {
					typ = types(vs.Type)
				}
				for _, v := range vs.Values {
					typ += " " + types(v)
				}
				for _, bad := range []string{"sync.", "noteMemo", "cache", "memo"} {
					if strings.Contains(typ, bad) {
						t.Errorf("%s: package-level %s holds state (%s)", fset.Position(vs.Pos()), vs.Names[0].Name, bad)
					}
				}
			}
		}
	}
}

// types is the type and value text of a declaration, for the check above.
func types(e ast.Expr) string {
	var b strings.Builder
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				b.WriteString(id.Name + "." + x.Sel.Name + " ")
			}
		case *ast.Ident:
			b.WriteString(x.Name + " ")
		}
		return true
	})
	return b.String()
}

// jsonOf is v as its JSON answer (a result's unexported call state aside).
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A prepared market answers exactly as a bare one (each call then makes
// its own cache) on the first call and on every later one.
func TestPreparedMarketSameAnswers(t *testing.T) {
	kb := knowledge.MustShipped()
	bare := Market{GPUs: kb.GPUs, Archs: kb.Archs, Offers: kb.Offers, Platforms: kb.Platforms, Guide: kb.Guide,
		Rows: kb.Procurement.Rows, Reserved: kb.Procurement.Reserved}
	prep := Prepare(bare)
	if bare.prep != nil || prep.prep == nil {
		t.Fatal("Prepare must attach a cache to its copy only")
	}
	costIn := CostInput{Workload: Workload{ParamsB: 13, Method: LoRA}, Samples: 1e5, Currency: knowledge.CNY}
	recIn := RecommendInput{Preset: PresetInference, Budget: Money{Amount: 5000}, Currency: knowledge.CNY}
	want, err := Cost(costIn, bare)
	if err != nil {
		t.Fatal(err)
	}
	wantRec, err := Recommend(recIn, bare)
	if err != nil {
		t.Fatal(err)
	}
	wantList, err := Offers("h100-sxm", kb.Offers, knowledge.USD, 7.2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // cold, then warm
		got, _ := Cost(costIn, prep)
		if d := cmp.Diff(jsonOf(t, want), jsonOf(t, got)); d != "" {
			t.Errorf("call %d: prepared cost differs (-bare +prepared):\n%s", i, d)
		}
		rec, _ := Recommend(recIn, prep)
		if d := cmp.Diff(wantRec, rec); d != "" {
			t.Errorf("call %d: prepared recommendation differs (-bare +prepared):\n%s", i, d)
		}
		list, _ := prep.PriceList("h100-sxm", knowledge.USD, 7.2)
		if d := cmp.Diff(wantList, list); d != "" {
			t.Errorf("call %d: prepared price list differs from Offers (-Offers +PriceList):\n%s", i, d)
		}
	}
	// Architectures swapped on a prepared market: its cache no longer
	// applies, and the call makes its own.
	swapped := prep
	swapped.Archs = append([]knowledge.Arch(nil), kb.Archs...)
	if swapped.engine() == prep.prep {
		t.Error("a market with other architectures used the prepared cache")
	}
	if prep.engine() != prep.prep {
		t.Error("a prepared market did not use its cache")
	}
}

// Market.Cheapest is Cheapest over the market's offers, for every card and
// filter the bot asks with.
func TestMarketCheapestIsCheapest(t *testing.T) {
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	for _, g := range kb.GPUs {
		for _, f := range []OfferFilter{{}, {NoInterruptible: true, NoMarketRange: true}, {Platform: "autodl"}, {NativeOnly: true, NoInterruptible: true}} {
			for _, cur := range []knowledge.Currency{knowledge.CNY, knowledge.USD} {
				want, wok, werr := Cheapest(g.ID, kb.Offers, cur, 7.2, f)
				got, gok, gerr := m.Cheapest(g.ID, cur, 7.2, f)
				if wok != gok || (werr == nil) != (gerr == nil) || cmp.Diff(want, got) != "" {
					t.Errorf("%s %+v %s: Market.Cheapest %+v (%v), Cheapest %+v (%v)", g.ID, f, cur, got, gok, want, wok)
				}
			}
		}
	}
}

// Market.Fit is Fit over the market's architectures, cold and warm.
func TestMarketFitIsFit(t *testing.T) {
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	for _, w := range []Workload{{ParamsB: 13, Method: LoRA}, {Model: "llama-3.1-70b", Bits: 8}, {ParamsB: 7, Method: Full, Batch: 4}} {
		want, err := Fit(w, kb.GPUs, kb.Archs)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			got, err := m.Fit(w, kb.GPUs)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(jsonOf(t, want), jsonOf(t, got)); d != "" {
				t.Errorf("%+v call %d: Market.Fit differs from Fit:\n%s", w, i, d)
			}
		}
	}
}

// Market.Card is Card over the market's architectures, cold and warm, for
// cards of one size asked in turn.
func TestMarketCardIsCard(t *testing.T) {
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	for _, id := range []string{"rtx4090", "rtx3090", "rtx4090", "h100-sxm", "v100"} {
		g, _ := kb.GPU(id)
		for _, n := range []int{1, 2} {
			want, err := Card(g, n, kb.Archs)
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.Card(g, n)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(jsonOf(t, want), jsonOf(t, got)); d != "" {
				t.Errorf("%d × %s: Market.Card differs from Card:\n%s", n, id, d)
			}
		}
	}
}
