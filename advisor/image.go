package advisor

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

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
	// DefaultImageTrainSteps is a fine-tune's optimizer steps when none are
	// given: 1,000 (diffusers' and kohya's FLUX/SDXL LoRA examples run 500–
	// 2,000).
	DefaultImageTrainSteps = 1000
	// nf4ImageBits is bitsandbytes NF4 as diffusers loads it (blocksize 64,
	// one FP32 absmax per block, no double quantization): 4 + 32/64 bits.
	nf4ImageBits = 4.5
	// Training compute per step in forward passes of the backbone:
	// forward 1 + activation gradients 1 + weight gradients 1 (full only)
	// + the forward recomputed under gradient checkpointing 1. The same
	// count of passes pays the kernel-launch overhead. No guidance pass.
	imageTrainPassesFull = 4
	imageTrainPassesLoRA = 3
)

// Where an image model's text encoders live.
const (
	TextEncoderGPU     = "gpu"     // resident on the card (diffusers pipe.to("cuda"))
	TextEncoderOffload = "offload" // prompts encoded, then moved to CPU (enable_model_cpu_offload)
	TextEncoderCached  = "cached"  // embeddings computed once before training; encoders never loaded
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
	// Bits is the backbone's weight precision: 16 (default), 8 (FP8, as
	// ComfyUI's fp8_e4m3fn FLUX checkpoints; the T5 encoder too) or 4
	// (NF4, bitsandbytes; the T5 encoder in 8 bits). Full fine-tuning
	// takes 16 only.
	Bits int `json:"bits"`
	// TextEncoder is where the text encoders live: gpu (default), offload
	// or cached (see TextEncoderGPU).
	TextEncoder string `json:"text_encoder"`
	// TrainSteps is a fine-tune's optimizer steps (lora, full); default
	// DefaultImageTrainSteps.
	TrainSteps int   `json:"train_steps"`
	Price      Money `json:"price"` // rent per card-hour, replacing the catalogue
	Spot       bool  `json:"spot"`

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
	ImagesPerH   float64 `json:"images_per_hour,omitempty"`
	// Fine-tuning (lora, full): seconds per optimizer step, the time to
	// run TrainSteps and what it costs at Hourly.
	SecondsStep float64 `json:"seconds_per_step,omitempty"`
	TrainHours  float64 `json:"train_hours,omitempty"`
	TrainCost   float64 `json:"train_cost,omitempty"`
}

// ImageResult answers fit, speed and cost for an image model.
type ImageResult struct {
	Inputs    ImageInput    `json:"inputs"`
	Model     string        `json:"model"`
	MemoryGB  float64       `json:"memory_gb"`
	Breakdown Breakdown     `json:"breakdown"`
	Options   []ImageOption `json:"options"` // cards that fit first, cheapest per 1,000 images first
	Best      *ImageOption  `json:"best,omitempty"`
	Total     float64       `json:"total,omitempty"` // Images on the best card
	// TotalHours is how long those images take on one best card (card-
	// hours: images ÷ images per hour); 0 without a count given.
	TotalHours  float64            `json:"total_hours,omitempty"`
	Currency    knowledge.Currency `json:"currency"`
	Lines       []Line             `json:"lines"`
	Assumptions []Text             `json:"assumptions"`
	// Notes are Assumptions as values, in its order; bot/present words
	// them (present.WordImage), and the lines by key.
	Notes   []ImageNote   `json:"-"`
	Sources []PriceSource `json:"sources"`
}

// ImageNote is one assumption of an image-model answer as a kind and the
// operands its sentence names; bot/present words it. The fields a kind
// does not use are zero.
type ImageNote struct {
	Kind ImageNoteKind
	// Model is the image model (ImageEncodersUnread); GB the text
	// encoders' 16-bit size (ImageEncoderSize).
	Model string
	GB    float64
	// Steps, Passes, Batch and Resolution: optimizer or denoising steps,
	// forward passes per step, images per batch and the side in pixels
	// (ImageTraining, ImageDenoising); MFUPct and LaunchMS the compute
	// share of the peak and the launch cost per pass.
	Steps, Passes, Batch, Resolution int
	MFUPct, LaunchMS                 float64
}

// ImageNoteKind names what an ImageNote says.
type ImageNoteKind string

