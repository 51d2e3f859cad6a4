package parse

import "testing"

// The engine's settings read as key=value, in the spellings the engine's
// own documentation uses (vLLM gpu_memory_utilization / max_num_seqs,
// TensorRT-LLM max_batch_size), so an answer's Assumed line pastes back.
func TestEngineSettingKeys(t *testing.T) {
	p := newParser(t)
	tests := []struct {
		in    string
		slots string
	}{
		{"fit 70b inference engine=trtllm kv_bits=8 gpu_mem_util=0.85 max_seqs=512",
			`{"params_b":70,"method":"inference","engine":"trtllm","kv_bits":8,"gpu_mem_util":0.85,"max_seqs":512}`},
		{"fit 70b inference engine=TensorRT-LLM kv_bits=fp8 gpu_memory_utilization=90% max_num_seqs=256",
			`{"params_b":70,"method":"inference","engine":"trtllm","kv_bits":8,"gpu_mem_util":0.9,"max_seqs":256}`},
		{"fit 8b inference engine=vllm kv_bits=16 stack=vllm", `{"params_b":8,"method":"inference","engine":"vllm","kv_bits":16,"stack":"vllm"}`},
		{"fit 7b qlora stack=hf", `{"params_b":7,"method":"qlora","stack":"hf"}`},
		{"fit 7b lora stack=eager", `{"params_b":7,"method":"lora","stack":"hf-eager"}`},
		{"fit 70b full stack=zero3", `{"params_b":70,"method":"full","stack":"deepspeed"}`},
		{"fit flux.1-dev bits=8 offload=t5", `{"params_b":11.9,"bits":8,"model":"flux.1-dev","text_encoder":"offload"}`},
		{"fit flux.1-dev lora text_encoder=cached", `{"params_b":11.9,"method":"lora","model":"flux.1-dev","text_encoder":"cached"}`},
	}
	for _, tt := range tests {
		req := p.ParseSlash(tt.in)
		if len(req.Problems) > 0 {
			t.Errorf("ParseSlash(%q): problems %+v", tt.in, req.Problems)
			continue
		}
		s := req.Slots
		s.Notes, s.Missing, s.Targets = nil, nil, nil
		if got := jsonOf(t, s); got != tt.slots {
			t.Errorf("ParseSlash(%q) slots\n got %s\nwant %s", tt.in, got, tt.slots)
		}
	}
	for _, tt := range []struct{ in, field string }{
		{"fit 70b inference engine=ollama", "engine"},
		{"fit 70b inference kv_bits=4", "kv_bits"},
		{"fit 70b inference gpu_mem_util=1.5", "gpu_mem_util"},
		{"fit 70b inference max_seqs=0", "max_seqs"},
		{"fit 7b lora stack=megatron", "stack"},
		{"fit flux.1-dev offload=disk", "text_encoder"},
	} {
		req := p.ParseSlash(tt.in)
		if len(req.Problems) == 0 || req.Problems[0].Field != tt.field {
			t.Errorf("ParseSlash(%q) problems %+v, want one on %s", tt.in, req.Problems, tt.field)
		}
	}
}
