package knowledge_test

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// The names are the ones the providers use on their own websites, as
// written in data/platforms.yaml and data/providers.yaml.
func TestPlatformNames(t *testing.T) {
	kb := knowledge.MustShipped()
	for _, c := range []struct{ id, en, zh string }{
		{"autodl", "AutoDL", "AutoDL 算力云"},                       // platforms.yaml, with a Chinese name
		{"runpod", "RunPod", "RunPod"},                           // platforms.yaml, no Chinese name: English in both
		{"primeintellect", "Prime Intellect", "Prime Intellect"}, // providers.yaml only
		{"salad", "SaladCloud", "SaladCloud"},
		{"alibaba_cloud", "Alibaba Cloud", "阿里云"},
		{"no-such-cloud", "no-such-cloud", "no-such-cloud"}, // unknown: the id itself
	} {
		en, zh := kb.PlatformNames(c.id)
		if en != c.en || zh != c.zh {
			t.Errorf("PlatformNames(%q) = %q, %q; want %q, %q", c.id, en, zh, c.en, c.zh)
		}
	}
	if got := kb.GPUName("h100-sxm"); got != "H100 SXM" {
		t.Errorf("GPUName(h100-sxm) = %q, want H100 SXM", got)
	}
	if got := kb.GPUName("nosuch"); got != "nosuch" {
		t.Errorf("GPUName(nosuch) = %q, want the id", got)
	}
}
