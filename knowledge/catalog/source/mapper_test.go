package source

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMapperResolve(t *testing.T) {
	m := mapper()
	tests := []struct {
		mem   float64
		names []string
		want  string
	}{
		{24, []string{"NVIDIA GeForce RTX 4090"}, "rtx4090"},
		{0, []string{"H100 SXM5"}, "h100-sxm"},
		{40, []string{"A100"}, "a100-40g"},
		{80, []string{"A100"}, "a100-80g"},
		{79.6, []string{"H100"}, "h100-sxm"},
		{93.6, []string{"H100"}, ""},   // an H100 NVL
		{48, []string{"RTX 4090"}, ""}, // a modified 48 GB board
		{0, []string{"Imaginary RTX 9999"}, ""},
		{0, []string{"nothing", "RTX 3090"}, "rtx3090"},
	}
	for _, tt := range tests {
		got, ok := m.Resolve(tt.mem, tt.names...)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Resolve(%v GiB, %q) = %q, %v; want %q", tt.mem, tt.names, got, ok, tt.want)
		}
	}
}

func TestParsePyLiteral(t *testing.T) {
	v, err := parsePyLiteral(`{'Gpus': [{'Name': 'V100', 'Manufacturer': 'NVIDIA', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384, 'x': (True, None, "it's")}`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"Gpus": []any{map[string]any{"Name": "V100", "Manufacturer": "NVIDIA", "Count": 8.0,
			"MemoryInfo": map[string]any{"SizeInMiB": 16384.0}}},
		"TotalGpuMemoryInMiB": 16384.0, "x": []any{true, nil, "it's"},
	}
	if d := cmp.Diff(want, v); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, bad := range []string{`{'a': }`, `{'a' 1}`, `{'a': 1`, `'open`, `{'a': 1} x`, `[1 2]`} {
		if _, err := parsePyLiteral(bad); err == nil {
			t.Errorf("parsePyLiteral(%q) accepted", bad)
		}
	}
}

func TestCountryOf(t *testing.T) {
	for in, want := range map[string]string{
		"Atlantis, AT": "AT", "Czechia, CZ, EU": "CZ", ", US, NA": "US", "St.-Petersburg, RU, EU": "RU",
		"Hong Kong, HK, AS": "HK", "US": "", "": "", "Texas, US": "US",
	} {
		if got := countryOf(in); got != want {
			t.Errorf("countryOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOfferKey(t *testing.T) {
	if got := offerKey("skypilot-vast", "h200", "4x-H200-32-65536", ", US, NA", "", "on_demand"); got != "skypilot-vast/h200/4x-h200-32-65536/us-na/on_demand" {
		t.Errorf("offerKey = %q", got)
	}
	long := offerKey(string(make([]byte, 0)), "x", string([]rune("y"))+string(make([]byte, 0)), longString(300))
	if len(long) > 160 {
		t.Errorf("long key is %d bytes", len(long))
	}
}

func longString(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a'
	}
	return string(b)
}
