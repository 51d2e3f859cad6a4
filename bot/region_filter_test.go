package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// "US only" keeps the offers listed in the US: the cheapest of those
// leads, never a cheaper one elsewhere or one whose region is not said;
// the answer counts what it left out. When none is listed there, the
// offers that name no region are shown, said so. Several cards: the
// cheapest leads ("which").
func TestRegionFilterAndCheapestCard(t *testing.T) {
	at := func(o knowledge.Offer, region string) knowledge.Offer {
		o.Currency, o.Region = knowledge.USD, region
		return o
	}
	b := rentalBot(
		at(hourly("a", "aws", "h100-sxm", 3.90, 3.90), "us-east-1"),
		at(hourly("b", "nebius", "h100-sxm", 2.00, 2.00), "eu-north1"),
		at(hourly("c", "vastai", "h100-sxm", 1.50, 1.50), ""), // no region said
		at(hourly("d", "nebius", "h200", 2.60, 2.60), "eu-north1"),
		at(hourly("e", "shadeform", "b200", 4.90, 4.90), "helsinki-finland-1"),
	)
	ask := func(q string) Answer {
		return b.Answer(context.Background(), Message{Text: q, Team: "T1", Channel: "D1", User: "U1"})
	}
	a := ask("cheapest H100 per hour, US only")
	if a.Typed == nil || a.Typed.Value == nil || *a.Typed.Value != 3.90 {
		t.Fatalf("US only: typed %+v, want $3.90 (AWS us-east-1)\n%s", a.Typed, a.Text)
	}
	if !strings.Contains(a.Text, "1 offers listed there; 1 that name no region left out; 1 elsewhere left out") {
		t.Errorf("US only: the filter's counts are not said:\n%s", a.Text)
	}
	if _, ok := a.Used["region"]; !ok {
		t.Errorf("region not used: %v", a.Used)
	}
	a = ask("H100 in Singapore per hour")
	if a.Typed == nil || a.Typed.Value == nil || *a.Typed.Value != 1.50 || !strings.Contains(a.Text, "no offer is listed there") {
		t.Errorf("Singapore: typed %+v, want the $1.50 offer that names no region, said so\n%s", a.Typed, a.Text)
	}
	a = ask("B200 vs H200, which is cheaper per hour? EU only")
	if a.Typed == nil || a.Typed.Asked != "which" || a.Typed.Choice != "h200" || *a.Typed.Value != 2.60 {
		t.Errorf("B200 vs H200: typed %+v, want which = h200 at $2.60\n%s", a.Typed, a.Text)
	}
	if !strings.HasPrefix(a.Headline, "Cheapest: H200") {
		t.Errorf("headline %q does not lead with the cheaper card", a.Headline)
	}
}
