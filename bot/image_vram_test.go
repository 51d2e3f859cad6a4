package bot

import (
	"strings"
	"testing"
)

// An image job asked against the asker's own memory: the verdict is the
// need against their GB, and it leads. SDXL LoRA at 1024² needs more than
// 12 GB (the UNet's 2.6B weights alone are 5.1 GB in BF16, with adapter
// states and 1024² activations on top) and less than 24 GB.
func TestImageJobOnTheirMemory(t *testing.T) {
	for _, c := range []struct {
		q, verdict, lead string
	}{
		{"显存12g能不能跑SDXL的LoRA训练", "no", "不行：约需 "},
		{"can my 24GB card do SDXL LoRA?", "yes", "Yes — it needs ≈"},
	} {
		a := askOne(t, c.q)
		if a.Typed == nil || a.Typed.Asked != "memory_gb" || a.Typed.Verdict == nil || *a.Typed.Verdict != c.verdict {
			t.Errorf("%s: typed %+v, want memory_gb with %s", c.q, a.Typed, c.verdict)
			continue
		}
		if need := *a.Typed.Value; need <= 12 || need >= 24 {
			t.Errorf("%s: need %v GB, want between 12 and 24", c.q, need)
		}
		if !strings.HasPrefix(a.Headline, c.lead) {
			t.Errorf("%s: headline %q, want it to lead with %q", c.q, a.Headline, c.lead)
		}
	}
}
