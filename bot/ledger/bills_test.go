package ledger

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpubot/gpubot/knowledge"
)

// billWant is what one provider export must book, worked out by hand from
// the fixture's rows (the arithmetic is in each case's comment).
type billWant struct {
	file      string
	platform  string
	booked    int   // entries booked (the repeated line is not)
	inFile    []int // rows flagged as repeating an earlier row
	gpu       Amounts
	nonGPU    Amounts
	refunds   Amounts
	total     Amounts
	cardHours float64
	byCost    map[string]Amounts
	byTeam    map[string]Amounts
	byCard    map[string]float64 // card-hours
}

// The fixtures in testdata/bills are written from each format's published
// column list: FOCUS 1.0 (FinOps Foundation; BilledCost, BillingCurrency,
// ChargePeriodStart/End, ChargeCategory, ConsumedQuantity/Unit, ProviderName,
// ResourceId, ServiceCategory/Name, SkuId, Tags), the AWS Cost and Usage
// Report (identity/LineItemId, lineItem/UsageStartDate, LineItemType,
// ProductCode, UsageType, UsageAmount, CurrencyCode, UnblendedCost,
// LineItemDescription, product/instanceType, pricing/term,
// resourceTags/user:*), the GCP standard billing export to BigQuery
// (service.description, sku.id/description, usage_start_time, project.name,
// labels, cost, currency, usage.amount/unit, usage.amount_in_pricing_units,
// credits, cost_type) and Aliyun's 明细账单 (账期, 财务单元, 产品, 产品明细,
// 消费类型, 服务时长, 时长单位, 实例ID, 实例规格, 计费项, 应付金额, 币种).
var billCases = []billWant{
	{
		// GPU: p4d 8 × A100 40GB × 24 h = 192 card-h, $786.54; p5 8 × H100 ×
		// 12 h = 96 card-h, $1,179.84 → $1,966.38, 288 card-h.
		// Non-GPU: S3 $23.00 + support $100.00 + tax $150.00 = $273.00.
		// Credit −$200.00. Total 1,966.38 + 273.00 − 200.00 = $2,039.38.
		// Row 8 repeats row 2 field for field.
		file: "focus_2026-11.csv", platform: "aws", booked: 6, inFile: []int{8},
		gpu: Amounts{knowledge.USD: 196638}, nonGPU: Amounts{knowledge.USD: 27300},
		refunds: Amounts{knowledge.USD: -20000}, total: Amounts{knowledge.USD: 203938}, cardHours: 288,
		byCost: map[string]Amounts{"gpu": {knowledge.USD: 196638}, CatStorage: {knowledge.USD: 2300},
			CatSupport: {knowledge.USD: 10000}, CatTax: {knowledge.USD: 15000}, "credit": {knowledge.USD: -20000}},
		// research: 786.54 + 23.00 = 809.54; platform: 1,179.84; none: 100 + 150 − 200 = 50.
		byTeam: map[string]Amounts{"research": {knowledge.USD: 80954}, "platform": {knowledge.USD: 117984}, "": {knowledge.USD: 5000}},
		byCard: map[string]float64{"a100-40g": 192, "h100-sxm": 96},
	},
	{
		// GPU: g5.xlarge 1 × A10G × 24 h = 24 card-h, $24.14; p4de 8 × A100
		// 80GB × 10 h = 80 card-h, $409.66 → $433.80, 104 card-h.
		// Non-GPU: tax $43.38 + data transfer $9.00 + EBS $40.00 = $92.38.
		// Credit −$50.00. Total 433.80 + 92.38 − 50.00 = $476.18.
		// Row 8 repeats line l1aa.
		file: "aws_cur_2026-11.csv", platform: "aws", booked: 6, inFile: []int{8},
		gpu: Amounts{knowledge.USD: 43380}, nonGPU: Amounts{knowledge.USD: 9238},
		refunds: Amounts{knowledge.USD: -5000}, total: Amounts{knowledge.USD: 47618}, cardHours: 104,
		byCost: map[string]Amounts{"gpu": {knowledge.USD: 43380}, CatTax: {knowledge.USD: 4338},
			CatNetwork: {knowledge.USD: 900}, CatStorage: {knowledge.USD: 4000}, "credit": {knowledge.USD: -5000}},
		// vision: 24.14 + 9.00 + 40.00 = 73.14; research: 409.66 − 50.00 = 359.66; none: tax 43.38.
		byTeam: map[string]Amounts{"vision": {knowledge.USD: 7314}, "research": {knowledge.USD: 35966}, "": {knowledge.USD: 4338}},
		byCard: map[string]float64{"a10g": 24, "a100-80g": 80},
	},
	{
		// GPU: A100 (Tesla A100 = 40GB) 24 GPU-h $70.41; L4 24 GPU-h $13.44 →
		// $83.85, 48 card-h. Non-GPU: A2 cores $21.12 + storage $5.20 + tax
		// $11.02 = $37.34. Credits: the A100 row's sustained-use discount
		// −$14.08 and an adjustment −$3.00 = −$17.08.
		// Total 83.85 + 37.34 − 17.08 = $104.11.
		file: "gcp_billing_2026-11.csv", platform: "gcp", booked: 7,
		gpu: Amounts{knowledge.USD: 8385}, nonGPU: Amounts{knowledge.USD: 3734},
		refunds: Amounts{knowledge.USD: -1708}, total: Amounts{knowledge.USD: 10411}, cardHours: 48,
		byCost: map[string]Amounts{"gpu": {knowledge.USD: 8385}, CatCompute: {knowledge.USD: 2112},
			CatStorage: {knowledge.USD: 520}, CatTax: {knowledge.USD: 1102}, "credit": {knowledge.USD: -1708}},
		// research: 70.41 − 14.08 + 21.12 + 5.20 − 3.00 = 79.65; platform 13.44; none: tax 11.02.
		byTeam: map[string]Amounts{"research": {knowledge.USD: 7965}, "platform": {knowledge.USD: 1344}, "": {knowledge.USD: 1102}},
		byCard: map[string]float64{"a100-40g": 24, "l4": 24},
	},
	{
		// GPU: gn7i-c8g1.2xlarge 1 × A10 × 48 h = 48 card-h, ¥534.48; a 包年
		// gn7i-c32g1.16xlarge (2 × A10, 1 年 = 12 months, hours unknown)
		// ¥96,000.00 → ¥96,534.48. Non-GPU: 云盘 ¥86.40 + 公网流量 ¥45.60 =
		// ¥132.00. Refund −¥120.00. Total 96,534.48 + 132.00 − 120.00 =
		// ¥96,546.48. Row 7 repeats row 2.
		file: "aliyun_2026-11.csv", platform: "aliyun", booked: 5, inFile: []int{7},
		gpu: Amounts{knowledge.CNY: 9653448}, nonGPU: Amounts{knowledge.CNY: 13200},
		refunds: Amounts{knowledge.CNY: -12000}, total: Amounts{knowledge.CNY: 9654648}, cardHours: 48,
		byCost: map[string]Amounts{"gpu": {knowledge.CNY: 9653448}, CatStorage: {knowledge.CNY: 8640},
			CatNetwork: {knowledge.CNY: 4560}, "credit": {knowledge.CNY: -12000}},
		// 算法组: 534.48 + 96,000 + 86.40 − 120.00 = 96,500.88; 平台组: 45.60.
		byTeam: map[string]Amounts{"算法组": {knowledge.CNY: 9650088}, "平台组": {knowledge.CNY: 4560}},
		byCard: map[string]float64{"a10-pcie": 48},
	},
}

