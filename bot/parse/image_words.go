package parse

import "strings"

// Words of a memory question the slots do not keep: that it is a
// fine-tune of an image model (and which kind), and that it asks the KV
// cache itself. They are read from the message's text by the answers
// that need them (bot/image.go, bot/fit.go).

// trainWords say a job trains rather than makes images.
var trainWords = []string{"fine-tun*", "finetun*", "fine tun*", "train*", "dreambooth*", "dream booth", "lora*", "qlora"}

// trainWordsZH are the same in Chinese (matched anywhere).
var trainWordsZH = []string{"微调", "训练", "炼丹", "练lora", "炼lora"}

// fullWords ask the whole backbone trained.
var fullWords = []string{"full fine-tun*", "full finetun*", "full fine tun*", "full-finetun*", "full-param*", "full param*", "full unet", "full model", "full ft"}

// fullWordsZH are the same in Chinese.
var fullWordsZH = []string{"全参", "全量"}

// ImageTraining reads an image model's job from text: method is "lora"
// or "full" when the text trains ("finetune flux", "SDXL fine-tuning with
// DreamBooth", "微调 SDXL"), "" when it does not (making images).
// A fine-tune that names no kind is LoRA, what kohya and diffusers'
// scripts default to for SDXL and FLUX; "full"/"全参" is the whole
// backbone. dreambooth is true when the text says DreamBooth, which is
// either (diffusers ships train_dreambooth.py and train_dreambooth_lora.py).
func ImageTraining(text string) (method string, dreambooth bool) {
	s := strings.ToLower(text)
	c := compact(s)
	dreambooth = hasWord(s, "dreambooth*") || hasWord(s, "dream booth")
	trains := false
	for _, w := range trainWords {
		if hasWord(s, w) {
			trains = true
		}
	}
	for _, w := range trainWordsZH {
		if strings.Contains(c, w) {
			trains = true
		}
	}
	if !trains {
		return "", false
	}
	for _, w := range fullWords {
		if hasWord(s, w) {
			return "full", dreambooth
		}
	}
	for _, w := range fullWordsZH {
		if strings.Contains(c, w) {
			return "full", dreambooth
		}
	}
	return "lora", dreambooth
}

// AsksKVCache reports whether text asks the KV cache's memory itself
// ("KV cache memory for Llama 3.1 70B", "kv缓存要多少").
func AsksKVCache(text string) bool {
	s := strings.ToLower(text)
	c := compact(s)
	return hasWord(s, "kv cache") || hasWord(s, "kv-cache") || hasWord(s, "kvcache") ||
		strings.Contains(c, "kv缓存") || strings.Contains(c, "kv显存")
}
