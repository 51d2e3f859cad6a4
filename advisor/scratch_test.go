package advisor

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

func TestScratch(t *testing.T) {
	kb := knowledge.MustShipped()
	for _, w := range []Workload{{Model: "deepseek-v3"}, {Model: "mixtral 8x7b"}, {Model: "qwen3-30b-a3b"}, {Model: "gpt-oss-120b"}, {ParamsB: 7, Method: QLoRA}, {ParamsB: 7, Method: LoRA}, {Model: "gemma-3-27b", SeqLen: 32768}} {
		r, err := Fit(w, kb.GPUs, kb.Archs)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %s bits=%d total %.1f %+v", r.Shape.From, r.Workload.Method, r.Workload.Bits, r.TotalGB, r.Breakdown)
		for _, o := range r.Options {
			if o.GPU == "h100-sxm" || o.GPU == "h20" || o.GPU == "rtx4090" || o.GPU == "h200" || o.GPU == "a100-80g" {
				t.Logf("   %s x%d maxb=%d conc=%.2f", o.GPU, o.Count, o.MaxBatch, o.MaxConcurrency)
			}
		}
	}
}