func importBill(t *testing.T, l *Ledger, tm, file string) *ImportResult {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "bills", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := l.Import(context.Background(), tm, "UADMIN", f, file)
	if err != nil {
		t.Fatalf("Import(%s): %v", file, err)
	}
	return res
}

func TestImportProviderExports(t *testing.T) {
	for _, c := range billCases {
		t.Run(c.file, func(t *testing.T) {
			l, clk := newLedger(t, miniStore(t))
			clk.Set(time.Date(2026, 12, 1, 10, 0, 0, 0, l.Location()))
			tm := team(t)
			res := importBill(t, l, tm, c.file)
			if len(res.Errors) != 0 {
				t.Fatalf("row errors: %v\ncolumns %v\nignored %v", res.Errors, res.Columns, res.Ignored)
			}
			var dupRows []int
			for _, d := range res.InFile {
				dupRows = append(dupRows, d.Row)
			}
			check(t, "rows flagged as repeats", c.inFile, dupRows)
			if len(res.Added) != c.booked {
				t.Errorf("booked %d entries, want %d", len(res.Added), c.booked)
			}
			for _, e := range res.Added {
				if e.Platform != c.platform {
					t.Errorf("entry %s platform %q, want %q", e.ID, e.Platform, c.platform)
				}
			}
			r, err := l.Report(context.Background(), tm, Month{2026, time.November}, nil)
			if err != nil {
				t.Fatal(err)
			}
			check(t, "GPU", c.gpu, r.Total.GPU)
			check(t, "non-GPU", c.nonGPU, r.Total.NonGPU)
			check(t, "refunds", c.refunds, r.Total.Refunds)
			check(t, "total", c.total, r.Total.Amount)
			if r.Total.CardHours != c.cardHours {
				t.Errorf("card-hours %v, want %v", r.Total.CardHours, c.cardHours)
			}
			check(t, "by cost", c.byCost, groupAmounts(r.ByCost))
			check(t, "by team", c.byTeam, groupAmounts(r.ByTeam))
			cards := map[string]float64{}
			for _, g := range r.ByGPU {
				if g.CardHours > 0 {
					cards[g.Key] = g.CardHours
				}
			}
			check(t, "card-hours by card", c.byCard, cards)

			// Importing the same export again books nothing.
			again := importBill(t, l, tm, c.file)
			if len(again.Added) != 0 || len(again.Changed) != 0 || again.Unchanged != c.booked {
				t.Errorf("re-import: %d added, %d changed, %d unchanged; want 0, 0, %d", len(again.Added), len(again.Changed), again.Unchanged, c.booked)
			}
		})
	}
}

