package present

import (
	"testing"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/knowledge"
)

// TestServeNoteWording: 1,500 tokens in, 500 out, 64 sequences batched.
func TestServeNoteWording(t *testing.T) {
	got := ServeNote(advisor.ServeNote{Kind: advisor.ServeBatching, In: 1500, Out: 500, Concurrency: 64})
	want := advisor.Text{EN: "1500 tokens in and 500 out per request; continuous batching of 64 sequences; TTFT is the prompt's own prefill with no queue",
		ZH: "每个请求输入 1500、输出 500 token；连续批处理 64 条序列；首 token 延迟按无排队时该请求自身的预填充计算"}
	if got != want {
		t.Errorf("ServeNote(batching) = %q, want %q", got, want)
	}
	if got, want := ServingLabel("ttft_ms"), (advisor.Text{EN: "time to first token", ZH: "首 token 延迟"}); got != want {
		t.Errorf("ServingLabel(ttft_ms) = %q, want %q", got, want)
	}
}

// TestServingWordsMatchEngine: for a dense model on one card and on
// several (an all-reduce line) and a mixture of experts (the routing
// notes), the words written here from the engine's keys and notes are the
// engine's own, byte for byte.
func TestServingWordsMatchEngine(t *testing.T) {
	kb := knowledge.MustShipped()
	kinds := map[advisor.ServeNoteKind]bool{}
	for _, tc := range []struct {
		w     advisor.Workload
		gpu   string
		cards int
	}{
		{advisor.Workload{ParamsB: 8, Method: advisor.Inference}, "h100-sxm", 1},
		{advisor.Workload{ParamsB: 70, Method: advisor.Inference}, "a100-80g", 4},
		{advisor.Workload{Model: "qwen3-30b-a3b", Method: advisor.Inference}, "h100-sxm", 1},
	} {
		g, ok := kb.GPU(tc.gpu)
		if !ok {
			t.Fatalf("no %s", tc.gpu)
		}
		s, err := advisor.Serve(advisor.ServeInput{Workload: tc.w, GPU: g, Cards: tc.cards}, kb.Archs)
		if err != nil {
			t.Fatalf("Serve(%+v on %d × %s): %v", tc.w, tc.cards, tc.gpu, err)
		}
		if len(s.Notes) == 0 || len(s.Notes) > len(s.Assumptions) {
			t.Fatalf("Serve(%+v): %d notes for %d assumptions", tc.w, len(s.Notes), len(s.Assumptions))
		}
		got := s
		WordServing(&got)
		for i, n := range s.Notes {
			kinds[n.Kind] = true
			if got.Assumptions[i] != s.Assumptions[i] {
				t.Errorf("Serve(%+v) note %s:\n got %q\nwant %q", tc.w, n.Kind, got.Assumptions[i], s.Assumptions[i])
			}
		}
		for i, l := range s.Lines {
			if got.Lines[i].Label != l.Label || l.Label.EN == "" {
				t.Errorf("Serve(%+v) line %s: label %q, want %q", tc.w, l.Key, got.Lines[i].Label, l.Label)
			}
		}
	}
	for _, k := range []advisor.ServeNoteKind{advisor.ServeKernel, advisor.ServeBatching, advisor.ServeMoE, advisor.ServeMoERouting} {
		if !kinds[k] {
			t.Errorf("no estimate above makes a %s note: add one", k)
		}
	}
}
