// Package knowledge holds gpubot's domain types (GPU, Platform, Offer,
// Snapshot, guide items) and the data the bot ships with. Everything here is a
// plain value; sub-packages do the I/O.
package knowledge

import "strings"

// Tier groups cards by who buys them.
type Tier string

// Card tiers.
const (
	TierConsumer    Tier = "consumer"    // GeForce: cheap, 24–32 GB, no NVLink
	TierWorkstation Tier = "workstation" // L4/L40S/A10G class inference cards
	TierDatacenter  Tier = "datacenter"  // A100/H100 class training cards
	TierDomestic    Tier = "domestic"    // China-made accelerators (信创)
	TierLegacy      Tier = "legacy"      // older cards still rented cheaply
)

// GPU is one accelerator model with the figures the engine needs. Every figure
// carries its source in Sources; uncertain ones are called out in Notes.
type GPU struct {
	ID      string   `yaml:"id"`     // canonical id, e.g. "h100-sxm"
	Name    string   `yaml:"name"`   // display name
	Vendor  string   `yaml:"vendor"` // nvidia, huawei
	Tier    Tier     `yaml:"tier"`
	Aliases []string `yaml:"aliases"` // extra spellings, English and Chinese

	VRAMGB       float64 `yaml:"vram_gb"`       // per card, GB (decimal)
	BandwidthGBs float64 `yaml:"bandwidth_gbs"` // memory bandwidth, GB/s
	BF16TFLOPS   float64 `yaml:"bf16_tflops"`   // dense tensor BF16/FP16 (FP32 accumulate); 0 = none
	FP16TFLOPS   float64 `yaml:"fp16_tflops"`   // dense FP16 tensor if it differs from BF16 (e.g. no BF16 on Turing)
	FP8TFLOPS    float64 `yaml:"fp8_tflops"`    // dense FP8; 0 = no FP8
	FP4TFLOPS    float64 `yaml:"fp4_tflops"`    // dense FP4 (Blackwell, MI355X); 0 = none
	FP32TFLOPS   float64 `yaml:"fp32_tflops"`   // only for cards without tensor cores
	NVLinkGBs    float64 `yaml:"nvlink_gbs"`    // bidirectional per card; 0 = no NVLink
	// Fabric names a card-to-card link other than NVLink (AMD Infinity
	// Fabric, Huawei HCCS); FabricGBs is its bidirectional bandwidth per card.
	Fabric        string   `yaml:"fabric"`
	FabricGBs     float64  `yaml:"fabric_gbs"`
	PCIeGen       int      `yaml:"pcie_gen"`   // host link
	TDPWatts      float64  `yaml:"tdp_watts"`  // board power
	Confidence    string   `yaml:"confidence"` // high, medium, low
	Sources       []string `yaml:"sources"`
	Notes         string   `yaml:"notes"`
	SeedDisagrees string   `yaml:"seed_disagrees"` // where the seed documents give another figure
}

// PeakTFLOPS is the dense half-precision tensor peak the engine uses for
// training and prefill maths: BF16 where the card has it, else FP16 tensor,
// else FP32 (Pascal has no usable tensor path).
func (g GPU) PeakTFLOPS() float64 {
	switch {
	case g.BF16TFLOPS > 0:
		return g.BF16TFLOPS
	case g.FP16TFLOPS > 0:
		return g.FP16TFLOPS
	default:
		return g.FP32TFLOPS
	}
}

// LinkGBs is the bidirectional card-to-card bandwidth inside one machine:
// NVLink, else another scale-up fabric, else 0 (PCIe only).
func (g GPU) LinkGBs() float64 {
	if g.NVLinkGBs > 0 {
		return g.NVLinkGBs
	}
	return g.FabricGBs
}

// Interconnect describes how cards in one machine talk to each other.
func (g GPU) Interconnect() string {
	if g.NVLinkGBs > 0 {
		return "NVLink " + trimFloat(g.NVLinkGBs) + " GB/s"
	}
	if g.Fabric != "" && g.FabricGBs > 0 {
		return g.Fabric + " " + trimFloat(g.FabricGBs) + " GB/s"
	}
	if g.PCIeGen > 0 {
		return "PCIe Gen" + string(rune('0'+g.PCIeGen))
	}
	return "PCIe"
}

// NormalizeName folds a user's spelling of a card or platform for lookup:
// lower case, full-width to half-width, spaces, dashes and underscores dropped.
func NormalizeName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		if r >= 0xFF01 && r <= 0xFF5E { // full-width ASCII block
			r -= 0xFEE0
		}
		switch r {
		case ' ', '-', '_', '\u3000', '.':
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
