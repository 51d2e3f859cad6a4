package knowledge

import (
	"bytes"
	"embed"
	"encoding/csv"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The procurement data: purchase prices, reserved/committed prices, Chinese
// platforms' prices and hosted-LLM token prices, each row as the sourced
// dataset (reference/procurement) recorded it, with a confidence column
// added (high / medium / low, rule in docs/prices.md). Conflicting sources
// stay separate rows; a range stays a range.
//
//go:embed data/procurement/*.csv
var procurementFS embed.FS

// Confidence grades a sourced row.
type Confidence string

// Confidence grades.
const (
	High   Confidence = "high"
	Medium Confidence = "medium"
	Low    Confidence = "low"
)

// Provenance is where a row came from and how far to trust it.
type Provenance struct {
	Date        string     `json:"date"` // as the source gives it ("2026-02", "n.d. (…)")
	SourceTitle string     `json:"source_title"`
	SourceURL   string     `json:"source_url"`
	Note        string     `json:"note,omitempty"`
	Confidence  Confidence `json:"confidence"`
}

// Year is the first four-digit year the date names (0 when none).
func (p Provenance) Year() int {
	m := yearRe.FindString(p.Date)
	y, _ := strconv.Atoi(m)
	return y
}

// Sortable is the date as YYYY-MM-DD for ordering: the first full date,
// else YYYY-MM-01, else YYYY-01-01 (a quarter "2026-Q1" counts from its
// first month); "" when the row names no year.
func (p Provenance) Sortable() string {
	// The date itself comes before any parenthesis ("≈2026-10 (inferred:
	// … dated 2026-10-20)"); only an undated row ("n.d. (… updated
	// 2025-12-19)") is bounded by a date in its explanation.
	if head, _, ok := strings.Cut(p.Date, " ("); ok {
		if d := (Provenance{Date: head}).Sortable(); d != "" {
			return d
		}
	}
	if m := dayRe.FindString(p.Date); m != "" {
		return m
	}
	if m := monthRe.FindString(p.Date); m != "" {
		return m + "-01"
	}
	if m := quarterRe.FindStringSubmatch(p.Date); m != nil {
		q, _ := strconv.Atoi(m[2])
		return fmt.Sprintf("%s-%02d-01", m[1], (q-1)*3+1)
	}
	if y := p.Year(); y > 0 {
		return fmt.Sprintf("%d-01-01", y)
	}
	return ""
}

// Undated reports a date the source did not state (n.d., ≈, ~, undated).
func (p Provenance) Undated() bool {
	d := strings.ToLower(p.Date)
	return strings.HasPrefix(d, "n.d") || strings.HasPrefix(d, "undated") || strings.HasPrefix(d, "≈") || strings.HasPrefix(d, "~")
}

var (
	dayRe     = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
	monthRe   = regexp.MustCompile(`\d{4}-(0[1-9]|1[0-2])\b`)
	quarterRe = regexp.MustCompile(`(\d{4})-Q([1-4])`)
	yearRe    = regexp.MustCompile(`(19|20)\d{2}`)
)

// PurchasePrice is one sourced purchase price of a card or a server.
type PurchasePrice struct {
	Item      string   `json:"item"`      // as the source names it
	GPU       string   `json:"gpu"`       // canonical card id, "" when it is no card the bot knows
	Kind      string   `json:"kind"`      // card, server
	GPUs      int      `json:"gpus"`      // cards in the priced unit; 0 = unspecified
	Condition string   `json:"condition"` // new, used
	Low       float64  `json:"low"`
	High      float64  `json:"high"`
	Currency  Currency `json:"currency"`
	Region    string   `json:"region"` // US, CN, EU, global
	Provenance
}

// ReservedPrice is one sourced cloud price under a term: on demand, 1y,
// 3y, a capacity block or a monthly plan.
type ReservedPrice struct {
	Provider string   `json:"provider"`
	Instance string   `json:"instance"`
	GPU      string   `json:"gpu"`
	GPUs     int      `json:"gpus"`
	Term     string   `json:"term"` // on_demand, 1y, 3y, capacity_block, monthly
	Low      float64  `json:"low"`
	High     float64  `json:"high"`
	Unit     string   `json:"unit"` // per_gpu_hour, per_instance_hour, per_month
	Currency Currency `json:"currency"`
	Region   string   `json:"region"`
	Provenance
}

// GPUHour is the price per card-hour (730 h a month for monthly rows); ok
// is false for a machine's price whose card count is not stated.
func (r ReservedPrice) GPUHour() (low, high float64, ok bool) {
	if r.Unit != "per_gpu_hour" && r.GPUs <= 0 {
		return 0, 0, false
	}
	n := float64(r.GPUs)
	switch r.Unit {
	case "per_gpu_hour":
		return r.Low, r.High, true
	case "per_instance_hour":
		return r.Low / n, r.High / n, true
	case "per_month":
		return r.Low / n / HoursPerMonth, r.High / n / HoursPerMonth, true
	}
	return 0, 0, false
}

// CNCloudPrice is one sourced price on a Chinese platform.
type CNCloudPrice struct {
	Platform   string   `json:"platform"`    // as the source names it
	PlatformID string   `json:"platform_id"` // Platform.ID, "" when the bot has no such platform
	Card       string   `json:"card"`
	GPU        string   `json:"gpu"`
	GPUs       int      `json:"gpus"` // 0 = not stated
	Billing    string   `json:"billing"`
	Low        float64  `json:"low"`
	High       float64  `json:"high"` // from the note's range when the source gave one
	Unit       string   `json:"unit"` // per_gpu_hour, per_instance_hour, per_month, per_year
	Currency   Currency `json:"currency"`
	Region     string   `json:"region"`
	Provenance
}

// APIPrice is one sourced hosted-LLM price per million tokens.
type APIPrice struct {
	Provider string   `json:"provider"`
	Model    string   `json:"model"`    // as the source names it
	ModelID  string   `json:"model_id"` // catalogue model id, "" when unknown
	Input    float64  `json:"input_per_m"`
	Output   float64  `json:"output_per_m"`
	Cached   float64  `json:"cached_input_per_m,omitempty"`
	Currency Currency `json:"currency"`
	Provenance
}

// Procurement is the whole procurement dataset.
type Procurement struct {
	Purchases []PurchasePrice
	Reserved  []ReservedPrice
	CNCloud   []CNCloudPrice
	APIs      []APIPrice
	// Rows are the on-demand and monthly rows that are no catalogue offer
	// (a cloud's list price in reserved_prices.csv, a Chinese platform the
	// bot does not list, a low-confidence or older row), as offers with
	// SourceKind "sourced_row": an answer falls back on them, said as
	// such, only when no catalogue offer prices the card (rows.go).
	Rows []Offer
}

// readCSV reads one embedded file into header-keyed rows, checking that
// every row carries a source, a date and a confidence grade.
func readCSV(name string) ([]map[string]string, error) {
	raw, err := procurementFS.ReadFile("data/procurement/" + name)
	if err != nil {
		return nil, err
	}
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("%s: no rows", name)
	}
	head := recs[0]
	var out []map[string]string
	for i, r := range recs[1:] {
		row := map[string]string{}
		for j, h := range head {
			row[h] = strings.TrimSpace(r[j])
		}
		switch {
		case row["source_title"] == "":
			return nil, fmt.Errorf("%s row %d: no source_title", name, i+2)
		case row["source_url"] == "":
			return nil, fmt.Errorf("%s row %d: no source_url", name, i+2)
		case row["date"] == "":
			return nil, fmt.Errorf("%s row %d: no date", name, i+2)
		}
		switch Confidence(row["confidence"]) {
		case High, Medium, Low:
		default:
			return nil, fmt.Errorf("%s row %d: confidence %q is not high, medium or low", name, i+2, row["confidence"])
		}
		out = append(out, row)
	}
	return out, nil
}

