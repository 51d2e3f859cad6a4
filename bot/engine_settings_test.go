package bot

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
)

// The Assumed line of a serving answer pastes back: every pair it offers
// (engine=, kv_bits=, gpu_mem_util=, max_seqs=, stack= among them) is read
// by the parser, and asking again with the whole line gives the same
// workload with nothing defaulted.
func TestAssumedServingSettingsPasteBack(t *testing.T) {
	b := newTestBot(t)
	a := b.Answer(context.Background(), Message{Text: "/gpu fit 70b inference gpu=h200"})
	m := regexp.MustCompile(`Assumed: (.*?) \(paste`).FindStringSubmatch(a.Text)
	if m == nil {
		t.Fatalf("no Assumed line in %q", a.Text)
	}
	line := strings.ReplaceAll(m[1], "`", "")
	for _, k := range []string{"engine=vllm", "kv_bits=16", "gpu_mem_util=0.9", "max_seqs=256", "stack=vllm"} {
		if !strings.Contains(line, k) {
			t.Errorf("Assumed line %q lacks %s", line, k)
		}
	}
	again := b.Answer(context.Background(), Message{Text: "/gpu fit 70b inference gpu=h200 " + line})
	if strings.Contains(again.Text, "unknown setting") || strings.Contains(again.Text, "couldn't read") {
		t.Fatalf("pasting %q back: %q", line, again.Text)
	}
	res, ok := again.Result.(FitResult)
	if !ok {
		t.Fatalf("result %T", again.Result)
	}
	w := res.Workload
	if w.Engine != "vllm" || w.KVBits != 16 || w.MemUtil != 0.9 || w.MaxSeqs != 256 || w.Stack != "vllm" || len(w.Defaulted) != 0 {
		t.Errorf("pasted back: %+v defaulted %v, want the same settings, none defaulted", w, w.Defaulted)
	}
	// A TensorRT-LLM answer with an FP8 cache, from the keys.
	trt := b.Answer(context.Background(), Message{Text: "/gpu fit 70b inference bits=8 engine=trtllm kv_bits=8 max_seqs=512 gpu=h100"})
	if r, ok := trt.Result.(FitResult); !ok || r.Workload.Engine != "trtllm" || r.Workload.KVBits != 8 || r.Workload.MaxSeqs != 512 {
		t.Errorf("engine keys: %T %+v", trt.Result, trt.Result)
	}
}

// Continued pretraining is named so in the cost line, not "full
// fine-tune" (the question of the third round's closing note).
func TestPretrainingIsNamedPretraining(t *testing.T) {
	b := newTestBot(t)
	a := b.Answer(context.Background(), Message{Text: "两周内把70b在2000亿token上继续预训练 要多少张H800"})
	if strings.Contains(a.Text, "全参微调") || !strings.Contains(a.Text, "70B 预训练") {
		t.Errorf("pretraining answer names the job wrong:\n%s", a.Text)
	}
}

// Image answers: the total only for a count the user gave; images per
// hour when asked; the card named that does not hold FLUX in 16 bits is
// said to, with the settings that shrink it.
func TestImageTotalsOnlyForCountsGiven(t *testing.T) {
	b := newTestBot(t)
	plain := b.Answer(context.Background(), Message{Text: "/gpu fit sdxl gpu=4090"})
	if r, ok := plain.Result.(advisor.ImageResult); !ok || r.Total != 0 || strings.Contains(plain.Text, "total") {
		t.Errorf("no count given: total shown\n%s", plain.Text)
	}
	n := b.Answer(context.Background(), Message{Text: "生成1万张图 sdxl 4090"})
	r, ok := n.Result.(advisor.ImageResult)
	if !ok || r.Inputs.Images != 10000 || r.Best == nil {
		t.Fatalf("1万张: %T %+v", n.Result, n.Result)
	}
	// 10,000 × the per-1,000 cost ÷ 1,000, to the cent.
	if want := advisor.Round2(r.Best.PerThousand * 10); r.Total != want || !strings.HasPrefix(n.Headline, "10,000 张图约") {
		t.Errorf("1万张: total %v (want %v), headline %q", r.Total, want, n.Headline)
	}
	flux := b.Answer(context.Background(), Message{Text: "生成1万张图 flux 4090"})
	if !strings.Contains(flux.Headline, "放不下") || !strings.Contains(flux.Text, "bits=8") {
		t.Errorf("flux on a 4090 in 16 bits: %q", flux.Text)
	}
	fp8 := b.Answer(context.Background(), Message{Text: "/gpu fit flux.1-dev gpu=4090 bits=8 offload=t5"})
	if r, ok := fp8.Result.(advisor.ImageResult); !ok || r.Inputs.Bits != 8 || r.Inputs.TextEncoder != "offload" || r.Best == nil {
		t.Errorf("bits=8 offload=t5 did not reach the engine: %T %+v", fp8.Result, fp8.Result)
	}
	ph := b.Answer(context.Background(), Message{Text: "sdxl on 4090 how many images per hour"})
	if r, ok := ph.Result.(advisor.ImageResult); !ok || r.Best == nil || !strings.HasPrefix(ph.Headline, "≈ "+present.Num(r.Best.ImagesPerH)) {
		t.Errorf("images per hour: %q", ph.Headline)
	}
	// In Chinese, with the card's price words around it: still the speed.
	zh := b.Answer(context.Background(), Message{Text: "flux 4090 bits=8 一小时能出多少张"})
	if r, ok := zh.Result.(advisor.ImageResult); !ok || r.Best == nil || !strings.Contains(zh.Headline, "每小时约出 "+present.Num(r.Best.ImagesPerH)+" 张") {
		t.Errorf("一小时能出多少张: %T %q", zh.Result, zh.Headline)
	}
}

// A cost question with a deadline is headlined on the cluster that meets
// it (the money is the same GPU-hours × the hourly price), not on the
// fewest cards that merely hold the job and miss the date.
func TestCostHeadlineStatesTheDeadlineAnswer(t *testing.T) {
	b := newTestBot(t)
	a := b.Answer(context.Background(), Message{Text: "pretrain 8b on 100B tokens within 30 days on h100, how much?"})
	r, ok := a.Result.(advisor.CostResult)
	if !ok || r.Deadline == nil || !r.Deadline.Meets {
		t.Fatalf("result %T, deadline %+v", a.Result, r.Deadline)
	}
	dl := r.Deadline
	want := fmt.Sprintf("8B pretraining on H100 SXM ×%d: ≈ %s", dl.Cards, moneyStr(dl.GPUHours*r.Hourly, string(r.Currency)))
	if !strings.HasPrefix(a.Headline, want) || !strings.Contains(a.Headline, "done within 30 days") || dl.WallHours > 30*24 {
		t.Errorf("headline %q, want it to start %q and say done within 30 days (%v h)", a.Headline, want, dl.WallHours)
	}
}
