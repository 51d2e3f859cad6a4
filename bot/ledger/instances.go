package ledger

import (
	"regexp"
	"strings"
)

// Instance is what a cloud instance (machine) type carries: which card and
// how many of them. A bill line for one p4d.24xlarge hour is 8 A100 40GB
// card-hours, and its price per card-hour is the line's amount ÷ 8.
type Instance struct {
	GPU   string // canonical knowledge.GPU id
	Cards int
}

// instanceTypes maps instance and machine types, as bills spell them
// (lower case, without Aliyun's "ecs." prefix), to their cards. Sources:
// the providers' published instance tables — AWS "Accelerated computing"
// instance types (P3, P4d, P4de, P5, P5e, P5en, P6-B200, G4dn, G5, G6,
// G6e), Google Cloud's "GPU machine types" (A2, A3, G2) and Alibaba
// Cloud's "GPU-accelerated compute-optimized instance families" (gn6i,
// gn6v, gn7i, gn7e). A size not listed here is refused, not guessed:
// add a GPU Qty column, or the card and count by hand.
var instanceTypes = map[string]Instance{
	// AWS P: training.
	"p3.2xlarge": {"v100-sxm2", 1}, "p3.8xlarge": {"v100-sxm2", 4}, "p3.16xlarge": {"v100-sxm2", 8}, "p3dn.24xlarge": {"v100-sxm2", 8},
	"p4d.24xlarge":  {"a100-40g", 8},
	"p4de.24xlarge": {"a100-80g", 8},
	"p5.48xlarge":   {"h100-sxm", 8}, "p5.4xlarge": {"h100-sxm", 1},
	"p5e.48xlarge": {"h200", 8}, "p5en.48xlarge": {"h200", 8},
	"p6-b200.48xlarge": {"b200", 8},
	// AWS G: inference and graphics.
	"g4dn.xlarge": {"t4", 1}, "g4dn.2xlarge": {"t4", 1}, "g4dn.4xlarge": {"t4", 1}, "g4dn.8xlarge": {"t4", 1}, "g4dn.16xlarge": {"t4", 1}, "g4dn.12xlarge": {"t4", 4}, "g4dn.metal": {"t4", 8},
	"g5.xlarge": {"a10g", 1}, "g5.2xlarge": {"a10g", 1}, "g5.4xlarge": {"a10g", 1}, "g5.8xlarge": {"a10g", 1}, "g5.16xlarge": {"a10g", 1}, "g5.12xlarge": {"a10g", 4}, "g5.24xlarge": {"a10g", 4}, "g5.48xlarge": {"a10g", 8},
	"g6.xlarge": {"l4", 1}, "g6.2xlarge": {"l4", 1}, "g6.4xlarge": {"l4", 1}, "g6.8xlarge": {"l4", 1}, "g6.16xlarge": {"l4", 1}, "g6.12xlarge": {"l4", 4}, "g6.24xlarge": {"l4", 4}, "g6.48xlarge": {"l4", 8},
	"g6e.xlarge": {"l40s", 1}, "g6e.2xlarge": {"l40s", 1}, "g6e.4xlarge": {"l40s", 1}, "g6e.8xlarge": {"l40s", 1}, "g6e.16xlarge": {"l40s", 1}, "g6e.12xlarge": {"l40s", 4}, "g6e.24xlarge": {"l40s", 4}, "g6e.48xlarge": {"l40s", 8},
	// Google Cloud accelerator-optimized machine types.
	"a2-highgpu-1g": {"a100-40g", 1}, "a2-highgpu-2g": {"a100-40g", 2}, "a2-highgpu-4g": {"a100-40g", 4}, "a2-highgpu-8g": {"a100-40g", 8}, "a2-megagpu-16g": {"a100-40g", 16},
	"a2-ultragpu-1g": {"a100-80g", 1}, "a2-ultragpu-2g": {"a100-80g", 2}, "a2-ultragpu-4g": {"a100-80g", 4}, "a2-ultragpu-8g": {"a100-80g", 8},
	"a3-highgpu-1g": {"h100-sxm", 1}, "a3-highgpu-2g": {"h100-sxm", 2}, "a3-highgpu-4g": {"h100-sxm", 4}, "a3-highgpu-8g": {"h100-sxm", 8}, "a3-megagpu-8g": {"h100-sxm", 8}, "a3-edgegpu-8g": {"h100-sxm", 8},
	"a3-ultragpu-8g": {"h200", 8},
	"g2-standard-4":  {"l4", 1}, "g2-standard-8": {"l4", 1}, "g2-standard-12": {"l4", 1}, "g2-standard-16": {"l4", 1}, "g2-standard-32": {"l4", 1}, "g2-standard-24": {"l4", 2}, "g2-standard-48": {"l4", 4}, "g2-standard-96": {"l4", 8},
	// Alibaba Cloud ECS GPU families.
	"gn7i-c8g1.2xlarge": {"a10-pcie", 1}, "gn7i-c16g1.4xlarge": {"a10-pcie", 1}, "gn7i-c32g1.8xlarge": {"a10-pcie", 1}, "gn7i-c48g1.12xlarge": {"a10-pcie", 1}, "gn7i-c56g1.14xlarge": {"a10-pcie", 1},
	"gn7i-c32g1.16xlarge": {"a10-pcie", 2}, "gn7i-c32g1.32xlarge": {"a10-pcie", 4}, "gn7i-2x.8xlarge": {"a10-pcie", 2}, "gn7i-4x.8xlarge": {"a10-pcie", 4}, "gn7i-4x.16xlarge": {"a10-pcie", 4}, "gn7i-8x.32xlarge": {"a10-pcie", 8},
	"gn6i-c4g1.xlarge": {"t4", 1}, "gn6i-c8g1.2xlarge": {"t4", 1}, "gn6i-c16g1.4xlarge": {"t4", 1}, "gn6i-c24g1.6xlarge": {"t4", 1}, "gn6i-c40g1.10xlarge": {"t4", 1}, "gn6i-c24g1.12xlarge": {"t4", 2}, "gn6i-c24g1.24xlarge": {"t4", 4},
	"gn6v-c8g1.2xlarge": {"v100-sxm2", 1}, "gn6v-c8g1.4xlarge": {"v100-sxm2", 2}, "gn6v-c8g1.8xlarge": {"v100-sxm2", 4}, "gn6v-c8g1.16xlarge": {"v100-sxm2", 8},
	"gn7e-c16g1.4xlarge": {"a100-80g", 1}, "gn7e-c16g1.8xlarge": {"a100-80g", 2}, "gn7e-c16g1.16xlarge": {"a100-80g", 4}, "gn7e-c16g1.32xlarge": {"a100-80g", 8},
}

