package present

import (
	"fmt"

	"github.com/gpubot/gpubot/advisor"
)

// Image-model answers: the engine returns its assumptions as
// advisor.ImageNote values (ImageResult.Notes) and its lines by key; the
// words are written here, in both languages.

func text(en, zh string) advisor.Text { return advisor.Text{EN: en, ZH: zh} }

// ImageNote is an image answer's assumption in both languages; a kind
// this file does not know reads as nothing.
func ImageNote(n advisor.ImageNote) advisor.Text {
	switch n.Kind {
	case advisor.ImageEncodersUnread:
		return text(fmt.Sprintf("%s's text-encoder sizes were not read; SD3.5 medium's (CLIP-L, CLIP-G, T5-XXL) are used", n.Model),
			fmt.Sprintf("%s 的文本编码器参数未读到，按 SD3.5 medium 的（CLIP-L、CLIP-G、T5-XXL）计", n.Model))
	case advisor.ImageFP8:
		return text("FP8 weights (ComfyUI's fp8_e4m3fn checkpoints, or --fp8_base for LoRA training): 1 byte per parameter for the backbone and T5, computed at the 16-bit rate after dequantisation",
			"FP8 权重（ComfyUI 的 fp8_e4m3fn 检查点，或 LoRA 训练时 --fp8_base）：主干和 T5 每参数 1 字节，反量化后按 16 位算力计算")
	case advisor.ImageNF4:
		return text("NF4 backbone (bitsandbytes via diffusers, 4.5 bits per parameter), T5 in FP8; speed taken as 16-bit (NF4 matmuls dequantise per call and can run up to about a third slower)",
			"主干 NF4（diffusers 调用 bitsandbytes，每参数 4.5 bit），T5 为 FP8；速度按 16 位估计（NF4 每次矩阵乘都要反量化，可能慢三分之一左右）")
	case advisor.ImageOffload:
		return text("text encoders offloaded: prompts are encoded, then the encoders move to CPU memory (diffusers enable_model_cpu_offload); batches of prompts pay the move once",
			"文本编码器卸载：先编码提示词，再把编码器移到内存（diffusers enable_model_cpu_offload）；一批提示词只搬一次")
	case advisor.ImageCached:
		return text("text embeddings cached: every caption is encoded once before training and the encoders are never loaded on the card (kohya --cache_text_encoder_outputs)",
			"文本嵌入预先缓存：训练前把每条描述编码一次，训练时编码器不上卡（kohya --cache_text_encoder_outputs）")
	case advisor.ImageFullFrozen:
		return text("full fine-tuning trains the backbone; text encoders and VAE stay frozen", "全参微调只训练主干，文本编码器和 VAE 冻结")
	case advisor.ImageEncoderSize:
		return text(fmt.Sprintf("the text encoders are %s GB in 16-bit (T5-XXL most of it); text_encoder=offload (encode, then move to CPU) or cached (training) saves that much, bits=8 half of T5", FormulaNum(n.GB)),
			fmt.Sprintf("文本编码器 16 位共 %s GB（主要是 T5-XXL）；text_encoder=offload（编码后移到内存）或 cached（训练）可省下这部分，bits=8 可省一半 T5", FormulaNum(n.GB)))
	case advisor.ImageTraining:
		return text(fmt.Sprintf("training: %d optimizer steps of batch %d at %d×%d, %d forward-pass equivalents per step at %s%% of the 16-bit peak plus %s ms of launches per pass; latents pre-encoded (the VAE does not run per step)",
			n.Steps, n.Batch, n.Resolution, n.Resolution, n.Passes, FormulaNum(n.MFUPct), FormulaNum(n.LaunchMS)),
			fmt.Sprintf("训练：%d 个优化步，batch %d，%d×%d；每步相当于 %d 次前向，按 16 位峰值的 %s%% 计算，另加每次 %s ms 的内核启动开销；潜变量预先编码（VAE 不参与每步）",
				n.Steps, n.Batch, n.Resolution, n.Resolution, n.Passes, FormulaNum(n.MFUPct), FormulaNum(n.LaunchMS)))
	case advisor.ImageDenoising:
		return text(fmt.Sprintf("%d denoising steps, %d pass(es) per step, batch %d at %d×%d; compute at %s%% of the BF16 peak, plus %s ms per pass of kernel launches shared by the batch (eager PyTorch, calibrated on published diffusers timings)", n.Steps, n.Passes, n.Batch, n.Resolution, n.Resolution, FormulaNum(n.MFUPct), FormulaNum(n.LaunchMS)),
			fmt.Sprintf("%d 步去噪，每步 %d 次前向，batch %d，%d×%d；按 BF16 峰值的 %s%% 计算，另加每次前向 %s ms 的内核启动开销（同批共担，按 PyTorch 即时执行、以公开的 diffusers 实测校准）", n.Steps, n.Passes, n.Batch, n.Resolution, n.Resolution, FormulaNum(n.MFUPct), FormulaNum(n.LaunchMS)))
	}
	return advisor.Text{}
}

