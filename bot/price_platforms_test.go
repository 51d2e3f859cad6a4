package bot

import (
	"context"
	"math"
	"strings"
	"testing"
)

// The expected figures below are worked by hand from the shipped market
// data, not copied from a run:
//
//   - shared/market/offers.csv: Lambda A100 80GB gpu_8x_a100_80gb_sxm4
//     $14.32/h for 8 cards = $1.79/card-hour (its only A100 80GB row);
//     RunPod "1x A100 80GB PCIe" $1.19/card-hour on demand (its lowest).
//   - GCP H100 $4.57009/card-hour on demand (us-central1), Azure
//     NCadsH100v5 $6.98, AWS p5.48xlarge $98.32/8 = $12.29 (their lowest
//     on demand H100 rows).
//   - knowledge/data/offers.yaml: AutoDL RTX 4090 ¥1.8–2.5/card-hour on
//     demand (the lowest AutoDL 4090 on demand row shipped);
//     cn_cloud_prices.csv: AutoDL 4090 包月 ¥1,052 a month = ¥1.44/card-hour
//     over 730 h. 恒源云 (hengyuanyun) has no RTX 4090 row anywhere.

func close2(a, b float64) bool { return math.Abs(a-b) < 0.005 }

// "by how much?": RunPod undercuts Lambda by 1.79 − 1.19 = $0.60 a
// card-hour; 8 cards × 730 h = 5,840 card-hours, so the month costs
// 5,840 × 1.19 = $6,949.60 on RunPod, 5,840 × 1.79 = $10,453.60 on Lambda,
// and 5,840 × 0.60 = $3,504 less.
func TestPlatformsComparedByHowMuch(t *testing.T) {
	b := writersBot(t)
	a := b.Answer(context.Background(), Message{Text: "8xA100 for a month, lambda or runpod, by how much?"})
	v := priceView(t, a)
	if len(v.Compare) != 1 {
		t.Fatalf("compare %+v", v.Compare)
	}
	c := v.Compare[0]
	if c.GPU != "a100-80g" || c.Billing != "on_demand" || c.Cheaper != "runpod" || !close2(c.Difference, 0.60) {
		t.Fatalf("compare %+v", c)
	}
	if c.Cards != 8 || c.Hours != 730 || !close2(c.TotalDifference, 3504) || !close2(c.Rows[0].Total, 6949.60) || !close2(c.Rows[1].Total, 10453.60) {
		t.Errorf("rental: %d cards × %v h, difference %v, totals %v / %v", c.Cards, c.Hours, c.TotalDifference, c.Rows[0].Total, c.Rows[1].Total)
	}
	first := strings.SplitN(a.Text, "\n", 2)[0]
	for _, w := range []string{"RunPod is cheaper than Lambda Cloud", "$1.19 vs $1.79/card-hour", "$0.6 less per card-hour", "8 card(s) × 730 h", "$6,950 vs $10,454", "$3,504 less"} {
		if !strings.Contains(first, w) {
			t.Errorf("first line lacks %q:\n%s", w, a.Text)
		}
	}
	noIdenticalLines(t, a.Doc.List)
	if !strings.Contains(a.Used["platforms"], "RunPod") || !strings.Contains(a.Used["platforms"], "Lambda Cloud") {
		t.Errorf("used: %q", a.Used["platforms"])
	}
}

