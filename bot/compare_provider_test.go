package bot

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/advisor"
)

// A compare row names a market-snapshot provider by its display name, the
// reserved one with its term, never by its raw id.
func TestCompareRowNamesProviders(t *testing.T) {
	row := advisor.CompareRow{Name: "H100 SXM", PriceLow: 1.5, PriceHigh: 1.5,
		OnDemand: &advisor.RowPrice{Platform: "primeintellect", Price: 1.5},
		Reserved: &advisor.RowPrice{Platform: "packet_ai", Price: 1.2, TermLabel: &advisor.Text{EN: "1 year", ZH: "1 年"}}}
	got := compareRow("en", "USD", row)
	for _, want := range []string{"on demand from $1.5 (Prime Intellect)", "reserved from $1.2 (Packet AI, 1 year)"} {
		if !strings.Contains(got, want) {
			t.Errorf("row %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "primeintellect") || strings.Contains(got, "packet_ai") {
		t.Errorf("raw provider id in %q", got)
	}
	if zh := compareRow("zh", "CNY", row); !strings.Contains(zh, "预留低至") || !strings.Contains(zh, "1 年") {
		t.Errorf("zh row %q", zh)
	}
}