func provenance(r map[string]string) Provenance {
	return Provenance{Date: r["date"], SourceTitle: r["source_title"], SourceURL: r["source_url"], Note: r["note"], Confidence: Confidence(r["confidence"])}
}

// ParseRange reads "25000", "25000-30000" or "3.90-4.10" (a range stays a
// range; commas are thousands separators).
func ParseRange(s string) (low, high float64, err error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	lo, hi, isRange := strings.Cut(s, "-")
	if low, err = strconv.ParseFloat(strings.TrimSpace(lo), 64); err != nil {
		return 0, 0, fmt.Errorf("price %q is not a number or a low-high range", s)
	}
	high = low
	if isRange {
		if high, err = strconv.ParseFloat(strings.TrimSpace(hi), 64); err != nil {
			return 0, 0, fmt.Errorf("price %q is not a number or a low-high range", s)
		}
	}
	if low <= 0 || high < low {
		return 0, 0, fmt.Errorf("price %q: need 0 < low ≤ high", s)
	}
	return low, high, nil
}

func parseCurrency(s string) (Currency, error) {
	switch Currency(s) {
	case CNY, USD:
		return Currency(s), nil
	}
	return "", fmt.Errorf("currency %q is not CNY or USD", s)
}

// noteRange finds the full range a note gives for a price recorded at its
// lower bound ("range ¥1.2–2.7/时", "'~¥2000-3000/月' range").
var noteRangeRe = regexp.MustCompile(`(\d[\d,]*(?:\.\d+)?)\s*[–-]\s*(\d[\d,]*(?:\.\d+)?)`)

