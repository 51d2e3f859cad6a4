package advisor

import (
	"os"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gpubot/gpubot/knowledge"
)

// "SDXL 推理 4090 够吗": SDXL base at 1024², one image, by hand.
func TestImageSDXLOn4090(t *testing.T) {
	kb := knowledge.MustShipped()
	m := testMarket(t, hourly("4090", "autodl", "rtx4090", 2, 2, knowledge.CNY, knowledge.OnDemand))
	res, err := Image(ImageInput{Model: "SDXL", GPU: "4090", Currency: knowledge.CNY}, m, kb.Images)
	if err != nil {
		t.Fatal(err)
	}
	// Weights (2567.46 + 123.06 + 694.66 + 83.65)M × 2 bytes = 6.938 GB;
	// activations 1 GB × 2 guidance passes + 3 GB VAE decode; overhead
	// 0.8 + 5 %.
	w := (2567.463684 + 123.06048 + 694.65984 + 83.653863) * 2 / 1e3
	total := (w+5)*1.05 + 0.8
	if !near(res.MemoryGB, total, 0.02) || res.Best == nil || !res.Best.Fits {
		t.Fatalf("SDXL memory %v GB, best %+v; want %.2f GB, fits 24 GB", res.MemoryGB, res.Best, total)
	}
	// 30 steps × 2 passes × 2 × 2567.46M × (1024/32)² FLOPs at 40 % of
	// 165.2 TFLOPS, plus 60 passes × 12 ms of launches; ¥2/h.
	sec := 30*2*2*2567.463684e6*1024/(165.2e12*0.4) + 60*0.012
	if !near(res.Best.SecondsImage, sec, 0.002) {
		t.Errorf("seconds per image = %v, want %.3f", res.Best.SecondsImage, sec)
	}
	if want := 2 / (1 / sec * 3600) * 1000; !near(res.Best.PerThousand, want, 0.01) {
		t.Errorf("per 1,000 images = %v, want ¥%.2f", res.Best.PerThousand, want)
	}
}

// "flux lora 要多大显存": FLUX.1-dev LoRA at 1024² does not fit 24 GB with
// a 16-bit base and its T5 encoder resident; it fits 48 GB.
func TestImageFluxLoRAMemory(t *testing.T) {
	kb := knowledge.MustShipped()
	res, err := Image(ImageInput{Model: "flux dev", Method: LoRA}, testMarket(t), kb.Images)
	if err != nil {
		t.Fatal(err)
	}
	w := (11901.40832 + 123.06048 + 4762.310656 + 83.819683) * 2 / 1e3
	a := 11901.40832e6 * 0.005
	total := (w+a*14/1e9+6)*1.05 + 0.8
	if !near(res.MemoryGB, total, 0.02) {
		t.Errorf("flux lora memory %v GB, want %.2f", res.MemoryGB, total)
	}
	fits := map[string]bool{}
	for _, o := range res.Options {
		fits[o.GPU] = o.Fits
	}
	if fits["rtx4090"] || !fits["l40s"] {
		t.Errorf("fits: 4090 %v (want false), L40S %v (want true)", fits["rtx4090"], fits["l40s"])
	}
}

// Unknown image models and resolutions get a clear error.
func TestImageInputErrors(t *testing.T) {
	kb := knowledge.MustShipped()
	_, err := Image(ImageInput{Model: "midjourney"}, testMarket(t), kb.Images)
	wantInputErr(t, "Image(midjourney)", err, "model")
	_, err = Image(ImageInput{Model: "sd-1.5", Resolution: 50}, testMarket(t), kb.Images)
	wantInputErr(t, "Image(res 50)", err, "resolution")
}

type imagePoint struct {
	Name   string  `yaml:"name"`
	Split  string  `yaml:"split"`
	Source string  `yaml:"source"`
	Model  string  `yaml:"model"`
	GPU    string  `yaml:"gpu"`
	Res    int     `yaml:"res"`
	Steps  int     `yaml:"steps"`
	WantS  float64 `yaml:"want_s"`
}