// The same in Chinese, with a named platform that has no price: AutoDL is
// the only one priced (¥1.8 on demand), 恒源云 is said to have none, and
// AutoDL's 包月 (¥1,052 ÷ 730 h = ¥1.44/card-hour) is said apart as not like
// for like. 100 h on one card at ¥1.8 = ¥180.
func TestPlatformWithoutAPriceIsSaid(t *testing.T) {
	b := writersBot(t)
	a := b.Answer(context.Background(), Message{Text: "恒源云和autodl哪个便宜，4090"})
	v := priceView(t, a)
	if len(v.Compare) != 1 {
		t.Fatalf("compare %+v", v.Compare)
	}
	c := v.Compare[0]
	if len(c.Rows) != 2 || c.Rows[0].Platform != "autodl" || c.Rows[0].Offer == nil || !close2(c.Rows[0].Offer.Price, 1.8) ||
		c.Rows[1].Platform != "hengyuanyun" || c.Rows[1].Offer != nil || c.Rows[1].Other != nil {
		t.Fatalf("rows %+v", c.Rows)
	}
	if c.Lower == nil || !c.Lower.Monthly || !close2(c.Lower.Price, 1052.0/730) {
		t.Errorf("lower %+v", c.Lower)
	}
	first := strings.SplitN(a.Text, "\n", 2)[0]
	for _, w := range []string{"只有 AutoDL 算力云 有 RTX 4090 报价", "¥1.8/卡时", "恒源云：目录里没有 RTX 4090 的价格", "包月", "¥1.44/卡时"} {
		if !strings.Contains(first, w) {
			t.Errorf("first line lacks %q:\n%s", w, a.Text)
		}
	}
	if !strings.Contains(a.Text, "恒源云 — 没有 RTX 4090 的报价") {
		t.Errorf("the list does not name 恒源云:\n%s", a.Text)
	}
	// used names 恒源云 as not priced, never as compared or shown
	u := a.Used["platforms"]
	compared, _, _ := strings.Cut(u, ";")
	if strings.Contains(compared, "Hengyuanyun") || !strings.Contains(u, "Hengyuanyun (no RTX 4090 price)") || strings.Contains(u, "shown") {
		t.Errorf("used: %q", u)
	}

	a = b.Answer(context.Background(), Message{Text: "RTX 4090 on hengyuanyun or autodl, which is cheaper?"})
	if !strings.Contains(a.Headline, "only AutoDL lists a price for RTX 4090") || !strings.Contains(a.Headline, "Hengyuanyun: no RTX 4090 price in the catalogue") {
		t.Errorf("english: %s", a.Headline)
	}
	a = b.Answer(context.Background(), Message{Text: "4090 租 100 小时，autodl 还是恒源云便宜"})
	if !strings.Contains(a.Headline, "1 张卡 × 100 小时：¥180") {
		t.Errorf("rental on the only one priced: %s", a.Headline)
	}
}

// "only AWS, GCP and Azure": only their offers, each named in the first
// line. GCP leads on demand at $4.57009; Azure is 6.98 − 4.57009 = $2.41
// more, AWS 12.29 − 4.57009 = $7.72 more. AWS's spot from $1.4748 (p5 at
// $11.798/8 in its cheapest region) is lower still, said apart.
func TestOnlyTheNamedPlatforms(t *testing.T) {
	b := writersBot(t)
	a := b.Answer(context.Background(), Message{Text: "H100 price, only AWS, GCP and Azure"})
	v := priceView(t, a)
	for _, o := range v.Offers {
		if o.Platform != "aws" && o.Platform != "gcp" && o.Platform != "azure" {
			t.Errorf("offer from %s", o.Platform)
		}
	}
	c := v.Compare[0]
	if c.Cheaper != "gcp" || len(c.Rows) != 3 || c.Rows[1].Platform != "azure" || !close2(c.Rows[1].More, 2.41) || c.Rows[2].Platform != "aws" || !close2(c.Rows[2].More, 7.72) {
		t.Fatalf("compare %+v", c)
	}
	first := strings.SplitN(a.Text, "\n", 2)[0]
	for _, w := range []string{"Google Cloud is the cheapest", "$4.57/card-hour", "Microsoft Azure $6.98 (+$2.41)", "Amazon Web Services from $12.29 (+$7.72)", "spot (interruptible) is lower still, from $1.47"} {
		if !strings.Contains(first, w) {
			t.Errorf("first line lacks %q:\n%s", w, a.Text)
		}
	}
	noIdenticalLines(t, a.Doc.List)

	// 仅限, in yuan at the answer's 7.2: Azure 6.98 × 7.2 = ¥50.26, AWS
	// 12.29 × 7.2 = ¥88.49, (12.29 − 6.98) × 7.2 = 5.31 × 7.2 = ¥38.23.
	a = b.Answer(context.Background(), Message{Text: "H100 仅限 AWS 和 Azure"})
	for _, o := range priceView(t, a).Offers {
		if o.Platform != "aws" && o.Platform != "azure" {
			t.Errorf("仅限: offer from %s", o.Platform)
		}
	}
	for _, w := range []string{"微软云 比 亚马逊云科技 便宜", "¥50.26 对 最低 ¥88.49/卡时", "每卡时便宜 ¥38.23"} {
		if !strings.Contains(a.Headline, w) {
			t.Errorf("仅限: headline lacks %q: %s", w, a.Headline)
		}
	}
}

// Named platforms that list none of the card: said first, then where it
// is priced; none is claimed as compared.
func TestNoNamedPlatformPricesTheCard(t *testing.T) {
	b := writersBot(t)
	a := b.Answer(context.Background(), Message{Text: "4090 恒源云和晨涧云哪个便宜"})
	if !strings.HasPrefix(a.Headline, "恒源云 和 晨涧云 都没有 RTX 4090 的报价；其他平台：") {
		t.Errorf("headline: %s", a.Headline)
	}
	if u := a.Used["platforms"]; strings.Contains(u, "compared:") {
		t.Errorf("used: %q", u)
	}
}