func noteRange(note string, low float64) float64 {
	if !strings.Contains(note, "range") {
		return low
	}
	for _, m := range noteRangeRe.FindAllStringSubmatch(note, -1) {
		lo, err1 := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
		hi, err2 := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
		if err1 == nil && err2 == nil && lo == low && hi > lo {
			return hi
		}
	}
	return low
}

// cardRules map a source's card name (parentheses dropped, split into
// lower-case tokens) to a card id: the first rule whose tokens are all
// present wins, so the specific ones come first.
var cardRules = []struct {
	tokens []string
	id     string
}{
	{[]string{"h20", "141gb"}, "h20-141g"}, {[]string{"h200", "nvl"}, "h200-nvl"}, {[]string{"h200"}, "h200"}, {[]string{"h20"}, "h20"},
	{[]string{"h100", "nvl"}, ""}, {[]string{"h100", "pcie"}, "h100-pcie"}, {[]string{"h100"}, "h100-sxm"},
	{[]string{"h800", "pcie"}, ""}, {[]string{"h800"}, "h800"},
	{[]string{"a100", "40gb"}, "a100-40g"}, {[]string{"a100"}, "a100-80g"}, {[]string{"a800"}, "a800"},
	{[]string{"4090d"}, "rtx4090d"}, {[]string{"4090"}, "rtx4090"}, {[]string{"3090"}, "rtx3090"},
	{[]string{"3060", "ti"}, ""}, {[]string{"3060"}, "rtx3060"},
	{[]string{"4060", "ti", "8gb"}, ""}, {[]string{"4060", "ti"}, "rtx4060ti"}, // the bot's card is the 16 GB one
	{[]string{"5090d"}, ""}, {[]string{"5090"}, "rtx5090"}, {[]string{"2080"}, "rtx2080ti"},
	{[]string{"pro", "6000d"}, ""}, {[]string{"pro", "6000"}, "rtx-pro-6000"}, {[]string{"a6000"}, "a6000"},
	{[]string{"l40s"}, "l40s"}, {[]string{"l40"}, "l40"}, {[]string{"l20"}, "l20"}, {[]string{"t4"}, "t4"},
	{[]string{"a10g"}, "a10g"}, {[]string{"a10"}, "a10-pcie"}, {[]string{"v100"}, "v100-sxm2"}, {[]string{"p40"}, "p40"},
	{[]string{"gb200"}, "gb200"}, {[]string{"b200"}, "b200"}, {[]string{"b300"}, "b300"},
	{[]string{"910b"}, "ascend-910b"}, {[]string{"910c"}, "ascend-910c"},
	{[]string{"mi300x"}, "mi300x"}, {[]string{"mi325x"}, "mi325x"},
}

// CardID maps a source's card or item name to a card id ("" when unknown).
func CardID(name string) string {
	if i := strings.IndexAny(name, "(（"); i >= 0 {
		name = name[:i]
	}
	toks := map[string]bool{}
	for _, t := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		toks[t] = true
	}
next:
	for _, r := range cardRules {
		for _, t := range r.tokens {
			if !toks[t] {
				continue next
			}
		}
		return r.id
	}
	return ""
}

func atoiOr0(s string) int { n, _ := strconv.Atoi(s); return n }