func groupAmounts(gs []Group) map[string]Amounts {
	out := map[string]Amounts{}
	for _, g := range gs {
		out[g.Key] = g.Amount
	}
	return out
}

// TestImportInstanceCards: instance types become their cards and counts,
// so a p4d hour is eight A100 40GB card-hours and its per-card price is
// the line ÷ 8 (a $32.77 line is $4.10 per card-hour, inside the sanity
// range, where one card would be "far above").
func TestImportInstanceCards(t *testing.T) {
	for _, c := range []struct {
		instance string
		want     Instance
	}{
		{"p4d.24xlarge", Instance{"a100-40g", 8}},
		{"p4de.24xlarge", Instance{"a100-80g", 8}},
		{"p5.48xlarge", Instance{"h100-sxm", 8}},
		{"g5.xlarge", Instance{"a10g", 1}},
		{"g5.48xlarge", Instance{"a10g", 8}},
		{"g6.12xlarge", Instance{"l4", 4}},
		{"ecs.gn7i-c8g1.2xlarge", Instance{"a10-pcie", 1}},
		{"a2-highgpu-8g", Instance{"a100-40g", 8}},
		{"USE1-BoxUsage:p5.48xlarge", Instance{"h100-sxm", 8}},
	} {
		got, _, ok := InstanceOf(c.instance)
		if !ok || got != c.want {
			t.Errorf("InstanceOf(%q) = %+v, %v; want %+v", c.instance, got, ok, c.want)
		}
	}
	if _, fam, ok := InstanceOf("p4d.12xlarge"); ok || fam != "p4d" {
		t.Errorf("an unlisted p4d size: ok %v family %q; want refused as family p4d", ok, fam)
	}

	l, clk := newLedger(t, miniStore(t))
	clk.Set(time.Date(2026, 12, 1, 10, 0, 0, 0, l.Location()))
	tm := team(t)
	// Header aliases with units: cost_usd is dollars, GPU Qty the cards,
	// Usage Hours the wall-clock hours, Cost Center the team.
	csv := "Date,Instance Type,GPU Qty,Usage Hours,cost_usd,Cost Center\n" +
		"2026-11-03,p4d.24xlarge,8,10,327.73,Research\n" +
		"2026-11-03,p4d.12xlarge,,10,163.00,Research\n"
	res := importString(t, l, tm, csv)
	if len(res.Added) != 1 || len(res.Errors) != 1 || res.Errors[0].Row != 3 {
		t.Fatalf("added %d, errors %v; want row 2 booked and row 3 refused (unknown size)", len(res.Added), res.Errors)
	}
	e := res.Added[0]
	want := Entry{GPU: "a100-40g", Cards: 8, Hours: 10, Amount: usd(32773), CostCenter: "research"}
	got := Entry{GPU: e.GPU, Cards: e.Cards, Hours: e.Hours, Amount: e.Amount, CostCenter: e.CostCenter}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("p4d line (-want +got):\n%s", d)
	}
}

