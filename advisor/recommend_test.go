package advisor

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpubot/gpubot/knowledge"
)

// The cost-performance report's fine-tune table with its own scores: it
// ranks by nothing in particular. Sorting its rows by its own value column
// (score ÷ $/h) gives another order.
func TestSeedFineTuneRankingIsNotSorted(t *testing.T) {
	rows := []struct {
		platform     string
		price, score float64
	}{ // in the report's order
		{"Vast.ai H100", 1.5, 95}, {"RunPod H100", 2.5, 98}, {"GCP spot A100", 0.7, 80}, {"Voltage Park A100", 1.5, 82}, {"AWS spot H100", 1.0, 95},
	}
	value := func(i int) float64 { return rows[i].score / rows[i].price }
	// 95/1.5 = 63.3, 98/2.5 = 39.2, 80/0.7 = 114.3, 82/1.5 = 54.7, 95/1 = 95.
	if sort.SliceIsSorted(rows, func(a, b int) bool { return value(a) > value(b) }) {
		t.Fatalf("the report's table is sorted by its value after all")
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].score/rows[a].price > rows[b].score/rows[b].price })
	want := []string{"GCP spot A100", "AWS spot H100", "Vast.ai H100", "Voltage Park A100", "RunPod H100"}
	var got []string
	for _, r := range rows {
		got = append(got, r.platform)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the report's rows by its own value (-want +got):\n%s", diff)
	}
}

func seedOffers() []knowledge.Offer {
	return []knowledge.Offer{
		hourly("vast-h100", "vastai", "h100-sxm", 1.5, 1.5, knowledge.USD, knowledge.OnDemand),
		hourly("runpod-h100", "runpod", "h100-sxm", 2.5, 2.5, knowledge.USD, knowledge.OnDemand),
		hourly("gcp-a100", "gcp", "a100-80g", 0.7, 0.7, knowledge.USD, knowledge.Spot),
		hourly("voltage-a100", "voltage-park", "a100-80g", 1.5, 1.5, knowledge.USD, knowledge.OnDemand),
		hourly("aws-h100", "aws", "h100-sxm", 1.0, 1.0, knowledge.USD, knowledge.Spot),
		hourly("lambda-h100", "lambda", "h100-sxm", 2.8, 2.8, knowledge.USD, knowledge.OnDemand),
		hourly("vast-4090", "vastai", "rtx4090", 0.15, 0.15, knowledge.USD, knowledge.OnDemand),
		hourly("runpod-4090", "runpod", "rtx4090", 0.25, 0.25, knowledge.USD, knowledge.OnDemand),
		hourly("gcp-l4", "gcp", "l4", 0.25, 0.25, knowledge.USD, knowledge.Spot),
		hourly("aws-a10g", "aws", "a10g", 0.30, 0.30, knowledge.USD, knowledge.Spot),
		hourly("vast-a100-40", "vastai", "a100-40g", 1.0, 1.0, knowledge.USD, knowledge.OnDemand),
		hourly("cn-3080ti", "cn-market", "rtx3080ti", 0.88, 0.98, knowledge.CNY, knowledge.OnDemand),
	}
}

func TestRecommendRankingsSortedByValue(t *testing.T) {
	m := testMarket(t, seedOffers()...)
	r, err := Recommend(RecommendInput{Currency: knowledge.USD, Limit: 50}, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rankings) != 3 {
		t.Fatalf("Recommend() rankings = %d, want the report's three workloads", len(r.Rankings))
	}
	for _, rk := range r.Rankings {
		if len(rk.Rows) == 0 {
			t.Fatalf("%s: no rows", rk.Workload)
		}
		for i, row := range rk.Rows {
			if row.Rank != i+1 {
				t.Errorf("%s row %d rank = %d", rk.Workload, i, row.Rank)
			}
			if !near(row.Value, row.Score/row.Price, 0.002*row.Value+0.01) { // the score is shown to 2 decimals
				t.Errorf("%s %s value = %v, want score %v ÷ price %v", rk.Workload, row.Offer, row.Value, row.Score, row.Price)
			}
			if i > 0 && row.Value > rk.Rows[i-1].Value {
				t.Errorf("%s not sorted by value: %s (%v) after %s (%v)", rk.Workload, row.Offer, row.Value, rk.Rows[i-1].Offer, rk.Rows[i-1].Value)
			}
		}
		if rk.ScoreHow.EN == "" || rk.ScoreHow.ZH == "" {
			t.Errorf("%s: the ranking does not say how scores are made", rk.Workload)
		}
	}
}