// loadProcurement reads the four CSV files; platforms and models resolve
// through b.
func loadProcurement(b *Base) (Procurement, error) {
	var p Procurement
	rows, err := readCSV("purchase_prices.csv")
	if err != nil {
		return p, err
	}
	for i, r := range rows {
		lo, hi, cur, err := rowPrice(r)
		if err != nil {
			return p, fmt.Errorf("purchase_prices.csv row %d: %w", i+2, err)
		}
		p.Purchases = append(p.Purchases, PurchasePrice{Item: r["item"], GPU: CardID(r["item"]), Kind: r["kind"], GPUs: atoiOr0(r["gpus_per_unit"]),
			Condition: r["condition"], Low: lo, High: hi, Currency: cur, Region: r["region"], Provenance: provenance(r)})
	}
	if rows, err = readCSV("reserved_prices.csv"); err != nil {
		return p, err
	}
	for i, r := range rows {
		lo, hi, cur, err := rowPrice(r)
		if err != nil {
			return p, fmt.Errorf("reserved_prices.csv row %d: %w", i+2, err)
		}
		// "a3-highgpu-8g (8x H100)", "ND96asr A100 v4 (8x A100 40GB)":
		// instance rows name the card, or its memory, in parentheses.
		gpu := CardID(strings.NewReplacer("(", " ", ")", " ").Replace(r["instance_or_card"]))
		if gpu == "" && !strings.Contains(strings.ToLower(r["instance_or_card"]), "nvl") {
			gpu = CardID(r["instance_or_card"])
		}
		p.Reserved = append(p.Reserved, ReservedPrice{Provider: r["provider"], Instance: r["instance_or_card"], GPU: gpu,
			GPUs: atoiOr0(r["gpus"]), Term: r["term"], Low: lo, High: hi, Unit: r["unit"], Currency: cur, Region: r["region"], Provenance: provenance(r)})
	}
	if rows, err = readCSV("cn_cloud_prices.csv"); err != nil {
		return p, err
	}
	for i, r := range rows {
		lo, hi, cur, err := rowPrice(r)
		if err != nil {
			return p, fmt.Errorf("cn_cloud_prices.csv row %d: %w", i+2, err)
		}
		if hi == lo {
			hi = noteRange(r["note"], lo)
		}
		c := CNCloudPrice{Platform: r["platform"], Card: r["card"], GPU: CardID(r["card"]), GPUs: atoiOr0(r["gpus"]), Billing: r["billing"],
			Low: lo, High: hi, Unit: r["unit"], Currency: cur, Region: r["region"], Provenance: provenance(r)}
		name, _, _ := strings.Cut(c.Platform, " (")
		if pl, ok := b.Platform(name); ok && !strings.Contains(c.Platform, "函数") && !strings.Contains(c.Platform, "combined") {
			c.PlatformID = pl.ID
		}
		p.CNCloud = append(p.CNCloud, c)
	}
	if rows, err = readCSV("llm_api_prices.csv"); err != nil {
		return p, err
	}
	for i, r := range rows {
		cur, err := parseCurrency(r["currency"])
		if err != nil {
			return p, fmt.Errorf("llm_api_prices.csv row %d: %w", i+2, err)
		}
		in, err1 := strconv.ParseFloat(r["input_per_m"], 64)
		out, err2 := strconv.ParseFloat(r["output_per_m"], 64)
		if err1 != nil || err2 != nil || in < 0 || out < 0 {
			return p, fmt.Errorf("llm_api_prices.csv row %d: input/output price %q/%q not numbers", i+2, r["input_per_m"], r["output_per_m"])
		}
		cached, _ := strconv.ParseFloat(r["cached_input_per_m"], 64)
		a := APIPrice{Provider: r["provider"], Model: r["model"], Input: in, Output: out, Cached: cached, Currency: cur, Provenance: provenance(r)}
		a.ModelID = apiModelID(b, r["model"])
		p.APIs = append(p.APIs, a)
	}
	return p, nil
}

// cnOfferSince is the oldest date a Chinese-platform row may price an
// answer from: older tables (Featurize 2021, JD Cloud's P40 era) stay in the
// dataset as history.
const cnOfferSince = "2025-01-01"

