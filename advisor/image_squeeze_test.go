package advisor

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// FLUX.1-dev LoRA on a 16 GB card (review Q43). From
// shared/reference/image_models.json: backbone 11,901.4M, VAE 83.82M,
// T5-XXL 4,762.3M + CLIP-L 123.1M. Adapters 0.5 % of the backbone
// (59.5M): grads × 2 B = 0.119 GB, states × 12 B = 0.714 GB; activations
// 6.0 GB at 1024² batch 1 (the engine's stated kohya figure); overhead
// 0.8 GB + 5 %.
//
//	text encoders cached, bf16: (23.803 + 0.168 + 0.119 + 0.714 + 6.0) × 1.05 + 0.8 = 33.14 GB
//	+ FP8 base (1 B):          (11.901 + 0.168 + 0.833 + 6.0) × 1.05 + 0.8 = 20.65 GB
//	+ NF4 base (4.5 bits):     (6.694 + 0.168 + 0.833 + 6.0) × 1.05 + 0.8 = 15.18 GB  ≤ 16
//
// bf16 weights alone are 23.8 GB (11.9B × 2), over 16 GB before anything
// else: only the NF4 base fits.
func TestSqueezeFluxLoRAOn16GB(t *testing.T) {
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	in := ImageInput{Model: "flux.1-dev", Method: LoRA}
	sq, ok := SqueezeImage(in, m, kb.Images, 16)
	if !ok {
		t.Fatalf("no setting fits 16 GB: %+v", sq)
	}
	want := []ImageSqueezeStep{{"text_encoder=cached", 33.14}, {"bits=8 text_encoder=cached", 20.65}, {"bits=4 text_encoder=cached", 15.18}}
	if len(sq.Steps) != len(want) {
		t.Fatalf("steps %+v, want %+v", sq.Steps, want)
	}
	for i, st := range sq.Steps {
		if st.Change != want[i].Change || !near(st.MemoryGB, want[i].MemoryGB, 0.05) {
			t.Errorf("step %d = %+v, want %+v", i, st, want[i])
		}
	}
	if sq.Change != "bits=4 text_encoder=cached" || !near(sq.MemoryGB, 15.18, 0.05) {
		t.Errorf("fit %q at %v GB, want bits=4 text_encoder=cached at 15.18", sq.Change, sq.MemoryGB)
	}
	// On 24 GB the FP8 base is enough (20.65 GB).
	if sq, ok := SqueezeImage(in, m, kb.Images, 24); !ok || sq.Change != "bits=8 text_encoder=cached" {
		t.Errorf("24 GB: %q %v, want bits=8 text_encoder=cached", sq.Change, ok)
	}
	// SDXL LoRA holds on 24 GB as asked: nothing to squeeze.
	if _, ok := SqueezeImage(ImageInput{Model: "sdxl", Method: LoRA}, m, kb.Images, 24); ok {
		t.Error("SDXL LoRA fits 24 GB as asked: no squeeze expected")
	}
}