func TestRecommendDiffusionScores(t *testing.T) {
	m := testMarket(t, seedOffers()...)
	for id, tf := range map[string]float64{"rtx4090": 165.2, "a100-40g": 312, "l4": 121, "a10g": 70, "h100-sxm": 989} {
		wantSpec(t, m, id, "peak TFLOPS", peak, tf)
	}
	r, err := Recommend(RecommendInput{Preset: PresetDiffusion, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	// Score = 100 × TFLOPS × full-training MFU ÷ (989 × 0.35); consumer and
	// workstation cards use MFU 0.30, A100-class cards 0.40, H100-class 0.35.
	want := map[string]float64{
		"rtx4090":  100 * 165.2 * 0.30 / (989 * 0.35), // 14.3
		"a100-40g": 100 * 312 * 0.40 / (989 * 0.35),   // 36.1
		"l4":       100 * 121 * 0.30 / (989 * 0.35),   // 10.5
		"a10g":     100 * 70 * 0.30 / (989 * 0.35),    // 6.1
		"h100-sxm": 100,
	}
	rk := r.Rankings[0]
	for _, row := range rk.Rows {
		if w, ok := want[row.GPU]; ok && !near(row.Score, w, 0.05) {
			t.Errorf("Recommend(diffusion) %s score = %v, want %.1f", row.GPU, row.Score, w)
		}
	}
	// The best score per dollar: AWS spot H100, 100 ÷ $1 = 100, then the
	// 4090 at $0.15, 14.32 ÷ 0.15 = 95.5.
	if top, next := rk.Rows[0], rk.Rows[1]; top.Offer != "aws-h100" || !near(top.Value, 100, 0.01) ||
		next.Offer != "vast-4090" || !near(next.Value, 100*165.2*0.30/(989*0.35)/0.15, 0.05) {
		t.Errorf("Recommend(diffusion) top two = %s (%v), %s (%v); want aws-h100 (100), vast-4090 (%.1f)", top.Offer, top.Value, next.Offer, next.Value, 100*165.2*0.30/(989*0.35)/0.15)
	}
	// A 12 GB 3080 Ti is below the 24 GB floor: excluded, not ranked.
	excluded := false
	for _, x := range rk.Excluded {
		excluded = excluded || x.GPU == "rtx3080ti"
	}
	for _, row := range rk.Rows {
		if row.GPU == "rtx3080ti" {
			t.Errorf("Recommend(diffusion) ranked a 12 GB card")
		}
	}
	if !excluded {
		t.Errorf("Recommend(diffusion) did not list the 3080 Ti as excluded")
	}
}

func TestRecommendInferenceReferenceIs100(t *testing.T) {
	m := testMarket(t, seedOffers()...)
	r, err := Recommend(RecommendInput{Preset: PresetInference, Currency: knowledge.USD, Limit: 50}, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Rankings[0].Rows {
		if row.GPU == "h100-sxm" && row.Score != 100 {
			t.Errorf("Recommend(inference) H100 score = %v, want 100", row.Score)
		}
		// $/M = price ÷ (tokens/s per card × 3600) × 10⁶, so for one card type
		// it scales with the price: vast $1.5 vs lambda $2.8.
		if row.Offer == "lambda-h100" {
			for _, o := range r.Rankings[0].Rows {
				if o.Offer == "vast-h100" && !near(row.PerMTokens/o.PerMTokens, 2.8/1.5, 0.01) {
					t.Errorf("$/M lambda ÷ vast = %v, want %.3f", row.PerMTokens/o.PerMTokens, 2.8/1.5)
				}
			}
		}
	}
}

func TestRecommendPlansAndPersona(t *testing.T) {
	m := testMarket(t, seedOffers()...)
	// No persona: the three plans.
	r, err := Recommend(RecommendInput{Preset: PresetDiffusion, Budget: usd(500), Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, pl := range r.Plans {
		kinds = append(kinds, pl.Kind)
	}
	if diff := cmp.Diff([]string{PlanBudget, PlanBalanced, PlanEnterprise}, kinds); diff != "" {
		t.Fatalf("Recommend(budget) plan kinds (-want +got):\n%s", diff)
	}
	// Budget: the top value row, spot H100 at $1: 100 h default × $1 = $100,
	// $500 buys 500 h.
	b := r.Plans[0]
	if b.Kind != PlanBudget || b.Offer != "aws-h100" || !b.Interruptible || !near(b.MonthlyCost, 100, 0.01) || !near(b.HoursAffordable, 500, 0.1) || !b.WithinBudget {
		t.Errorf("budget plan = %+v, want aws-h100 (spot), $100 for 100 h, 500 h affordable", b)
	}
	// Balanced: best value that cannot be interrupted, the 4090 at $0.15
	// (83.5, against vast's H100 at 100 ÷ 1.5 = 66.7): $15 for 100 h.
	if bal := r.Plans[1]; bal.Interruptible || bal.Offer != "vast-4090" || !near(bal.MonthlyCost, 15, 0.01) || !near(bal.HoursAffordable, 500/0.15, 0.1) {
		t.Errorf("balanced plan = %+v, want vast-4090, $15 for 100 h", bal)
	}
	// Enterprise: the fastest datacenter card on demand from a cloud one
	// contracts with: an H100 (score 100). Vast.ai is a marketplace, so
	// RunPod at $2.5 (better value than Lambda at $2.8): $250 for 100 h.
	e := r.Plans[2]
	if e.Kind != PlanEnterprise || e.GPU != "h100-sxm" || e.Offer != "runpod-h100" || !near(e.MonthlyCost, 250, 0.01) {
		t.Errorf("enterprise plan = %+v, want runpod-h100 at $250 for 100 h", e)
	}
	if !hasDefault(r.Inputs.Defaulted, "hours_per_month") {
		t.Errorf("Recommend defaulted = %v, want hours_per_month", r.Inputs.Defaulted)
	}
	// An individual gets one plan, the cheapest capable card on a retail
	// platform (Vast.ai's 4090 at $0.15), and the guide's advice.
	r, err = Recommend(RecommendInput{Preset: PresetDiffusion, Budget: usd(500), Persona: "个人", Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Plans) != 1 || r.Plans[0].Offer != "vast-4090" {
		t.Errorf("individual plans = %+v, want one: vast-4090", r.Plans)
	}
	if r.Persona == nil || r.Persona.Persona != PersonaIndividual || r.Persona.Body.ZH == "" {
		t.Errorf("persona = %+v, want the individual developer advice in both languages", r.Persona)
	}
}

func TestRecommendStatedWorkloadExcludesWhatCannotFit(t *testing.T) {
	m := testMarket(t, seedOffers()...)
	r, err := Recommend(RecommendInput{Workload: Workload{ParamsB: 70, Method: Full}, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	rk := r.Rankings[0]
	// 70B full training needs 16 bytes a parameter: over 1 TB, more than
	// one 8-card machine of any card in the catalogue but the largest.
	for _, row := range rk.Rows {
		if row.Cards > MaxReplicaCards || row.Cards == 0 {
			t.Errorf("ranked %s with %d cards", row.GPU, row.Cards)
		}
	}
	found := false
	for _, x := range rk.Excluded {
		found = found || x.GPU == "rtx4090"
	}
	if !found {
		t.Errorf("70B full: RTX 4090 not excluded: %+v", rk.Excluded)
	}
}

func TestPersona(t *testing.T) {
	guide := knowledge.MustShipped().Guide
	for in, want := range map[string]string{"individual": PersonaIndividual, "学生": PersonaIndividual, "初创团队": PersonaStartup, "Enterprise": PersonaEnterprise, "高校": PersonaEnterprise} {
		a, err := Persona(in, guide)
		if err != nil {
			t.Fatalf("Persona(%q): %v", in, err)
		}
		if a.Persona != want || a.Title.EN == "" || a.Body.EN == "" {
			t.Errorf("Persona(%q) = %+v, want %s advice", in, a, want)
		}
	}
	_, err := Persona("wizard", guide)
	wantInputErr(t, "Persona(wizard)", err, "persona")
}

func TestRecommendInputErrors(t *testing.T) {
	m := testMarket(t, seedOffers()...)
	_, err := Recommend(RecommendInput{Preset: "crypto"}, m)
	wantInputErr(t, "Recommend(crypto)", err, "workload")
	_, err = Recommend(RecommendInput{Budget: Money{Amount: -5}}, m)
	wantInputErr(t, "Recommend(budget -5)", err, "budget")
}

// Plans respect the persona: an enterprise gets only contracted,
// non-interruptible providers; an individual one retail plan; and plans
// say how many cards the budget keeps running.
func TestRecommendPlansRespectPersona(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	for _, persona := range []string{PersonaEnterprise, PersonaIndividual, PersonaStartup} {
		r, err := Recommend(RecommendInput{Preset: PresetInference, Persona: persona, Budget: Money{Amount: 50000}, HoursPerMonth: 300, Currency: knowledge.CNY}, m)
		if err != nil {
			t.Fatalf("%s: %v", persona, err)
		}
		if len(r.Plans) == 0 {
			t.Fatalf("%s: no plan", persona)
		}
		for _, pl := range r.Plans {
			p, _ := m.platform(pl.Platform)
			switch persona {
			case PersonaEnterprise:
				if pl.Interruptible || (p.Category != knowledge.Hyperscaler && p.Category != knowledge.CNCloud && p.Category != knowledge.GPUCloud) {
					t.Errorf("enterprise plan on %s (%s, interruptible %v)", pl.Platform, p.Category, pl.Interruptible)
				}
			case PersonaIndividual:
				if len(r.Plans) != 1 || (p.Category != knowledge.CNRetail && p.Category != knowledge.Marketplace && p.Category != knowledge.GPUCloud) {
					t.Errorf("individual plans %d, on %s (%s)", len(r.Plans), pl.Platform, p.Category)
				}
			case PersonaStartup:
				if pl.Interruptible {
					t.Errorf("startup serving plan on interruptible capacity: %+v", pl)
				}
			}
			// Cards the budget runs: ⌊budget ÷ (hourly × hours)⌋ jobs × cards.
			if want := int(50000/(pl.Hourly*300)) * pl.Cards; pl.CardsAffordable != want {
				t.Errorf("%s cards affordable = %d, want %d", persona, pl.CardsAffordable, want)
			}
		}
	}
}

// A 405B model in BF16 (810 GB of weights) does not fit one 8 × H100
// machine, the reference card: it is still ranked, H100 scoring against a
// 16-card replica and listed as excluded, while the cards that hold it in
// one machine rank above 100 (faster per card than an H100 split over two
// machines), and H200 (8 × 141 GB) is not excluded.
func TestRecommendReferenceNeedsTwoMachines(t *testing.T) {
	m := testMarket(t, hourly("h200", "lambda", "h200", 3.5, 3.5, knowledge.USD, knowledge.OnDemand),
		hourly("h100", "lambda", "h100-sxm", 2.5, 2.5, knowledge.USD, knowledge.OnDemand))
	res, err := Recommend(RecommendInput{Workload: Workload{ParamsB: 405, Method: Inference}, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatalf("recommend 405b inference: %v", err)
	}
	rk := res.Rankings[0]
	out := map[string]bool{}
	for _, e := range rk.Excluded {
		out[e.GPU] = true
	}
	if !out["h100-sxm"] || out["h200"] || len(rk.Rows) == 0 {
		t.Fatalf("excluded %v, %d rows: want H100 out, H200 in, some rows", out, len(rk.Rows))
	}
	for _, r := range rk.Rows {
		if r.Score <= 100 {
			t.Errorf("%s scores %v, want above the two-machine H100 reference (100)", r.GPU, r.Score)
		}
	}
}