// cnOffers turns the Chinese platforms' rows into catalogue offers: rows on
// a platform the bot knows, for a card it knows, with a year in their date.
// Low-confidence rows (user notes, estimates) price nothing, except on a
// big cloud (cn_cloud) that has no better row for the card, where they are
// the only figure there is and say so (Offer.Confidence "low"). An undated
// row is dated by the latest day it can be from and says its date as
// written.
//
// Why not every low row that fills a platform's gap (AutoDL's RTX 5090
// ¥2.78, H800 ¥8.88, A800 ¥4.98 from a 2026-08 note): a catalogue offer
// feeds every engine, and as one they ranked cards and platforms on a
// note's figure — a 13B LoRA "fits on one A100 80GB at ¥2.8 (晨涧云, a
// price-trend article)", H800 the best compute per dollar at AutoDL's
// ¥8.88, A800 costed at AutoDL's ¥4.98 instead of 晨涧云's medium ¥5.15,
// and a matpool "¥2–5" range widened the spend ledger's typo check until
// ¥185 a card-hour passed. Those rows stay in Procurement.Rows, each with
// its grade and date: an answer about that platform falls back on them and
// says so, and no engine picks them over a graded figure.
func cnOffers(b *Base, rows []CNCloudPrice) []Offer {
	better := map[string]bool{}
	for _, c := range rows {
		if c.Confidence != Low {
			better[c.PlatformID+"/"+c.GPU] = true
		}
	}
	var out []Offer
	for i, c := range rows {
		if c.PlatformID == "" || c.GPU == "" {
			continue
		}
		if c.Confidence == Low {
			if pl, _ := b.Platform(c.PlatformID); pl.Category != CNCloud || better[c.PlatformID+"/"+c.GPU] {
				continue
			}
		}
		at := c.Sortable()
		if at == "" || at < cnOfferSince {
			continue // undated, or a list-price baseline from before 2025 (NOTES_cn_and_api §3): data, not an offer
		}
		if o, ok := cnOffer(c, c.PlatformID, cnOfferKey(c, c.PlatformID, i)); ok {
			out = append(out, o)
		}
	}
	return out
}

// cnOfferKey is the offer key of the Chinese-platform row at index i,
// priced on platform.
func cnOfferKey(c CNCloudPrice, platform string, i int) string {
	return fmt.Sprintf("cnref-%s-%s-%dx-%s-%d", platform, c.GPU, max(c.GPUs, 1), c.Billing, i+2)
}

// cnOffer turns one Chinese-platform row into an offer on platform; ok is
// false for a unit or billing the catalogue has no word for.
func cnOffer(c CNCloudPrice, platform, key string) (Offer, bool) {
	o := Offer{
		Key:      key,
		Platform: platform, GPU: c.GPU, GPUCount: float64(max(c.GPUs, 1)),
		PriceLow: c.Low, PriceHigh: c.High, Currency: c.Currency, Basis: PerGPU,
		ObservedAt: c.Sortable(), Source: c.SourceTitle + " — " + c.SourceURL, SourceKind: "manual",
		SKU: c.Card, Confidence: c.Confidence,
	}
	if c.Unit != "per_gpu_hour" && c.GPUs <= 0 {
		// A price for a whole instance or machine whose card count the
		// source does not state cannot be put per card (NOTES_cn_and_api
		// §1: "check gpus before dividing"); read as one card it would be
		// the machine's price per card (the Ascend 910B monthly rows of
		// 天翼云, 极智算 and 云擎天下: ¥15,000–18,454 a month, 7–8× the
		// card's on-demand rate). It stays in the dataset, priced nowhere.
		return o, false
	}
	switch c.Unit {
	case "per_gpu_hour":
		o.Unit = PerHour
	case "per_instance_hour":
		o.Unit, o.Basis = PerHour, PerInstance
	case "per_month":
		o.Unit, o.Basis = PerMonth, PerInstance
	case "per_year":
		o.Unit, o.Basis = PerYear, PerInstance
	default:
		return o, false
	}
	switch c.Billing {
	case "on_demand":
		o.Model = OnDemand
	case "monthly":
		o.Model, o.Term = Package, "P1M"
	case "yearly":
		o.Model, o.Term = Package, "P1Y"
	case "spot":
		o.Model, o.Interruptible = Spot, true
	default:
		return o, false
	}
	note := fmt.Sprintf("confidence %s; dated %q", c.Confidence, c.Date)
	if c.Undated() {
		// DateBasis "undated" is the market snapshot's (its date is the
		// snapshot's); here the date is the latest the row can be.
		note += " (no date in the source: dated by the latest day it can be from)"
	}
	if c.Note != "" {
		note += "; " + c.Note
	}
	o.Note = note
	return o, true
}

// rowsSince is the oldest date a sourced row may stand in for a missing
// catalogue price: older rows (Featurize 2021, JD Cloud's P40 era) are
// history.
const rowsSince = "2024-01-01"