// One platform asked: each of its offers, an identical line once
// (RunPod's A100 80GB spot at $1.19 is listed for its 1-, 2-, 4- and
// 8-card machines alike: $2.38/2, $4.76/4, $9.52/8).
func TestIdenticalOfferLinesShownOnce(t *testing.T) {
	a := writersBot(t).Answer(context.Background(), Message{Text: "/gpu price a100 @runpod"})
	noIdenticalLines(t, a.Doc.List)
	if !strings.Contains(a.Text, "RunPod — $1.19 (spot, interruptible, dated: 2026-03-21") || !strings.Contains(a.Text, "· 8 regions · the same in 3 more offers") {
		t.Errorf("text:\n%s", a.Text)
	}
}

func noIdenticalLines(t *testing.T, list []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, l := range list {
		if seen[l] {
			t.Errorf("line twice: %q", l)
		}
		seen[l] = true
	}
}

// comparePlatforms on its own: like for like, a tie, a platform priced
// only another way, and the rental's difference.
func TestComparePlatformsKinds(t *testing.T) {
	od := func(p string, price float64) PriceOffer {
		return PriceOffer{Platform: p, GPU: "h100-sxm", Price: price, Currency: "USD", Billing: "on_demand"}
	}
	spot := od("c", 1.0)
	spot.Billing, spot.Interruptible = "spot", true
	offers := []PriceOffer{spot, od("a", 2.0), od("b", 2.0), od("d", 2.5)}
	c := comparePlatforms(offers, "h100-sxm", []string{"a", "b", "c", "e"}, kindOrder(false, ""), 2, 10, nil, offers)
	// a and b tie at $2.00 on demand: no cheaper, no difference; c has only
	// spot (not compared, but lower: said apart); e has nothing; d was
	// not named.
	if c.Billing != "on_demand" || c.Cheaper != "" || c.Difference != 0 || len(c.Rows) != 4 {
		t.Fatalf("%+v", c)
	}
	if c.Rows[2].Platform != "c" || c.Rows[2].Other == nil || c.Rows[3].Platform != "e" || c.Rows[3].Offer != nil || c.Rows[3].Other != nil {
		t.Errorf("rows %+v", c.Rows)
	}
	if c.Lower == nil || c.Lower.Platform != "c" {
		t.Errorf("lower %+v", c.Lower)
	}
	if line := compareLine("en", c, c.Platforms, ""); !strings.Contains(line, "cost the same") || !strings.Contains(line, "e: no") {
		t.Errorf("line %q", line)
	}
	// spot asked of a and d, which price only on demand: on demand is
	// compared, like for like.
	c = comparePlatforms(offers, "h100-sxm", []string{"a", "d"}, kindOrder(true, "spot"), 2, 10, nil, offers)
	// d − a = 2.5 − 2.0 = 0.50 a card-hour; 2 cards × 10 h × 0.50 = $10.
	if c.Billing != "on_demand" || c.Cheaper != "a" || !close2(c.Difference, 0.5) || !close2(c.TotalDifference, 10) {
		t.Errorf("%+v", c)
	}
}

// A region filter that leaves a named platform out says so, not "no
// price": Lambda's one A100 80GB row is listed at asia-northeast-1
// (offers.csv), outside the US; RunPod's $1.19 row names no region and is
// kept (the area filter's rule).
func TestNamedPlatformOutsideTheRegion(t *testing.T) {
	a := writersBot(t).Answer(context.Background(), Message{Text: "A100 US only, lambda or runpod?"})
	v := priceView(t, a)
	if len(v.Compare) != 1 || len(v.Compare[0].Rows) != 2 || !v.Compare[0].Rows[1].OutOfArea || v.Compare[0].Rows[1].Platform != "lambda" {
		t.Fatalf("compare %+v", v.Compare)
	}
	if !strings.Contains(a.Headline, "only RunPod lists a price for A100 80GB: $1.19/card-hour") || !strings.Contains(a.Headline, "Lambda Cloud: no A100 80GB price listed in the US") {
		t.Errorf("headline: %s", a.Headline)
	}
	if u := a.Used["platforms"]; !strings.Contains(u, "Lambda Cloud (no A100 80GB price in the region asked)") {
		t.Errorf("used: %q", u)
	}
}
