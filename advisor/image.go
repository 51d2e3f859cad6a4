package advisor

import (
	"fmt"
	"math"
	"sort"

	"github.com/gpubot/gpubot/knowledge"
)

// Image-model constants, each with its source or assumption.
const (
	// t5EncoderM is the T5-v1.1-XXL encoder used by SD3 and FLUX (reference
	// image_models.json, SD3.5 / FLUX rows); sd3-medium's own encoder sizes
	// were not read, so SD3.5 medium's are used for it.
	t5EncoderM = 4762.310656
	clipLM     = 123.65
	clipGM     = 694.65984
	// imageMFU is the share of the BF16 tensor peak a denoising step
	// reaches: diffusion backbones run large GEMMs and convolutions at
	// batch 1 already (assumption, 40 %).
	imageMFU = 0.40
	// Activation memory of one image at 1024², in GB: the backbone's
	// activations during a step (≈1 GB, FlashAttention) and the VAE decode
	// peak, which diffusers measures at about 3 GB at 1024² without tiling.
	// Both scale with the pixel count. Training keeps more: ≈ 6 GB per
	// image at 1024² with gradient checkpointing (kohya / diffusers LoRA
	// scripts), for the backbone only (latents are pre-encoded).
	// imagePassS is what one denoiser pass costs beyond its FLOPs in the
	// eager PyTorch pipelines people run (diffusers, ComfyUI, A1111): a
	// UNet or DiT pass launches several hundred small kernels (norms,
	// activations, attention pieces) at about 10 µs of launch each, and
	// at small latents they do not fill the card. 12 ms per pass, set from
	// fal.ai's SD 1.5 run on an A100 (50 steps at 512² in 1.59 s where the
	// FLOPs alone take 0.35 s) and checked on the SDXL rows of
	// testdata/image_points.yaml. Batched images share it.
	imagePassS = 12e-3

	stepActGB1024  = 1.0
	vaePeakGB1024  = 3.0
	trainActGB1024 = 6.0
	// Default denoising steps: 30 for SD 1.5 / SDXL (common UIs), 28 for
	// SD3 / FLUX.1-dev (their diffusers examples).
	defaultStepsUNet = 30
	defaultStepsDiT  = 28
	imageLoRARank    = 16
)

// ImageInput is an image-model question.
type ImageInput struct {
	Model      string  `json:"model"`      // id or alias: sd-1.5, sdxl, sd3.5-medium, flux.1-dev
	Method     Method  `json:"method"`     // inference (default), lora, full
	Resolution int     `json:"resolution"` // pixels per side; default the model's native
	Batch      int     `json:"batch"`      // images per step; default 1
	Steps      int     `json:"steps"`      // denoising steps; default per model
	GPU        string  `json:"gpu"`        // card for throughput and cost; empty = every card
	Images     float64 `json:"images"`     // how many images to price; default 1,000
	Price      Money   `json:"price"`      // rent per card-hour, replacing the catalogue
	Spot       bool    `json:"spot"`

	Currency  knowledge.Currency `json:"currency"`
	FX        float64            `json:"fx"`
	Defaulted []string           `json:"defaulted"`
}

// ImageOption is one card's verdict.
type ImageOption struct {
	GPU          string  `json:"gpu"`
	VRAMGB       float64 `json:"vram_gb"`
	Fits         bool    `json:"fits"`
	ImagesPerS   float64 `json:"images_per_s,omitempty"`
	Hourly       float64 `json:"hourly,omitempty"`
	Platform     string  `json:"platform,omitempty"`
	PerThousand  float64 `json:"per_1000_images,omitempty"`
	SecondsImage float64 `json:"seconds_per_image,omitempty"`
}

// ImageResult answers fit, speed and cost for an image model.
type ImageResult struct {
	Inputs      ImageInput         `json:"inputs"`
	Model       string             `json:"model"`
	MemoryGB    float64            `json:"memory_gb"`
	Breakdown   Breakdown          `json:"breakdown"`
	Options     []ImageOption      `json:"options"` // cards that fit first, cheapest per 1,000 images first
	Best        *ImageOption       `json:"best,omitempty"`
	Total       float64            `json:"total,omitempty"` // Images on the best card
	Currency    knowledge.Currency `json:"currency"`
	Lines       []Line             `json:"lines"`
	Assumptions []Text             `json:"assumptions"`
	Sources     []PriceSource      `json:"sources"`
}