// rowPrice reads a sourced row's price range and currency.
func rowPrice(r map[string]string) (lo, hi float64, cur Currency, err error) {
	if lo, hi, err = ParseRange(r["price"]); err != nil {
		return 0, 0, "", err
	}
	cur, err = parseCurrency(r["currency"])
	return lo, hi, cur, err
}

// ReservedPlatform is the platform id of a reserved_prices.csv provider
// ("AWS" → "aws"), "" when the bot has none.
func ReservedPlatform(provider string) string { return reservedPlatform[provider] }

// reservedPlatform maps reserved_prices.csv's providers to platform ids
// (the market snapshot's ids for the clouds platforms.yaml does not list);
// market-wide rows become the market ranges. A provider not here (an
// index, a one-off seller) prices nothing.
var reservedPlatform = map[string]string{
	"AWS": "aws", "GCP": "gcp", "Azure": "azure", "Oracle (OCI)": "oracle", "CoreWeave": "coreweave",
	"Lambda": "lambda", "Nebius": "nebius", "Oblivus Cloud": "oblivus", "Vultr": "vultr",
	"Hyperscalers (market range)": "global-market", "Small Chinese cloud providers": "cn-market", "China GPU leasing market": "cn-market",
}

// rowOffers turns the sourced rows that are no catalogue offer into
// offers (SourceKind "sourced_row"): reserved_prices.csv's on-demand,
// 1-year, 3-year and monthly rows, and the Chinese-platform rows cnOffers
// left out (a platform the bot does not list, a low-confidence row, an
// older table), dated since rowsSince. Of the rows for the same platform,
// card, machine size and term only the newest is kept (the better
// confidence on a tie), so a pre-cut list price never stands beside the
// current one. Market-wide rows become cn-market / global-market.
func rowOffers(p Procurement, offers []Offer) []Offer {
	have := map[string]bool{}
	for _, o := range offers {
		have[o.Key] = true
	}
	var cands []Offer
	conf := map[string]Confidence{}
	for i, r := range p.Reserved {
		pl, ok := reservedPlatform[r.Provider]
		at := r.Sortable()
		if !ok || r.GPU == "" || at == "" || at < rowsSince || r.Unit != "per_gpu_hour" && r.GPUs <= 0 {
			continue // a machine's price with no card count cannot be put per card
		}
		o := Offer{Key: fmt.Sprintf("row-reserved-%s-%s-%dx-%s-%d", pl, r.GPU, max(r.GPUs, 1), r.Term, i+2),
			Platform: pl, GPU: r.GPU, GPUCount: float64(max(r.GPUs, 1)), SKU: r.Instance, Region: r.Region,
			PriceLow: r.Low, PriceHigh: r.High, Currency: r.Currency, Basis: PerGPU,
			ObservedAt: at, Source: r.SourceTitle + " — " + r.SourceURL, SourceKind: "sourced_row"}
		switch r.Unit {
		case "per_gpu_hour":
			o.Unit = PerHour
		case "per_instance_hour":
			o.Unit, o.Basis = PerHour, PerInstance
		case "per_month":
			o.Unit, o.Basis = PerMonth, PerInstance
		default:
			continue
		}
		switch r.Term {
		case "on_demand":
			o.Model = OnDemand
		case "1y":
			o.Model, o.Term = Reserved, "P1Y"
		case "3y":
			o.Model, o.Term = Reserved, "P3Y"
		case "monthly":
			o.Model, o.Term = Package, "P1M"
		default:
			continue // capacity blocks: days to weeks, booked ahead
		}
		o.Note = fmt.Sprintf("sourced row, not a catalogue offer; confidence %s; dated %q", r.Confidence, r.Date)
		if r.Note != "" {
			o.Note += "; " + r.Note
		}
		o.Confidence = r.Confidence
		conf[o.Key] = r.Confidence
		cands = append(cands, o)
	}
	for i, c := range p.CNCloud {
		at := c.Sortable()
		if c.GPU == "" || at == "" || at < rowsSince || strings.Contains(c.Platform, "函数") || strings.Contains(c.Platform, "combined") {
			continue
		}
		pl := c.PlatformID
		switch {
		case strings.HasPrefix(c.Platform, "market") || strings.HasPrefix(c.Platform, "区域市场"):
			pl = "cn-market"
		case pl == "":
			pl, _, _ = strings.Cut(c.Platform, " (")
		}
		if have[cnOfferKey(c, pl, i)] {
			continue // already a catalogue offer
		}
		o, ok := cnOffer(c, pl, fmt.Sprintf("row-cn-%s-%s-%dx-%s-%d", pl, c.GPU, max(c.GPUs, 1), c.Billing, i+2))
		if !ok {
			continue
		}
		o.SourceKind = "sourced_row"
		o.Note = "sourced row, not a catalogue offer; " + o.Note
		conf[o.Key] = c.Confidence
		cands = append(cands, o)
	}
	rank := map[Confidence]int{High: 0, Medium: 1, Low: 2}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.ObservedAt != b.ObservedAt {
			return a.ObservedAt > b.ObservedAt
		}
		return rank[conf[a.Key]] < rank[conf[b.Key]]
	})
	seen := map[string]bool{}
	var out []Offer
	for _, o := range cands {
		k := fmt.Sprintf("%s/%s/%v/%s/%s", o.Platform, o.GPU, o.GPUCount, o.Model, o.Term)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, o)
	}
	return out
}

