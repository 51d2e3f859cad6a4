package bot

import (
	"fmt"
	"slices"

	"github.com/gpubot/gpubot/knowledge"
)

// cardVariants are the cards a user names by one word: "A100" is the 80GB
// card by default, but a platform that lists only the 40GB card should be
// answered from its own rows, not with another platform's 80GB price.
var cardVariants = [][]string{
	{"a100-80g", "a100-40g"}, {"a10g", "a10-pcie"}, {"h100-sxm", "h100-pcie"},
	{"v100-sxm2", "v100-pcie"}, {"h20", "h20-141g"}, {"h200", "h200-nvl"},
}

// platformVariants replaces each asked card the platform does not list by
// a variant of it that the platform does list, and says so. Without a
// platform, or when the platform lists the card, gpus come back unchanged.
func platformVariants(offers []knowledge.Offer, platform string, gpus []string, lang string) ([]string, []string) {
	if platform == "" {
		return gpus, nil
	}
	listed := map[string]bool{}
	for _, o := range offers {
		if o.Platform == platform {
			listed[o.GPU] = true
		}
	}
	var notes []string
	out := make([]string, len(gpus))
	for i, g := range gpus {
		out[i] = g
		if listed[g] {
			continue
		}
		for _, fam := range cardVariants {
			if !slices.Contains(fam, g) {
				continue
			}
			for _, v := range fam {
				if v != g && listed[v] {
					out[i] = v
					notes = append(notes, tr(lang,
						fmt.Sprintf("%s lists no %s; its %s rows are shown instead.", platformName(lang, platform), gpuName(g), gpuName(v)),
						fmt.Sprintf("%s 没有 %s 的报价，改为列出它的 %s。", platformName(lang, platform), gpuName(g), gpuName(v))))
					break
				}
			}
		}
	}
	return out, notes
}

// packageAsked keeps only the monthly plans when a platform's 包月 price
// is asked and the platform lists one; otherwise offers are unchanged.
func packageAsked(offers []PriceOffer, billing, platform string) []PriceOffer {
	if billing != "monthly" || platform == "" {
		return offers
	}
	var monthly []PriceOffer
	for _, o := range offers {
		if o.Monthly {
			monthly = append(monthly, o)
		}
	}
	if len(monthly) == 0 {
		return offers
	}
	return monthly
}