// Image sizes an image model's inference or fine-tuning, its images per
// second on each card (compute bound: steps × guidance passes × FLOPs per
// pass ÷ (peak × MFU)) and the cost per 1,000 images.
//
// FLOPs per pass ≈ 2 × backbone parameters × positions: a diffusion
// transformer applies its weights to every latent patch ((res/16)², 2×2
// patches of the 1/8 latent); a UNet runs most of its weights at the
// downsampled stages, taken as (res/32)² positions: 0.44 TFLOP per pass
// for SD 1.5 at 512², 5.3 TFLOP for SDXL at 1024². Attention over the
// prompt tokens is left out. An approximation, and the answer says so.
func Image(in ImageInput, m Market, models []knowledge.ImageModel) (ImageResult, error) {
	const hint = "/gpu fit sdxl inference on 4090"
	im, ok := knowledge.FindImageModel(models, in.Model)
	if !ok {
		return ImageResult{}, inputErr("model", fmt.Sprintf("unknown image model %q; use sd-1.5, sdxl, sd3-medium, sd3.5-medium or flux.1-dev", in.Model), hint)
	}
	in.Defaulted = nil
	if in.Method == "" {
		in.Method = Inference
		in.Defaulted = append(in.Defaulted, "method")
	}
	switch in.Method {
	case Inference, LoRA, Full:
	default:
		return ImageResult{}, inputErr("method", fmt.Sprintf("image models take inference, lora or full, got %q", in.Method), hint)
	}
	if in.Resolution == 0 {
		in.Resolution = im.Resolution
		in.Defaulted = append(in.Defaulted, "resolution")
	}
	if in.Resolution < 128 || in.Resolution > 4096 {
		return ImageResult{}, inputErr("resolution", fmt.Sprintf("resolution must be between 128 and 4096 pixels, got %d", in.Resolution), hint+" res=1024")
	}
	if in.Batch == 0 {
		in.Batch = 1
		in.Defaulted = append(in.Defaulted, "batch")
	}
	if in.Batch < 0 || in.Batch > 256 {
		return ImageResult{}, inputErr("batch", fmt.Sprintf("batch must be between 1 and 256, got %d", in.Batch), hint+" bs=4")
	}
	if in.Steps == 0 {
		in.Steps = defaultStepsDiT
		if im.UNet() {
			in.Steps = defaultStepsUNet
		}
		in.Defaulted = append(in.Defaulted, "steps")
	}
	if in.Images == 0 {
		in.Images = 1000
		in.Defaulted = append(in.Defaulted, "images")
	}
	if math.IsNaN(in.Images) || in.Images < 0 || in.Images > 1e9 || in.Steps < 1 || in.Steps > 1000 {
		return ImageResult{}, inputErr("images", "images must be between 1 and 1e9 and steps between 1 and 1000", hint)
	}
	p, err := newPricing(in.Currency, in.Price.Currency, in.FX, hint, &in.Defaulted)
	if err != nil {
		return ImageResult{}, err
	}
	in.Currency, in.FX = p.cur, p.fx
	res := ImageResult{Inputs: in, Model: im.ID, Currency: p.cur}
	note := func(en, zh string) { res.Assumptions = append(res.Assumptions, txt(en, zh)) }
	add := func(key, en, zh string, v float64, unit, how string) {
		res.Lines = append(res.Lines, Line{Key: key, Label: txt(en, zh), Value: round(v, 2), Unit: unit, How: how})
	}

	// Memory.
	te, missing := im.TextEncoderM()
	if missing {
		te = clipLM + clipGM + t5EncoderM
		note(fmt.Sprintf("%s's text-encoder sizes were not read; SD3.5 medium's (CLIP-L, CLIP-G, T5-XXL) are used", im.ID),
			fmt.Sprintf("%s 的文本编码器参数未读到，按 SD3.5 medium 的（CLIP-L、CLIP-G、T5-XXL）计", im.ID))
	}
	vae := im.VAEM
	if vae == 0 {
		vae = 83.82
	}
	scale := float64(in.Resolution*in.Resolution) / (1024 * 1024)
	cfg := 2 // classifier-free guidance: a conditional and an unconditional pass
	if im.ID == "flux.1-dev" {
		cfg = 1 // guidance-distilled: one pass per step
	}
	var bd Breakdown
	bd.WeightsGB = (im.BackboneM + te + vae) * 1e6 * 2 / bytesPerGB
	add("weights", "weights (backbone + text encoders + VAE, 16-bit)", "权重（主干 + 文本编码器 + VAE，16 位）", bd.WeightsGB, "GB",
		fmt.Sprintf("(%sM + %sM + %sM) × 2 bytes", num(round(im.BackboneM, 1)), num(round(te, 1)), num(round(vae, 1))))
	switch in.Method {
	case Inference:
		bd.ActivationsGB = stepActGB1024*scale*float64(in.Batch*cfg) + vaePeakGB1024*scale
		add("activations", "activations (step + VAE decode peak)", "激活值（去噪步 + VAE 解码峰值）", bd.ActivationsGB, "GB",
			fmt.Sprintf("%s GB × (%d/1024)² × %d images × %d guidance passes + %s GB VAE decode × (%d/1024)²", num(stepActGB1024), in.Resolution, in.Batch, cfg, num(vaePeakGB1024), in.Resolution))
	case LoRA:
		// Adapters on the backbone's attention and MLP projections: about
		// rank × 2 × width per matrix; taken as 0.5 % of the backbone at
		// rank 16 (diffusers LoRA checkpoints of SDXL ≈ 23M, FLUX ≈ 20–80M).
		a := im.BackboneM * 1e6 * 0.005
		bd.GradientsGB = a * 2 / bytesPerGB
		bd.OptimizerGB = a * 12 / bytesPerGB
		bd.ActivationsGB = trainActGB1024 * scale * float64(in.Batch)
		add("gradients", "adapter gradients", "适配器梯度", bd.GradientsGB, "GB", fmt.Sprintf("%sM adapter params (0.5 %% of the backbone at rank %d) × 2 bytes", num(round(a/1e6, 1)), imageLoRARank))
		add("optimizer", "adapter optimizer states", "适配器优化器状态", bd.OptimizerGB, "GB", fmt.Sprintf("%sM × (FP32 master 4 + Adam 8) bytes", num(round(a/1e6, 1))))
		add("activations", "activations (gradient checkpointing)", "激活值（梯度检查点）", bd.ActivationsGB, "GB",
			fmt.Sprintf("%s GB × (%d/1024)² × batch %d", num(trainActGB1024), in.Resolution, in.Batch))
	case Full:
		bd.GradientsGB = im.BackboneM * 1e6 * 2 / bytesPerGB
		bd.OptimizerGB = im.BackboneM * 1e6 * 12 / bytesPerGB
		bd.ActivationsGB = trainActGB1024 * scale * float64(in.Batch)
		add("gradients", "backbone gradients", "主干梯度", bd.GradientsGB, "GB", fmt.Sprintf("%sM × 2 bytes", num(round(im.BackboneM, 1))))
		add("optimizer", "optimizer states", "优化器状态", bd.OptimizerGB, "GB", fmt.Sprintf("%sM × (FP32 master 4 + Adam m 4 + v 4) bytes", num(round(im.BackboneM, 1))))
		add("activations", "activations (gradient checkpointing)", "激活值（梯度检查点）", bd.ActivationsGB, "GB",
			fmt.Sprintf("%s GB × (%d/1024)² × batch %d", num(trainActGB1024), in.Resolution, in.Batch))
		note("full fine-tuning trains the backbone; text encoders and VAE stay frozen", "全参微调只训练主干，文本编码器和 VAE 冻结")
	}
	bd.OverheadGB = overheadFixedGB + overheadFrac*bd.core()
	add("overhead", "framework overhead", "框架开销", bd.OverheadGB, "GB", fmt.Sprintf("%s GB + 5%% × %s", num(overheadFixedGB), gb(bd.core())))
	res.Breakdown = roundBreakdown(bd)
	res.MemoryGB = round(bd.Total(), 2)
	add("total", "total on one card", "单卡合计", res.MemoryGB, "GB", "weights + activations + gradients + optimizer + overhead")
	if te > 1000 {
		teGB := te * 1e6 * 2 / bytesPerGB
		note(fmt.Sprintf("the T5-XXL text encoder is %s GB in 16-bit; encoding prompts first and offloading it (or running it in 8-bit) saves that much", num(round(teGB, 1))),
			fmt.Sprintf("T5-XXL 文本编码器 16 位占 %s GB；先编码提示词再卸载（或 8 位运行）可省下这部分", num(round(teGB, 1))))
	}

	// Speed: FLOPs per pass.
	positions := math.Pow(float64(in.Resolution)/16, 2)
	posHow := fmt.Sprintf("(%d/16)² latent patches", in.Resolution)
	if im.UNet() {
		positions = math.Pow(float64(in.Resolution)/32, 2)
		posHow = fmt.Sprintf("(%d/32)² effective UNet positions", in.Resolution)
	}
	passFLOPs := 2 * im.BackboneM * 1e6 * positions
	imgFLOPs := passFLOPs * float64(in.Steps*cfg)
	add("flops_per_image", "compute per image", "每张图计算量", imgFLOPs/1e12, "TFLOP",
		fmt.Sprintf("%d steps × %d passes × 2 × %sM params × %s", in.Steps, cfg, num(round(im.BackboneM, 1)), posHow))
	passS := float64(in.Steps*cfg) * imagePassS / float64(in.Batch)
	note(fmt.Sprintf("%d denoising steps, %d pass(es) per step, batch %d at %d×%d; compute at %s%% of the BF16 peak, plus %s ms per pass of kernel launches shared by the batch (eager PyTorch, calibrated on published diffusers timings)", in.Steps, cfg, in.Batch, in.Resolution, in.Resolution, num(imageMFU*100), num(imagePassS*1000)),
		fmt.Sprintf("%d 步去噪，每步 %d 次前向，batch %d，%d×%d；按 BF16 峰值的 %s%% 计算，另加每次前向 %s ms 的内核启动开销（同批共担，按 PyTorch 即时执行、以公开的 diffusers 实测校准）", in.Steps, cfg, in.Batch, in.Resolution, in.Resolution, num(imageMFU*100), num(imagePassS*1000)))

	where := OfferFilter{NoInterruptible: !in.Spot, NoMarketRange: true}
	ix := indexOf(m.Offers) // every card's price from one index
	for _, g := range m.GPUs {
		if in.GPU != "" && knowledge.NormalizeName(g.ID) != knowledge.NormalizeName(in.GPU) && !hasAlias(g, in.GPU) {
			continue
		}
		o := ImageOption{GPU: g.ID, VRAMGB: g.VRAMGB, Fits: res.MemoryGB <= g.VRAMGB}
		if o.Fits && g.PeakTFLOPS() > 0 && in.Method == Inference {
			o.SecondsImage = round(imgFLOPs/(g.PeakTFLOPS()*1e12*imageMFU)+passS, 3)
			o.ImagesPerS = round(1/o.SecondsImage, 3)
			price, platform, ok := 0.0, "", false
			if in.Price.Given() {
				price, ok = p.money(in.Price), true
			} else if cp, found := ix.cheapest(g.ID, p, where); found {
				price, platform, ok = cp.Price(), cp.Platform, true
			}
			if ok {
				o.Hourly, o.Platform = round(price, 4), platform
				o.PerThousand = round(price/(o.ImagesPerS*3600)*1000, 4)
			}
		}
		res.Options = append(res.Options, o)
	}
	if len(res.Options) == 0 {
		return ImageResult{}, inputErr("gpu", fmt.Sprintf("unknown card %q", in.GPU), hint)
	}
	sort.SliceStable(res.Options, func(i, j int) bool {
		a, b := res.Options[i], res.Options[j]
		if a.Fits != b.Fits {
			return a.Fits
		}
		if (a.PerThousand > 0) != (b.PerThousand > 0) {
			return a.PerThousand > 0
		}
		return a.PerThousand < b.PerThousand
	})
	if b := res.Options[0]; b.Fits && (b.PerThousand > 0 || in.GPU != "") {
		res.Best = &b
		if b.ImagesPerS > 0 {
			add("images_per_s", "images per second, "+b.GPU, "每秒出图数，"+b.GPU, b.ImagesPerS, "images/s",
				fmt.Sprintf("1 ÷ (%s TFLOP ÷ (%s TFLOPS × %s) + %d passes × %s ms ÷ %d images)", num(round(imgFLOPs/1e12, 2)), num(peakOf(m, b.GPU)), num(imageMFU), in.Steps*cfg, num(imagePassS*1000), in.Batch))
		}
		if b.PerThousand > 0 {
			add("per_1000_images", "cost per 1,000 images", "每千张图成本", b.PerThousand, string(p.cur),
				fmt.Sprintf("%s/h ÷ (%s images/s × 3600) × 1000 (%s)", money(b.Hourly, p.cur), num(b.ImagesPerS), b.Platform))
			res.Total = Round2(b.PerThousand * in.Images / 1000)
			add("total", "total for the images asked", "所需图片总费用", res.Total, string(p.cur), fmt.Sprintf("%s images × %s per 1,000", num(in.Images), money(b.PerThousand, p.cur)))
		}
	}
	res.Sources = append(res.Sources, PriceSource{What: "model", Figure: fmt.Sprintf("%s: backbone %sM params", im.ID, num(round(im.BackboneM, 1))), Source: "reference/image_models.json (" + im.Confidence + " confidence)"})
	res.Inputs = in
	return res, nil
}

func hasAlias(g knowledge.GPU, name string) bool {
	k := knowledge.NormalizeName(name)
	for _, a := range append([]string{g.Name}, g.Aliases...) {
		if knowledge.NormalizeName(a) == k {
			return true
		}
	}
	return false
}

func peakOf(m Market, id string) float64 {
	for _, g := range m.GPUs {
		if g.ID == id {
			return g.PeakTFLOPS()
		}
	}
	return 0
}