// Export statuses for selling a card new into mainland China.
const (
	ExportAllowed  = "allowed"
	ExportLicence  = "licence_required"
	ExportBanned   = "banned"
	exportDataFile = "data/export_controls.yaml"
)

// ExportRule is one card's status under US (and Chinese) export controls
// for mainland China, as the sourced table states it.
type ExportRule struct {
	GPUs     []string `yaml:"gpus" json:"gpus"`
	Status   string   `yaml:"status" json:"status"` // allowed, licence_required, banned
	Policy   string   `yaml:"policy" json:"policy"`
	PolicyZH string   `yaml:"policy_zh" json:"policy_zh"`
	Rule     string   `yaml:"rule" json:"rule"`
	Date     string   `yaml:"date" json:"date"` // the latest dated event behind the status
	Sources  []string `yaml:"sources" json:"sources"`
}

// ExportControls is the per-card table and how current it is.
type ExportControls struct {
	AsOf     string       `yaml:"as_of" json:"as_of"`
	AsOfNote string       `yaml:"as_of_note" json:"as_of_note"`
	Cards    []ExportRule `yaml:"cards" json:"cards"`
}

// For returns the rule for a card id.
func (e ExportControls) For(gpu string) (ExportRule, bool) {
	for _, r := range e.Cards {
		for _, g := range r.GPUs {
			if g == gpu {
				return r, true
			}
		}
	}
	return ExportRule{}, false
}

func loadExport(b *Base) (ExportControls, error) {
	var e ExportControls
	raw, err := dataFS.ReadFile(exportDataFile)
	if err != nil {
		return e, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&e); err != nil {
		return e, fmt.Errorf("decode %s: %w", exportDataFile, err)
	}
	seen := map[string]bool{}
	for _, r := range e.Cards {
		switch {
		case r.Status != ExportAllowed && r.Status != ExportLicence && r.Status != ExportBanned:
			return e, fmt.Errorf("%s: %v: status %q is not allowed, licence_required or banned", exportDataFile, r.GPUs, r.Status)
		case r.Date == "" || len(r.Sources) == 0 || r.Rule == "" || r.Policy == "" || r.PolicyZH == "":
			return e, fmt.Errorf("%s: %v needs a date, sources, a rule and the policy in both languages", exportDataFile, r.GPUs)
		}
		for _, g := range r.GPUs {
			if _, ok := b.GPU(g); !ok || seen[g] {
				return e, fmt.Errorf("%s: card %q unknown or repeated", exportDataFile, g)
			}
			seen[g] = true
		}
	}
	return e, nil
}

// apiModelID finds the catalogue model a hosted price is for: the name
// after any "org/", with "-Turbo" / "-Instruct" dropped, or the name in
// parentheses ("deepseek-chat (DeepSeek-V3)").
func apiModelID(b *Base, model string) string {
	var names []string
	if head, inner, ok := strings.Cut(model, " ("); ok {
		names = append(names, head, strings.TrimSuffix(inner, ")"))
	} else {
		names = append(names, model)
	}
	for _, name := range names {
		if i := strings.LastIndex(name, "/"); i >= 0 {
			name = name[i+1:]
		}
		for _, n := range []string{strings.TrimSuffix(strings.TrimSuffix(name, "-Turbo"), "-Instruct"), name} {
			if arch, ok := b.Arch(n); ok {
				return arch.ID
			}
		}
	}
	return ""
}