// ImageLabel names an image answer's line by its key: m is the method
// (whose gradients and states they are), unit tells the memory total
// ("GB") from the images' total, gpu is the card a speed line is for.
func ImageLabel(key string, m advisor.Method, unit, gpu string) advisor.Text {
	switch key {
	case "weights":
		return text("weights (backbone + text encoders + VAE)", "权重（主干 + 文本编码器 + VAE）")
	case "activations":
		if m == advisor.Inference {
			return text("activations (step + VAE decode peak)", "激活值（去噪步 + VAE 解码峰值）")
		}
		return text("activations (gradient checkpointing)", "激活值（梯度检查点）")
	case "gradients":
		if m == advisor.LoRA {
			return text("adapter gradients", "适配器梯度")
		}
		return text("backbone gradients", "主干梯度")
	case "optimizer":
		if m == advisor.LoRA {
			return text("adapter optimizer states", "适配器优化器状态")
		}
		return text("optimizer states", "优化器状态")
	case "overhead":
		return text("framework overhead", "框架开销")
	case "total":
		if unit == "GB" {
			return text("total on one card", "单卡合计")
		}
		return text("total for the images asked", "所需图片总费用")
	case "flops_per_image":
		return text("compute per image", "每张图计算量")
	case "flops_per_step":
		return text("compute per training step", "每个训练步的计算量")
	case "seconds_per_step":
		return text("seconds per training step, "+gpu, "每个训练步耗时，"+gpu)
	case "train_hours":
		return text("training time", "训练耗时")
	case "train_cost":
		return text("training cost", "训练费用")
	case "images_per_s":
		return text("images per second, "+gpu, "每秒出图数，"+gpu)
	case "images_per_hour":
		return text("images per hour, "+gpu, "每小时出图数，"+gpu)
	case "per_1000_images":
		return text("cost per 1,000 images", "每千张图成本")
	case "total_hours":
		return text("card-hours for the images asked", "所需卡时")
	}
	return advisor.Text{}
}

// WordImage writes res's line names and assumptions from its keys and
// notes. It writes new slices.
func WordImage(res *advisor.ImageResult) {
	gpu := ""
	if len(res.Options) > 0 {
		gpu = res.Options[0].GPU // the speed lines are the first-ranked card's
	}
	lines := make([]advisor.Line, len(res.Lines))
	for i, l := range res.Lines {
		l.Label = ImageLabel(l.Key, res.Inputs.Method, l.Unit, gpu)
		lines[i] = l
	}
	res.Lines = lines
	res.Assumptions = make([]advisor.Text, 0, len(res.Notes))
	for _, n := range res.Notes {
		res.Assumptions = append(res.Assumptions, ImageNote(n))
	}
}