// The image model's seconds per image against published timings
// (testdata/image_points.yaml, sources there): within 2× for ≥ 80 % of
// them and a median error ≤ 35 %, on all rows and on the held-out rows
// alone — the bar the serving model is held to.
func TestImageMatchesPublishedTimings(t *testing.T) {
	raw, err := os.ReadFile("testdata/image_points.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var points []imagePoint
	if err := yaml.Unmarshal(raw, &points); err != nil {
		t.Fatal(err)
	}
	if len(points) < 10 {
		t.Fatalf("%d image points, want ≥ 10", len(points))
	}
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	cal := newCalibration()
	for _, p := range points {
		if p.Source == "" || (p.Split != "tune" && p.Split != "holdout") {
			t.Fatalf("%s: needs a source and split tune|holdout", p.Name)
		}
		res, err := Image(ImageInput{Model: p.Model, GPU: p.GPU, Resolution: p.Res, Steps: p.Steps, Batch: 1}, m, kb.Images)
		if err != nil || res.Best == nil || res.Best.SecondsImage == 0 {
			t.Fatalf("%s: %v (best %+v)", p.Name, err, res.Best)
		}
		ratio := res.Best.SecondsImage / p.WantS
		ok := cal.add(p.Split, ratio)
		t.Logf("%-7s %-48s %6.3f s vs %6.3f s (%+6.1f%%) %s", p.Split, p.Name, res.Best.SecondsImage, p.WantS, (ratio-1)*100, mark(ok))
	}
	cal.check(t, "image timings")
}

// FLUX.1-dev at 1024², by hand: weights in FP8 or NF4 with the text
// encoders offloaded or in 8 bits, against the 16-bit, T5-resident 40 GB.
//
//	16-bit, resident  (11,901.41 + 123.06 + 4,762.31 + 83.82)M × 2 = 33.741 GB
//	FP8, T5 offloaded 11,901.41M × 1 + VAE 83.82M × 2               = 12.069 GB
//	NF4, T5 in FP8    11,901.41M × 4.5/8 + CLIP 123.06M × 2 + T5 4,762.31M × 1 + VAE × 2 = 11.623 GB
//
// activations 1 GB (one pass: guidance-distilled) + 3 GB VAE decode;
// total (weights + 4) × 1.05 + 0.8: 40.23, 17.67 and 17.20 GB.
func TestImageFluxPrecisionAndOffload(t *testing.T) {
	kb := knowledge.MustShipped()
	const bb, clip, t5, vae = 11901.40832, 123.06048, 4762.310656, 83.819683
	tests := []struct {
		bits    int
		te      string
		weights float64
		on4090  bool
	}{
		{0, "", (bb + clip + t5 + vae) * 2 / 1e3, false},
		{8, TextEncoderOffload, (bb + vae*2) / 1e3, true},
		{4, "", (bb*4.5/8 + clip*2 + t5 + vae*2) / 1e3, true},
	}
	for _, tt := range tests {
		res, err := Image(ImageInput{Model: "flux.1-dev", Bits: tt.bits, TextEncoder: tt.te}, testMarket(t), kb.Images)
		if err != nil {
			t.Fatal(err)
		}
		total := (tt.weights+4)*1.05 + 0.8
		fits := false
		for _, o := range res.Options {
			if o.GPU == "rtx4090" {
				fits = o.Fits
			}
		}
		if !near(res.Breakdown.WeightsGB, tt.weights, 0.01) || !near(res.MemoryGB, total, 0.02) || fits != tt.on4090 {
			t.Errorf("bits %d te %q: weights %v GB, total %v GB, fits a 4090 %v; want %.2f, %.2f, %v", tt.bits, tt.te, res.Breakdown.WeightsGB, res.MemoryGB, fits, tt.weights, total, tt.on4090)
		}
	}
	_, err := Image(ImageInput{Model: "flux.1-dev", Method: Full, Bits: 4}, testMarket(t), kb.Images)
	wantInputErr(t, "Image(full, bits=4)", err, "bits")
	_, err = Image(ImageInput{Model: "flux.1-dev", TextEncoder: "disk"}, testMarket(t), kb.Images)
	wantInputErr(t, "Image(text_encoder=disk)", err, "text_encoder")
}

// FLUX.1-dev LoRA on one H100 at $2/h, 1,000 steps of batch 1 at 1024²:
//
//	one pass   2 × 11,901.41M × (1024/16)² = 97.50 TFLOP
//	one step   3 passes (forward, activation gradients, recompute):
//	           3 × 97.50 ÷ (989 × 0.40) + 3 × 12 ms = 0.7754 s
//	1,000 steps 775.4 s = 0.2154 h → $0.43
func TestImageFluxLoRATrainingTimeAndCost(t *testing.T) {
	kb := knowledge.MustShipped()
	m := testMarket(t, hourly("h100", "vastai", "h100-sxm", 2, 2, knowledge.USD, knowledge.OnDemand))
	res, err := Image(ImageInput{Model: "flux.1-dev", Method: LoRA, GPU: "h100", Currency: knowledge.USD}, m, kb.Images)
	if err != nil {
		t.Fatal(err)
	}
	pass := 2 * 11901.40832e6 * 64 * 64
	step := 3*pass/(989e12*0.4) + 3*0.012
	o := res.Options[0]
	if o.GPU != "h100-sxm" || !near(o.SecondsStep, step, 0.001) || !near(o.TrainHours, 1000*step/3600, 0.001) || !near(o.TrainCost, 2*1000*step/3600, 0.01) {
		t.Errorf("H100: %+v; want %.4f s/step, %.4f h, $%.2f", o, step, 1000*step/3600, 2*1000*step/3600)
	}
	if o.ImagesPerS != 0 || res.Best != nil {
		t.Errorf("a training answer has no images/s and no per-image best: %+v", o)
	}
	if l, ok := lineByKey(res.Lines, "train_cost"); !ok || !near(l.Value, 0.43, 0.005) {
		t.Errorf("train_cost line %+v, want $0.43", l)
	}
}

// Images per hour: the SDXL-on-4090 figure above, 3600 ÷ seconds per image.
func TestImageImagesPerHour(t *testing.T) {
	kb := knowledge.MustShipped()
	m := testMarket(t, hourly("4090", "autodl", "rtx4090", 2, 2, knowledge.CNY, knowledge.OnDemand))
	res, err := Image(ImageInput{Model: "SDXL", GPU: "4090", Currency: knowledge.CNY}, m, kb.Images)
	if err != nil {
		t.Fatal(err)
	}
	sec := 30*2*2*2567.463684e6*1024/(165.2e12*0.4) + 60*0.012 // 2.584 s
	if res.Best == nil || !near(res.Best.ImagesPerH, 3600/sec, 2) {
		t.Errorf("images per hour %+v, want %.0f", res.Best, 3600/sec)
	}
	if l, ok := lineByKey(res.Lines, "images_per_hour"); !ok || !near(l.Value, 3600/sec, 2) {
		t.Errorf("images_per_hour line %+v, want %.0f", l, 3600/sec)
	}
}
