package knowledge

import "testing"

// Region ids and labels as the market snapshot writes them, read by hand.
func TestAreaOf(t *testing.T) {
	for _, c := range []struct{ region, label, platformRegion, want string }{
		{"us-east-1", "", "global", AreaUS},
		{"us-east-1/use1-az4", "", "global", AreaUS},
		{"centralus", "", "global", AreaUS},
		{"eastus", "", "global", AreaUS},
		{"dallas-usa-1", "", "global", AreaUS},
		{"", "Florida, US, NA", "global", AreaUS},
		{"", "Dallas, Texas, United States", "global", AreaUS},
		{"eu-north1", "", "global", AreaEU},
		{"", "Germany, DE, EU", "global", AreaEU},
		{"DE - FRA2", "", "global", AreaEU},
		{"no-kristiansand-1", "", "global", AreaEU},
		{"Europe-PL", "", "global", AreaEU},
		{"fr-par", "", "global", AreaEU},
		{"helsinki-finland-1", "", "global", AreaEU},
		{"ca-montreal-3", "", "global", AreaCA},
		{"CA - CANADA-1", "", "global", AreaCA},
		{"tor1", "", "global", AreaCA},
		{"asia-southeast1", "", "global", AreaSG},
		{"ap-northeast-1", "", "global", AreaAP},
		{"", "Japan, JP, AS", "global", AreaAP},
		{"au-melbourne-1", "", "global", AreaOC},
		{"af-south-1", "", "global", AreaXX},
		{"za-centurion-1", "", "global", AreaXX},
		{"CA", "", "global", ""}, // RunPod's bare "CA": Canada or California — not guessed
		{"", "", "global", ""},
		{"UNSPECIFIED", "", "global", ""},
		{"", "", "cn", AreaCN},
	} {
		if got := AreaOf(Offer{Region: c.region, RegionLabel: c.label}, c.platformRegion); got != c.want {
			t.Errorf("%q %q: %q, want %q", c.region, c.label, got, c.want)
		}
	}
}

func TestInArea(t *testing.T) {
	for _, c := range []struct {
		area, want  string
		in, unknown bool
	}{
		{AreaUS, AreaUS, true, false},
		{AreaEU, AreaUS, false, false},
		{"", AreaUS, true, true}, // not stated: kept, and said so
		{"", AreaCN, false, false},
		{AreaCN, AreaCN, true, false},
		{AreaSG, AreaAP, true, false},
	} {
		if in, unknown := InArea(c.area, c.want); in != c.in || unknown != c.unknown {
			t.Errorf("InArea(%q, %q) = %v, %v", c.area, c.want, in, unknown)
		}
	}
}
