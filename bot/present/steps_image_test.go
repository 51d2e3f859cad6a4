package present

import (
	"testing"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/knowledge"
)

// TestImageWording holds a note and the labels that take operands to
// sentences written out by hand.
func TestImageWording(t *testing.T) {
	// 30 steps, CFG 2, batch 1 at 1024×1024, 40 % MFU, 2.5 ms a pass.
	n := advisor.ImageNote{Kind: advisor.ImageDenoising, Steps: 30, Passes: 2, Batch: 1, Resolution: 1024, MFUPct: 40, LaunchMS: 2.5}
	want := advisor.Text{
		EN: "30 denoising steps, 2 pass(es) per step, batch 1 at 1024×1024; compute at 40% of the BF16 peak, plus 2.5 ms per pass of kernel launches shared by the batch (eager PyTorch, calibrated on published diffusers timings)",
		ZH: "30 步去噪，每步 2 次前向，batch 1，1024×1024；按 BF16 峰值的 40% 计算，另加每次前向 2.5 ms 的内核启动开销（同批共担，按 PyTorch 即时执行、以公开的 diffusers 实测校准）",
	}
	if got := ImageNote(n); got != want {
		t.Errorf("ImageNote(denoising) =\n %q\nwant\n %q", got, want)
	}
	for _, tt := range []struct {
		key, unit string
		m         advisor.Method
		want      advisor.Text
	}{
		{"total", "GB", advisor.Inference, advisor.Text{EN: "total on one card", ZH: "单卡合计"}},
		{"total", "CNY", advisor.Inference, advisor.Text{EN: "total for the images asked", ZH: "所需图片总费用"}},
		{"gradients", "GB", advisor.LoRA, advisor.Text{EN: "adapter gradients", ZH: "适配器梯度"}},
		{"gradients", "GB", advisor.Full, advisor.Text{EN: "backbone gradients", ZH: "主干梯度"}},
		{"images_per_s", "images/s", advisor.Inference, advisor.Text{EN: "images per second, rtx4090", ZH: "每秒出图数，rtx4090"}},
	} {
		if got := ImageLabel(tt.key, tt.m, tt.unit, "rtx4090"); got != tt.want {
			t.Errorf("ImageLabel(%s, %s, %s) = %q, want %q", tt.key, tt.m, tt.unit, got, tt.want)
		}
	}
}

// TestImageWordsCoverEngine: for image answers down every branch (each
// method, precision and text-encoder placement, a count of images given,
// a model whose encoder sizes are unknown), every line and note the engine
// returns is worded here in both languages.
func TestImageWordsCoverEngine(t *testing.T) {
	kb := knowledge.MustShipped()
	m := advisor.MarketOf(kb)
	images := append([]knowledge.ImageModel(nil), kb.Images...)
	var unread knowledge.ImageModel // flux with one encoder size unknown
	for _, im := range images {
		if im.ID == "flux.1-dev" {
			unread = im
		}
	}
	unread.ID, unread.Aliases = "flux-unread", nil
	tes := map[string]*float64{}
	for k, v := range unread.TextEncoders {
		tes[k] = v
	}
	for k := range tes {
		tes[k] = nil // one size not read
		break
	}
	unread.TextEncoders = tes
	images = append(images, unread)
	kinds := map[advisor.ImageNoteKind]bool{}
	keys := map[string]bool{}
	for _, in := range []advisor.ImageInput{
		{Model: "sdxl", GPU: "4090", Images: 5000, Currency: knowledge.CNY},
		{Model: "sdxl"},
		{Model: "flux.1-dev", Bits: 4, TextEncoder: advisor.TextEncoderOffload},
		{Model: "flux.1-dev", Method: advisor.LoRA, Bits: 8, TextEncoder: advisor.TextEncoderCached},
		{Model: "flux.1-dev", Method: advisor.Full},
		{Model: "flux-unread"},
	} {
		res, err := advisor.Image(in, m, images)
		if err != nil {
			t.Fatalf("Image(%+v): %v", in, err)
		}
		got := res
		WordImage(&got)
		for i, n := range res.Notes {
			kinds[n.Kind] = true
			if a := got.Assumptions[i]; a.EN == "" || a.ZH == "" {
				t.Errorf("Image(%+v) note %s worded %q", in, n.Kind, a)
			}
		}
		for _, l := range got.Lines {
			keys[l.Key] = true
			if l.Label.EN == "" || l.Label.ZH == "" {
				t.Errorf("Image(%+v) line %s: label %q", in, l.Key, l.Label)
			}
		}
	}
	for _, k := range []advisor.ImageNoteKind{advisor.ImageEncodersUnread, advisor.ImageFP8, advisor.ImageNF4, advisor.ImageOffload,
		advisor.ImageCached, advisor.ImageFullFrozen, advisor.ImageEncoderSize, advisor.ImageTraining, advisor.ImageDenoising} {
		if !kinds[k] {
			t.Errorf("no answer above makes a %s note: add one", k)
		}
	}
	for _, k := range []string{"seconds_per_step", "train_cost", "images_per_s", "per_1000_images", "total", "total_hours"} {
		if !keys[k] {
			t.Errorf("no answer above has a %s line: add one", k)
		}
	}
}
