package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/advisor"
)

// "Which card for SD" asks about making images unless it says training:
// making images ranks the cards by cost per 1,000 images (SDXL when no
// model is named, and the answer says it assumed that); a named image
// model is sized as the image model it is, never as a 2.6B LLM; training
// SD without a model keeps the seed's diffusion-training ranking.
func TestRecommendForImages(t *testing.T) {
	b := newTestBot(t)
	ask := func(q string) Answer {
		t.Helper()
		a := b.Answer(context.Background(), Message{Text: q})
		if a.Err != "" {
			t.Fatalf("%q: %s", q, a.Err)
		}
		return a
	}
	for _, q := range []string{"跑SD出图用什么卡", "what gpu for stable diffusion image generation", "生图用啥卡"} {
		a := ask(q)
		res, ok := a.Result.(advisor.ImageResult)
		if !ok {
			t.Fatalf("%q: result %T, want an image answer", q, a.Result)
		}
		if res.Model != "sdxl-base-1.0" || res.Inputs.Method != advisor.Inference || a.Assumed["model"] != "sdxl-base-1.0" {
			t.Errorf("%q: model %q method %q assumed %v; want SDXL inference, said as assumed", q, res.Model, res.Inputs.Method, a.Assumed["model"])
		}
		// Cheapest per 1,000 images first: what "which card" asks.
		for i := 1; i < len(res.Options); i++ {
			p, c := res.Options[i-1], res.Options[i]
			if p.PerThousand > 0 && c.PerThousand > 0 && c.PerThousand < p.PerThousand {
				t.Errorf("%q: option %d (%s, %v per 1,000) after a dearer one (%s, %v)", q, i, c.GPU, c.PerThousand, p.GPU, p.PerThousand)
				break
			}
		}
	}
	a := ask("sdxl lora 训练用什么卡")
	if res, ok := a.Result.(advisor.ImageResult); !ok || res.Inputs.Method != advisor.LoRA {
		t.Errorf("sdxl lora: result %T, want the image model's LoRA fit", a.Result)
	}
	a = ask("SD 训练用什么卡")
	if res, ok := a.Result.(advisor.Recommendation); !ok || res.Inputs.Preset != advisor.PresetDiffusion {
		t.Errorf("SD training: result %T, want the diffusion-training ranking", a.Result)
	}
	a = ask("个人学生 推荐卡 推理 7b")
	if res, ok := a.Result.(advisor.Recommendation); !ok || res.Inputs.Persona != "individual" {
		t.Errorf("a student's question: result %T, want the individual persona", a.Result)
	}
}

// "How much for 10,000 SDXL images on a 4090" is a cost question about an
// image model: answered per image, the total first — 10,000 images are
// ten times the price of 1,000.
func TestImageCostAnswersTheTotal(t *testing.T) {
	b := newTestBot(t)
	for _, q := range []string{"sdxl 出图 1万张 4090 多少钱", "/gpu cost sdxl 10000 images on 4090", "/gpu cost sdxl images=10k on 4090"} {
		a := b.Answer(context.Background(), Message{Text: q})
		res, ok := a.Result.(advisor.ImageResult)
		if !ok || res.Best == nil {
			t.Fatalf("%q: result %T (%s), want an image answer", q, a.Result, a.Err)
		}
		if res.Best.GPU != "rtx4090" || res.Inputs.Images != 10000 {
			t.Errorf("%q: best %s for %v images, want the RTX 4090 for 10,000", q, res.Best.GPU, res.Inputs.Images)
		}
		if want := res.Best.PerThousand * 10; res.Total < want*0.99 || res.Total > want*1.01 {
			t.Errorf("%q: total %v, want ≈ 10 × %v per 1,000", q, res.Total, res.Best.PerThousand)
		}
		if !strings.HasPrefix(a.Headline, "10,000") || !strings.Contains(a.Headline, moneyStr(res.Total, string(res.Currency))) {
			t.Errorf("%q: headline %q does not lead with the total", q, a.Headline)
		}
	}
}