// An image-model answer's assumptions.
const (
	ImageEncodersUnread ImageNoteKind = "encoders_unread" // SD3.5 medium's encoders stand in
	ImageFP8            ImageNoteKind = "fp8"             // FP8 weights
	ImageNF4            ImageNoteKind = "nf4"             // NF4 backbone
	ImageOffload        ImageNoteKind = "offload"         // text encoders offloaded
	ImageCached         ImageNoteKind = "cached"          // text embeddings cached
	ImageFullFrozen     ImageNoteKind = "full_frozen"     // full fine-tuning trains the backbone only
	ImageEncoderSize    ImageNoteKind = "encoder_size"    // what the text encoders weigh
	ImageTraining       ImageNoteKind = "training"        // the training step's assumptions
	ImageDenoising      ImageNoteKind = "denoising"       // the denoising loop's assumptions
)

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
	if in.Bits == 0 {
		in.Bits = 16
		in.Defaulted = append(in.Defaulted, "bits")
	}
	switch {
	case in.Bits != 16 && in.Bits != 8 && in.Bits != 4:
		return ImageResult{}, inputErr("bits", fmt.Sprintf("image-model weights take bits 16, 8 (FP8) or 4 (NF4), got %d", in.Bits), hint+" bits=8")
	case in.Method == Full && in.Bits != 16:
		return ImageResult{}, inputErr("bits", fmt.Sprintf("full fine-tuning trains 16-bit weights; for a %d-bit base use lora", in.Bits), "/gpu fit flux lora bits=8")
	}
	if in.TextEncoder == "" {
		in.TextEncoder = TextEncoderGPU
		in.Defaulted = append(in.Defaulted, "text_encoder")
	}
	switch in.TextEncoder {
	case TextEncoderGPU, TextEncoderOffload, TextEncoderCached:
	default:
		return ImageResult{}, inputErr("text_encoder", fmt.Sprintf("text_encoder is gpu, offload or cached, got %q", in.TextEncoder), hint+" text_encoder=offload")
	}
	if in.Method != Inference && in.TrainSteps == 0 {
		in.TrainSteps = DefaultImageTrainSteps
		in.Defaulted = append(in.Defaulted, "train_steps")
	}
	if in.TrainSteps < 0 || in.TrainSteps > 1e6 {
		return ImageResult{}, inputErr("train_steps", fmt.Sprintf("train_steps must be between 1 and 1,000,000, got %d", in.TrainSteps), "/gpu fit flux lora train_steps=2000")
	}
	p, err := newPricing(in.Currency, in.Price.Currency, in.FX, hint, &in.Defaulted)
	if err != nil {
		return ImageResult{}, err
	}
	in.Currency, in.FX = p.cur, p.fx
	res := ImageResult{Inputs: in, Model: im.ID, Currency: p.cur}
	note := func(n ImageNote) {
		res.Notes = append(res.Notes, n)
	}
	add := func(key string, v float64, unit, how string) {
		res.Lines = append(res.Lines, Line{Key: key, Value: round(v, 2), Unit: unit, How: how})
	}

	// Memory.
	te, missing := im.TextEncoderM()
	if missing {
		te = clipLM + clipGM + t5EncoderM
		note(ImageNote{Kind: ImageEncodersUnread, Model: im.ID})
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
	// Weights: the backbone at Bits; the T5 encoder (where there is one)
	// in 8 bits when the backbone is quantised, CLIP and the VAE in 16;
	// text encoders off the card when offloaded or cached.
	t5 := 0.0
	if te > 1000 {
		t5 = min(te, t5EncoderM)
	}
	clip := te - t5
	bbBytes, bbHow := 2.0, "2 bytes"
	switch in.Bits {
	case 8:
		bbBytes, bbHow = 1, "1 byte (FP8)"
	case 4:
		bbBytes, bbHow = nf4ImageBits/8, "4.5 bits ÷ 8 (NF4, one FP32 absmax per 64)"
	}
	t5Bytes := 2.0
	if in.Bits < 16 {
		t5Bytes = 1
	}
	teBytes, teHow := clip*2+t5*t5Bytes, fmt.Sprintf("%sM text encoders × 2 bytes", num(round(te, 1)))
	if t5 > 0 && in.Bits < 16 {
		teHow = fmt.Sprintf("CLIP %sM × 2 + T5 %sM × 1 byte (FP8)", num(round(clip, 1)), num(round(t5, 1)))
	}
	if in.TextEncoder != TextEncoderGPU {
		teBytes, teHow = 0, "text encoders off the card ("+in.TextEncoder+")"
	}
	bd.WeightsGB = (im.BackboneM*bbBytes + teBytes + vae*2) * 1e6 / bytesPerGB
	add("weights", bd.WeightsGB, "GB",
		fmt.Sprintf("backbone %sM × %s + %s + VAE %sM × 2 bytes", num(round(im.BackboneM, 1)), bbHow, teHow, num(round(vae, 1))))
	switch {
	case in.Bits == 8:
		note(ImageNote{Kind: ImageFP8})
	case in.Bits == 4:
		note(ImageNote{Kind: ImageNF4})
	}
	switch in.TextEncoder {
	case TextEncoderOffload:
		note(ImageNote{Kind: ImageOffload})
	case TextEncoderCached:
		note(ImageNote{Kind: ImageCached})
	}
	switch in.Method {
	case Inference:
		bd.ActivationsGB = stepActGB1024*scale*float64(in.Batch*cfg) + vaePeakGB1024*scale
		add("activations", bd.ActivationsGB, "GB",
			fmt.Sprintf("%s GB × (%d/1024)² × %d images × %d guidance passes + %s GB VAE decode × (%d/1024)²", num(stepActGB1024), in.Resolution, in.Batch, cfg, num(vaePeakGB1024), in.Resolution))
	case LoRA:
		// Adapters on the backbone's attention and MLP projections: about
		// rank × 2 × width per matrix; taken as 0.5 % of the backbone at
		// rank 16 (diffusers LoRA checkpoints of SDXL ≈ 23M, FLUX ≈ 20–80M).
		a := im.BackboneM * 1e6 * 0.005
		bd.GradientsGB = a * 2 / bytesPerGB
		bd.OptimizerGB = a * 12 / bytesPerGB
		bd.ActivationsGB = trainActGB1024 * scale * float64(in.Batch)
		add("gradients", bd.GradientsGB, "GB", fmt.Sprintf("%sM adapter params (0.5 %% of the backbone at rank %d) × 2 bytes", num(round(a/1e6, 1)), imageLoRARank))
		add("optimizer", bd.OptimizerGB, "GB", fmt.Sprintf("%sM × (FP32 master 4 + Adam 8) bytes", num(round(a/1e6, 1))))
		add("activations", bd.ActivationsGB, "GB",
			fmt.Sprintf("%s GB × (%d/1024)² × batch %d", num(trainActGB1024), in.Resolution, in.Batch))
	case Full:
		bd.GradientsGB = im.BackboneM * 1e6 * 2 / bytesPerGB
		bd.OptimizerGB = im.BackboneM * 1e6 * 12 / bytesPerGB
		bd.ActivationsGB = trainActGB1024 * scale * float64(in.Batch)
		add("gradients", bd.GradientsGB, "GB", fmt.Sprintf("%sM × 2 bytes", num(round(im.BackboneM, 1))))
		add("optimizer", bd.OptimizerGB, "GB", fmt.Sprintf("%sM × (FP32 master 4 + Adam m 4 + v 4) bytes", num(round(im.BackboneM, 1))))
		add("activations", bd.ActivationsGB, "GB",
			fmt.Sprintf("%s GB × (%d/1024)² × batch %d", num(trainActGB1024), in.Resolution, in.Batch))
		note(ImageNote{Kind: ImageFullFrozen})
	}
	bd.OverheadGB = overheadFixedGB + overheadFrac*bd.core()
	add("overhead", bd.OverheadGB, "GB", fmt.Sprintf("%s GB + 5%% × %s", num(overheadFixedGB), gb(bd.core())))
	res.Breakdown = roundBreakdown(bd)
	res.MemoryGB = round(bd.Total(), 2)
	add("total", res.MemoryGB, "GB", "weights + activations + gradients + optimizer + overhead")
	if te > 1000 && in.TextEncoder == TextEncoderGPU {
		teGB := te * 1e6 * 2 / bytesPerGB
		note(ImageNote{Kind: ImageEncoderSize, GB: round(teGB, 1)})
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
	add("flops_per_image", imgFLOPs/1e12, "TFLOP",
		fmt.Sprintf("%d steps × %d passes × 2 × %sM params × %s", in.Steps, cfg, num(round(im.BackboneM, 1)), posHow))
	passS := float64(in.Steps*cfg) * imagePassS / float64(in.Batch)
	trainPasses := imageTrainPassesLoRA
	if in.Method == Full {
		trainPasses = imageTrainPassesFull
	}
	if in.Method != Inference {
		grads := "activation gradients"
		if in.Method == Full {
			grads = "activation and weight gradients"
		}
		add("flops_per_step", float64(in.Batch)*passFLOPs*float64(trainPasses)/1e12, "TFLOP",
			fmt.Sprintf("batch %d × %d forward-pass equivalents (forward, %s, checkpoint recompute) × 2 × %sM params × %s", in.Batch, trainPasses,
				grads, num(round(im.BackboneM, 1)), posHow))
		note(ImageNote{Kind: ImageTraining, Steps: in.TrainSteps, Batch: in.Batch, Resolution: in.Resolution, Passes: trainPasses, MFUPct: imageMFU * 100, LaunchMS: imagePassS * 1000})
	}
	note(ImageNote{Kind: ImageDenoising, Steps: in.Steps, Passes: cfg, Batch: in.Batch, Resolution: in.Resolution, MFUPct: imageMFU * 100, LaunchMS: imagePassS * 1000})

	where := OfferFilter{NoInterruptible: !in.Spot, NoMarketRange: true}
	ix := m.engine().index(m.Offers) // every card's price from one index
	for _, g := range m.GPUs {
		if in.GPU != "" && knowledge.NormalizeName(g.ID) != knowledge.NormalizeName(in.GPU) && !hasAlias(g, in.GPU) {
			continue
		}
		o := ImageOption{GPU: g.ID, VRAMGB: g.VRAMGB, Fits: res.MemoryGB <= g.VRAMGB}
		if o.Fits && g.PeakTFLOPS() > 0 {
			price, platform, priced := 0.0, "", false
			if in.Price.Given() {
				price, priced = p.money(in.Price), true
			} else if cp, found := ix.cheapest(g.ID, p, where); found {
				price, platform, priced = cp.Price(), cp.Platform, true
			}
			if priced {
				o.Hourly, o.Platform = round(price, 4), platform
			}
			if in.Method == Inference {
				o.SecondsImage = round(imgFLOPs/(g.PeakTFLOPS()*1e12*imageMFU)+passS, 3)
				o.ImagesPerS = round(1/o.SecondsImage, 3)
				o.ImagesPerH = math.Round(3600 / o.SecondsImage)
				if priced {
					o.PerThousand = round(price/(o.ImagesPerS*3600)*1000, 4)
				}
			} else {
				step := float64(in.Batch)*passFLOPs*float64(trainPasses)/(g.PeakTFLOPS()*1e12*imageMFU) + float64(trainPasses)*imagePassS
				o.SecondsStep = round(step, 3)
				o.TrainHours = round(float64(in.TrainSteps)*step/3600, 3)
				if priced {
					o.TrainCost = round(price*float64(in.TrainSteps)*step/3600, 2)
				}
			}
		}
		res.Options = append(res.Options, o)
	}
	if len(res.Options) == 0 {
		return ImageResult{}, inputErr("gpu", fmt.Sprintf("unknown card %q", in.GPU), hint)
	}
	cost := func(o ImageOption) float64 { return o.PerThousand + o.TrainCost } // one of them is set
	sort.SliceStable(res.Options, func(i, j int) bool {
		a, b := res.Options[i], res.Options[j]
		if a.Fits != b.Fits {
			return a.Fits
		}
		if (cost(a) > 0) != (cost(b) > 0) {
			return cost(a) > 0
		}
		return cost(a) < cost(b)
	})
	// A fine-tune's time and cost on the first card (cheapest to finish);
	// Best stays for generation answers, whose figures are per image.
	if b := res.Options[0]; b.Fits && b.SecondsStep > 0 && (b.TrainCost > 0 || in.GPU != "") {
		add("seconds_per_step", b.SecondsStep, "s",
			fmt.Sprintf("batch %d × %d × %s TFLOP ÷ (%s TFLOPS × %s) + %d × %s ms", in.Batch, trainPasses, num(round(passFLOPs/1e12, 2)), num(peakOf(m, b.GPU)), num(imageMFU), trainPasses, num(imagePassS*1000)))
		add("train_hours", b.TrainHours, "h", fmt.Sprintf("%d steps × %s s ÷ 3600", in.TrainSteps, num(b.SecondsStep)))
		if b.TrainCost > 0 {
			add("train_cost", b.TrainCost, string(p.cur), fmt.Sprintf("%s h × %s/h (%s)", num(b.TrainHours), money(b.Hourly, p.cur), b.Platform))
		}
	}
	if b := res.Options[0]; b.Fits && b.ImagesPerS > 0 && (b.PerThousand > 0 || in.GPU != "") {
		res.Best = &b
		if b.ImagesPerS > 0 {
			add("images_per_s", b.ImagesPerS, "images/s",
				fmt.Sprintf("1 ÷ (%s TFLOP ÷ (%s TFLOPS × %s) + %d passes × %s ms ÷ %d images)", num(round(imgFLOPs/1e12, 2)), num(peakOf(m, b.GPU)), num(imageMFU), in.Steps*cfg, num(imagePassS*1000), in.Batch))
			add("images_per_hour", b.ImagesPerH, "images/h", fmt.Sprintf("3600 s ÷ %s s per image", num(b.SecondsImage)))
		}
		if b.PerThousand > 0 {
			add("per_1000_images", b.PerThousand, string(p.cur),
				fmt.Sprintf("%s/h ÷ (%s images/s × 3600) × 1000 (%s)", money(b.Hourly, p.cur), num(b.ImagesPerS), b.Platform))
			if !slices.Contains(in.Defaulted, "images") { // a total only for a count the user gave
				res.Total = Round2(b.PerThousand * in.Images / 1000)
				add("total", res.Total, string(p.cur), fmt.Sprintf("%s images × %s per 1,000", num(in.Images), money(b.PerThousand, p.cur)))
				if b.ImagesPerH > 0 {
					res.TotalHours = round(in.Images/b.ImagesPerH, 2)
					add("total_hours", res.TotalHours, "card-h", fmt.Sprintf("%s images ÷ %s images/h", num(in.Images), num(b.ImagesPerH)))
				}
			}
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

// ImageSqueeze is a lighter image-model setting that holds on a card.
type ImageSqueeze struct {
	// Change is the setting as the command's words ("bits=4
	// text_encoder=cached"); MemoryGB its memory on one card.
	Change   string  `json:"change"`
	MemoryGB float64 `json:"memory_gb"`
	// Steps is every setting tried, lightest last, with its memory (the
	// answer shows what each buys).
	Steps []ImageSqueezeStep `json:"steps"`
}

// ImageSqueezeStep is one setting tried.
type ImageSqueezeStep struct {
	Change   string  `json:"change"`
	MemoryGB float64 `json:"memory_gb"`
}

// SqueezeImage tries, for an image job that does not hold on vram GB, the
// usual lighter settings in turn and returns the first that holds: for a
// fine-tune the captions' embeddings cached (kohya
// --cache_text_encoder_outputs), then an FP8 base (--fp8_base), then an
// NF4 base (bitsandbytes), each keeping the one before; for inference an
// FP8 backbone, then the text encoders offloaded, then NF4. ok is false
// when the job holds as asked or none of them holds. Full fine-tuning
// trains 16-bit weights: only the cache is tried.
func SqueezeImage(in ImageInput, m Market, models []knowledge.ImageModel, vram float64) (ImageSqueeze, bool) {
	res, err := Image(in, m, models)
	if err != nil || res.MemoryGB <= vram {
		return ImageSqueeze{}, false
	}
	type step struct {
		bits int
		te   string
	}
	var steps []step
	switch in.Method {
	case LoRA:
		steps = []step{{16, TextEncoderCached}, {8, TextEncoderCached}, {4, TextEncoderCached}}
	case Full:
		steps = []step{{16, TextEncoderCached}}
	default:
		steps = []step{{8, TextEncoderGPU}, {8, TextEncoderOffload}, {4, TextEncoderOffload}}
	}
	var sq ImageSqueeze
	for _, s := range steps {
		if in.Bits != 0 && s.bits > in.Bits {
			continue // never heavier than asked
		}
		alt := in
		alt.Bits, alt.TextEncoder, alt.Defaulted = s.bits, s.te, nil
		r, err := Image(alt, m, models)
		if err != nil {
			continue
		}
		var words []string
		if s.bits != 16 {
			words = append(words, fmt.Sprintf("bits=%d", s.bits))
		}
		if s.te != TextEncoderGPU {
			words = append(words, "text_encoder="+s.te)
		}
		change := strings.Join(words, " ")
		sq.Steps = append(sq.Steps, ImageSqueezeStep{Change: change, MemoryGB: r.MemoryGB})
		if r.MemoryGB <= vram {
			sq.Change, sq.MemoryGB = change, r.MemoryGB
			return sq, true
		}
	}
	return sq, false
}