// instanceFamilies names the card of each family above, so an unlisted
// size is reported as such ("p4d: size p4d.12xlarge unknown") rather than
// as "not a card".
var instanceFamilies = map[string]string{
	"p3": "v100-sxm2", "p3dn": "v100-sxm2", "p4d": "a100-40g", "p4de": "a100-80g", "p5": "h100-sxm", "p5e": "h200", "p5en": "h200", "p6-b200": "b200",
	"g4dn": "t4", "g5": "a10g", "g6": "l4", "g6e": "l40s",
	"a2-highgpu": "a100-40g", "a2-megagpu": "a100-40g", "a2-ultragpu": "a100-80g", "a3-highgpu": "h100-sxm", "a3-megagpu": "h100-sxm", "a3-edgegpu": "h100-sxm", "a3-ultragpu": "h200", "g2-standard": "l4",
	"gn7i": "a10-pcie", "gn6i": "t4", "gn6v": "v100-sxm2", "gn7e": "a100-80g",
}

// reInstance finds an instance type inside a longer text: an AWS
// description ("$32.77 per On Demand Linux p4d.24xlarge Instance Hour"),
// a usage type ("USE1-BoxUsage:p5.48xlarge"), an Aliyun 实例规格
// ("ecs.gn7i-c8g1.2xlarge") or a GCP machine type ("a2-highgpu-1g").
var reInstance = regexp.MustCompile(`(?i)(?:^|[\s:,;(/"'])(?:ecs\.)?((?:p3dn|p3|p4de|p4d|p5en|p5e|p5|p6-b200|g4dn|g5|g6e|g6)\.[0-9a-z]+|(?:a2-(?:highgpu|megagpu|ultragpu)|a3-(?:highgpu|megagpu|edgegpu|ultragpu))-\d+g|g2-standard-\d+|(?:gn7i|gn6i|gn6v|gn7e)-[0-9a-z]+\.[0-9a-z]+)`)

// InstanceOf reads an instance type anywhere in s. ok is false when s
// names none. family is set (and ok false) when s names a known family in
// a size the table lacks.
func InstanceOf(s string) (in Instance, family string, ok bool) {
	m := reInstance.FindStringSubmatch(" " + s)
	if m == nil {
		return Instance{}, "", false
	}
	t := strings.ToLower(m[1])
	if in, ok := instanceTypes[t]; ok {
		return in, "", true
	}
	fam, _, _ := strings.Cut(t, ".")
	if _, ok := instanceFamilies[fam]; ok {
		return Instance{}, fam, false
	}
	if i := strings.LastIndex(fam, "-"); i > 0 { // a2-highgpu-3g, gn7i-c99g1
		if _, ok := instanceFamilies[fam[:i]]; ok {
			return Instance{}, fam[:i], false
		}
	}
	return Instance{}, t, false
}

// skuCards maps the card names providers print in SKU and charge
// descriptions to canonical ids, most specific first: GCP bills the GPUs of
// a VM as their own SKU ("Nvidia Tesla A100 GPU running in Americas" is the
// 40 GB card, "Nvidia A100 80GB GPU …" the 80 GB one), priced per GPU-hour.
var skuCards = []struct{ phrase, gpu string }{
	{"a100 80gb", "a100-80g"}, {"a100-80gb", "a100-80g"}, {"tesla a100", "a100-40g"}, {"a100 40gb", "a100-40g"},
	{"h100 80gb mega", "h100-sxm"}, {"h100 80gb", "h100-sxm"}, {"h100", "h100-sxm"}, {"h200", "h200"}, {"b200", "b200"},
	{"nvidia l4", "l4"}, {"tesla t4", "t4"}, {"nvidia t4", "t4"}, {"tesla v100", "v100-sxm2"}, {"tesla p100", ""}, {"l40s", "l40s"},
	{"nvidia a10g", "a10g"}, {"nvidia a10 ", "a10-pcie"},
}

// cardInText finds a card named in a SKU or charge description; "" when
// none is.
func cardInText(s string) string {
	t := " " + strings.ToLower(strings.Join(strings.Fields(s), " ")) + " "
	for _, c := range skuCards {
		if strings.Contains(t, c.phrase) {
			return c.gpu
		}
	}
	return ""
}
