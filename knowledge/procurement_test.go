package knowledge

import (
	"strings"
	"testing"
)

// Every shipped procurement row keeps its source, its date and a
// confidence grade (readCSV refuses a file that does not); ranges stay
// ranges.
func TestProcurementRowsKeepProvenance(t *testing.T) {
	b := MustShipped()
	p := b.Procurement
	// Row counts of reference/procurement (NOTES: 115, 75, 109, 116 rows),
	// plus two H200 on-demand rows added 2026-12-02 (Nebius docs, Mercatus),
	// and the round-5 gap rows: 9 reserved (CoreWeave H200/H100/A100 page
	// of 2026-09-20, AWS g5.xlarge A10G, five MI300X rows) and 3 purchase
	// (RTX 3060 new and two used ranges), and 4 RTX 4060 Ti 16GB purchase
	// rows (CraftRigs new and used, RunLocalAI new, convly used; 2026-12-02).
	if len(p.Purchases) != 122 || len(p.Reserved) != 86 || len(p.CNCloud) != 109 || len(p.APIs) != 116 {
		t.Fatalf("rows: purchase %d reserved %d cn %d api %d, want 122 86 109 116", len(p.Purchases), len(p.Reserved), len(p.CNCloud), len(p.APIs))
	}
	check := func(what string, pv Provenance) {
		t.Helper()
		if pv.SourceTitle == "" || pv.SourceURL == "" || pv.Date == "" {
			t.Errorf("%s: source %q url %q date %q", what, pv.SourceTitle, pv.SourceURL, pv.Date)
		}
		if pv.Confidence != High && pv.Confidence != Medium && pv.Confidence != Low {
			t.Errorf("%s: confidence %q", what, pv.Confidence)
		}
	}
	for _, r := range p.Purchases {
		check(r.Item, r.Provenance)
	}
	for _, r := range p.Reserved {
		check(r.Provider+" "+r.Instance, r.Provenance)
	}
	for _, r := range p.CNCloud {
		check(r.Platform+" "+r.Card, r.Provenance)
	}
	for _, r := range p.APIs {
		check(r.Provider+" "+r.Model, r.Provenance)
	}
	// Ranges stay ranges: the first H100 SXM row is "25000-30000" (TechSpot).
	if r := p.Purchases[0]; r.GPU != "h100-sxm" || r.Low != 25000 || r.High != 30000 {
		t.Errorf("first purchase row: %s %v–%v, want h100-sxm 25000–30000", r.GPU, r.Low, r.High)
	}
	// A CN row recorded at its lower bound gets its note's range back:
	// AutoDL 4090 "range ¥1.2–2.7/时" (2026-08 调研).
	found := false
	for _, r := range p.CNCloud {
		if r.PlatformID == "autodl" && r.GPU == "rtx4090" && r.Low == 1.2 {
			found = r.High == 2.7
		}
	}
	if !found {
		t.Error("AutoDL 4090 ¥1.2 row should carry its note's range up to ¥2.7")
	}
}

func TestParseRange(t *testing.T) {
	for _, c := range []struct {
		in     string
		lo, hi float64
		bad    bool
	}{{"25000", 25000, 25000, false}, {"3.90-4.10", 3.9, 4.1, false}, {"1,400,000", 1400000, 1400000, false}, {"5-3", 0, 0, true}, {"abc", 0, 0, true}} {
		lo, hi, err := ParseRange(c.in)
		if (err != nil) != c.bad || lo != c.lo || hi != c.hi {
			t.Errorf("ParseRange(%q) = %v, %v, %v", c.in, lo, hi, err)
		}
	}
}

func TestCardID(t *testing.T) {
	for in, want := range map[string]string{
		"H100 SXM": "h100-sxm", "H100 PCIe": "h100-pcie", "A100 40GB (NVLink)": "a100-40g", "A100 80GB PCIe": "a100-80g",
		"RTX 4090D": "rtx4090d", "RTX 4090 24GB": "rtx4090", "H20 141GB 8-GPU module": "h20-141g", "H200 8-GPU module (HGX)": "h200",
		"V100 32GB (source says A100 40GB)": "v100-sxm2", "A10 24GB": "a10-pcie", "Ascend 910B 8-chip server (910B 8卡)": "ascend-910b",
		"RTX 5090D V2": "", "Ada 48GB (ada.1)": "", "A10G 24GB": "a10g", "RTX 3060 12GB": "rtx3060", "RTX 3060 Ti": "",
	} {
		if got := CardID(in); got != want {
			t.Errorf("CardID(%q) = %q, want %q", in, got, want)
		}
	}
}

// The Chinese platforms are platforms, by their Chinese and English names,
// and their rows are offers: Tencent's A100 40GB 包月 is ¥13,748 a month
// for one card (qcloud-documents @8ec0729).
func TestChinesePlatformsAndOffers(t *testing.T) {
	b := MustShipped()
	for name, id := range map[string]string{"阿里云": "aliyun", "腾讯云": "tencent-cloud", "火山引擎": "volcengine", "volcano engine": "volcengine",
		"华为云": "huawei-cloud", "百度智能云": "baidu-cloud", "恒源云": "hengyuanyun", "gpushare": "hengyuanyun", "矩池云": "matpool", "matpool": "matpool",
		"算家云": "suanjiayun", "晨涧云": "chenjianyun", "共绩算力": "gongjiyun", "Featurize": "featurize"} {
		p, ok := b.Platform(name)
		if !ok || p.ID != id {
			t.Errorf("platform %q = %q, want %s", name, p.ID, id)
			continue
		}
		if p.NameZH == "" || p.Name == "" {
			t.Errorf("platform %s needs names in both languages", id)
		}
	}
	var tencent, gongji bool
	for _, o := range b.Offers {
		if o.Platform == "tencent-cloud" && o.GPU == "a100-40g" && o.Model == Package && o.GPUCount == 1 {
			tencent = o.PriceLow == 13748 && o.Unit == PerMonth && o.Term == "P1M" && strings.Contains(o.Source, "qcloud-documents") && strings.Contains(o.Note, "no date in the source")
		}
		if o.Platform == "gongjiyun" && o.GPU == "l20" {
			gongji = o.PriceLow == 4.0 && o.ObservedAt == "2026-10-04" && strings.Contains(o.Note, "confidence")
		}
	}
	if !tencent || !gongji {
		t.Errorf("offers: tencent A100 40GB monthly %v, 共绩算力 L20 ¥4.0/h %v", tencent, gongji)
	}
}

// The export table (export_controls.md status table): H20 needs a licence,
// the 4090D and L20 are allowed, B200 is not sold, the 910B is domestic.
func TestExportControlsTable(t *testing.T) {
	e := MustShipped().Export
	for gpu, want := range map[string]string{"h20": ExportLicence, "h800": ExportLicence, "rtx4090": ExportLicence,
		"rtx4090d": ExportAllowed, "l20": ExportAllowed, "ascend-910b": ExportAllowed, "b200": ExportBanned} {
		r, ok := e.For(gpu)
		if !ok || r.Status != want || r.Date == "" || len(r.Sources) == 0 {
			t.Errorf("%s: %+v, want %s with a date and sources", gpu, r, want)
		}
	}
	if _, ok := e.For("rtx3090"); ok {
		t.Error("the table has no RTX 3090 row")
	}
}
