package bot

import (
	"context"
	"testing"

	"github.com/gpubot/gpubot/advisor"
)

// A named image model routes fit to the image engine.
func TestFitRoutesImageModels(t *testing.T) {
	b := newTestBot(t)
	a := b.Answer(context.Background(), Message{Text: "/gpu fit 1b inference model=sdxl gpu=4090"})
	res, ok := a.Result.(advisor.ImageResult)
	if !ok {
		t.Fatalf("result is %T, want advisor.ImageResult (text %q)", a.Result, a.Text)
	}
	if res.Model != "sdxl-base-1.0" || res.Best == nil || !res.Best.Fits || res.Best.GPU != "rtx4090" {
		t.Errorf("image answer = %s best %+v, want sdxl on a fitting 4090", res.Model, res.Best)
	}
}
