package advisor

import "github.com/gpubot/gpubot/knowledge"

// marketProviders classifies the providers of the shipped market snapshot
// (knowledge/catalog/source/data/market.csv) that platforms.yaml does not
// list, with the categories platforms.yaml uses. The categories decide who
// may price a persona's plan: an enterprise rents only from providers that
// invoice and sign SLAs (hyperscalers, the Chinese clouds, dedicated GPU
// clouds), never from a marketplace of third-party hosts or an aggregator
// that resells them. A provider missing here is treated as unknown: it is
// priced in rankings but never chosen for an enterprise.
var marketProviders = map[string]knowledge.Category{
	// Hyperscalers and general-purpose clouds with enterprise contracts.
	"oracle": knowledge.Hyperscaler,
	"ibm":    knowledge.Hyperscaler,
	// Alibaba Cloud's international site is 阿里云.
	"alibaba_cloud": knowledge.CNCloud,
	// Dedicated GPU clouds: their own data-centre capacity, sold on
	// account with invoices and published SLAs.
	"coreweave":      knowledge.GPUCloud,
	"crusoe":         knowledge.GPUCloud,
	"nebius":         knowledge.GPUCloud,
	"voltagepark":    knowledge.GPUCloud,
	"hyperstack":     knowledge.GPUCloud,
	"paperspace":     knowledge.GPUCloud,
	"digitalocean":   knowledge.GPUCloud,
	"linode":         knowledge.GPUCloud,
	"vultr":          knowledge.GPUCloud,
	"ovh":            knowledge.GPUCloud,
	"scaleway":       knowledge.GPUCloud,
	"exoscale":       knowledge.GPUCloud,
	"upcloud":        knowledge.GPUCloud,
	"civo":           knowledge.GPUCloud,
	"cudo":           knowledge.GPUCloud,
	"massedcompute":  knowledge.GPUCloud,
	"denvr":          knowledge.GPUCloud,
	"fluidstack":     knowledge.GPUCloud,
	"jarvislabs":     knowledge.GPUCloud,
	"e2e":            knowledge.GPUCloud,
	"latitude":       knowledge.GPUCloud,
	"seeweb":         knowledge.GPUCloud,
	"sesterce":       knowledge.GPUCloud,
	"cirrascale":     knowledge.GPUCloud,
	"lyceum":         knowledge.GPUCloud,
	"verda":          knowledge.GPUCloud,
	"hot_aisle":      knowledge.GPUCloud,
	"zenlayer":       knowledge.GPUCloud,
	"mithril":        knowledge.GPUCloud,
	"thundercompute": knowledge.GPUCloud,
	// Marketplaces and aggregators: listings from third-party hosts or
	// resold capacity of other clouds, without one provider's SLA.
	"tensordock":     knowledge.Marketplace,
	"akash":          knowledge.Marketplace,
	"salad":          knowledge.Marketplace,
	"primeintellect": knowledge.Marketplace,
	"shadeform":      knowledge.Marketplace,
	"hyperbolic":     knowledge.Marketplace,
	"simplepod":      knowledge.Marketplace,
}

// category is a platform's category: platforms.yaml's, else the market
// snapshot's table; ok is false for a platform neither knows.
func (m Market) category(platform string) (knowledge.Category, bool) {
	if p, ok := m.platform(platform); ok {
		return p.Category, true
	}
	c, ok := marketProviders[platform]
	return c, ok
}

// contracted reports whether a platform signs contracts and invoices with
// an SLA: a hyperscaler, a Chinese cloud or a dedicated GPU cloud. A
// market-wide range is no supplier at all.
func (m Market) contracted(platform string) bool {
	if IsMarketRange(platform) {
		return false
	}
	c, ok := m.category(platform)
	return ok && (c == knowledge.Hyperscaler || c == knowledge.CNCloud || c == knowledge.GPUCloud)
}

// retail reports whether anyone can rent a card there by the hour with a
// card or an account top-up, no contract: the Chinese retail platforms,
// marketplaces and GPU clouds. A market-wide range is not a platform.
func (m Market) retail(platform string) bool {
	if IsMarketRange(platform) {
		return false
	}
	c, ok := m.category(platform)
	return ok && (c == knowledge.CNRetail || c == knowledge.Marketplace || c == knowledge.GPUCloud)
}
