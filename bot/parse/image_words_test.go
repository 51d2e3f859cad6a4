package parse

import "testing"

func TestImageTraining(t *testing.T) {
	cases := []struct {
		text   string
		method string
		db     bool
	}{
		{"can i finetune flux on 16gb vram", "lora", false},                    // review Q43: a fine-tune, kind unnamed → LoRA
		{"SDXL fine-tuning with DreamBooth — does a 4090 work?", "lora", true}, // review Q35
		{"full fine-tune SDXL with dreambooth on an A100?", "full", true},
		{"sdxl 全参微调要多少显存", "full", false},
		{"微调 flux 要多大显存", "lora", false},
		{"flux dev on a 4090, how many images an hour?", "", false}, // making images
		{"and Flux dev?", "", false},
		{"SDXL inference at 1024", "", false},
		{"dreamboothing my dog with sd 1.5", "lora", true},
	}
	for _, c := range cases {
		m, db := ImageTraining(c.text)
		if m != c.method || db != c.db {
			t.Errorf("ImageTraining(%q) = %q, %v; want %q, %v", c.text, m, db, c.method, c.db)
		}
	}
}

func TestAsksKVCache(t *testing.T) {
	for text, want := range map[string]bool{
		"KV cache memory for Llama 3.1 70B, 32k context, batch 16, fp16?": true, // review Q27
		"llama 70b 32k 上下文 kv缓存 要多少":                                      true,
		"kv-cache size of qwen 7b at 8k":                                  true,
		"llama 3.1 70b inference on 2 H100s?":                             false,
		"how many H100 for 70b at 32k context":                            false,
	} {
		if got := AsksKVCache(text); got != want {
			t.Errorf("AsksKVCache(%q) = %v, want %v", text, got, want)
		}
	}
}