// TestUsagePerCardBillLines: eight per-card lines of one H100 each for the
// same 168 hours are eight cards at 168 h each, not one card at 1,344 h
// (which /gpu monthly refused as "must be between 0 and 744").
func TestUsagePerCardBillLines(t *testing.T) {
	loc := Shanghai
	from := time.Date(2026, 11, 1, 0, 0, 0, 0, loc)
	to := from.Add(WindowHours * time.Hour)
	var es []Entry
	for range 8 {
		es = append(es, Entry{GPU: "h100-sxm", Cards: 1, Hours: 168, At: from.AddDate(0, 0, 2), Kind: Spend, Source: "csv:0123456789ab"})
	}
	// Two jobs typed on one day on one 4090 stay one card.
	es = append(es, Entry{GPU: "rtx4090", Cards: 1, Hours: 10, At: from.Add(24 * time.Hour), Kind: Spend, Source: SourceSlack},
		Entry{GPU: "rtx4090", Cards: 1, Hours: 5, At: from.Add(24 * time.Hour), Kind: Spend, Source: SourceSlack})
	us := UsageOf(es, from, to, nil)
	got := map[string][2]float64{}
	for _, u := range us {
		got[u.GPU] = [2]float64{float64(u.Cards), u.CardHours / float64(u.Cards)}
	}
	// H100: 8 × 168 = 1,344 card-h on 8 cards = 168 h per card.
	// 4090: 10 + 5 = 15 card-h on 1 card = 15 h.
	check(t, "cards and hours per card", map[string][2]float64{"h100-sxm": {8, 168}, "rtx4090": {1, 15}}, got)
}

// The Aliyun bill's 包年 line (¥96,000.00 for 1 年 = 12 months) is billed
// in November and amortised at ¥8,000.00 a month: November's amortised
// total is 96,546.48 − 96,000.00 + 8,000.00 = ¥8,546.48, December's
// ¥8,000.00, and the plan renews on 2027-11-01.
func TestPrepaidTermIsAmortised(t *testing.T) {
	ctx := context.Background()
	l, clk := newLedger(t, miniStore(t))
	clk.Set(time.Date(2026, 12, 1, 10, 0, 0, 0, l.Location()))
	tm := team(t)
	importBill(t, l, tm, "aliyun_2026-11.csv")
	nov, err := l.Report(ctx, tm, Month{2026, time.November}, nil)
	if err != nil {
		t.Fatal(err)
	}
	check(t, "November amortised", Amounts{knowledge.CNY: 854648}, nov.Amortised)
	dec, _ := l.Report(ctx, tm, Month{2026, time.December}, nil)
	check(t, "December amortised", Amounts{knowledge.CNY: 800000}, dec.Amortised)
	cs, err := l.Commitments(ctx, tm, clk.Now())
	if err != nil || len(cs) != 1 {
		t.Fatalf("commitments %+v, %v; want the 包年 plan", cs, err)
	}
	if c := cs[0]; c.PerMonth != cny(800000) || c.Renews.Format("2006-01-02") != "2027-11-01" || c.MonthsUse != 2 || c.Entry.Cards != 2 {
		t.Errorf("commitment %+v; want ¥8,000.00 a month, renews 2027-11-01, month 2 of 12, 2 cards", c)
	}
}
