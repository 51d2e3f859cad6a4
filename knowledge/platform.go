package knowledge

// Category groups platforms the way the guides do.
type Category string

// Platform categories.
const (
	CNRetail    Category = "cn_retail"   // AutoDL-style per-card rental (零售平台)
	CNCloud     Category = "cn_cloud"    // Alibaba, Tencent, Huawei clouds (大厂云)
	Domestic    Category = "domestic"    // domestic-accelerator (信创) platforms
	GPUCloud    Category = "gpu_cloud"   // Lambda, RunPod, Voltage Park
	Marketplace Category = "marketplace" // Vast.ai-style host listings
	Hyperscaler Category = "hyperscaler" // AWS, GCP, Azure
)

// HiddenCost is a charge on top of the card price.
type HiddenCost struct {
	Kind     string   `yaml:"kind" json:"kind"` // egress, storage, snapshot, public_ip, ...
	Low      float64  `yaml:"low" json:"low"`
	High     float64  `yaml:"high" json:"high"`
	Currency Currency `yaml:"currency" json:"currency"`
	Unit     string   `yaml:"unit" json:"unit"` // GB, GB-month, month
	Note     string   `yaml:"note,omitempty" json:"note,omitempty"`
	Source   string   `yaml:"source" json:"source"`
}

// Platform is a place that rents GPUs.
type Platform struct {
	ID       string   `yaml:"id"`
	Name     string   `yaml:"name"`    // English / Latin name
	NameZH   string   `yaml:"name_zh"` // Chinese name if it has one
	Aliases  []string `yaml:"aliases"`
	Category Category `yaml:"category"`
	Region   string   `yaml:"region"` // cn, global
	// Billing: ISO 8601 granularity (PT1S per second, PT1M, PT1H), and whether
	// a stopped (powered-off) instance still costs money. Empty = not stated.
	Granularity   string       `yaml:"billing_granularity"`
	StoppedBilled string       `yaml:"stopped_billed"` // yes, no, storage_only, "" unknown
	HiddenCosts   []HiddenCost `yaml:"hidden_costs"`
	Strengths     string       `yaml:"strengths"`    // one line, English
	StrengthsZH   string       `yaml:"strengths_zh"` // one line, Chinese
	Source        string       `yaml:"source"`
}
