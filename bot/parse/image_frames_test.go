package parse

import (
	"testing"
	"time"

	"github.com/gpubot/gpubot/knowledge"
)

// Image sizes and counts, as people write them (the contract's
// slots.resolution, pixels per side, and slots.images).
func TestImageFrames(t *testing.T) {
	p := New(knowledge.MustShipped())
	for _, tt := range []struct {
		text   string
		res    int
		images float64
	}{
		{"/gpu fit sdxl 512x512", 512, 0},
		{"sdxl 出图 1024×1024 4090 够吗", 1024, 0},
		{"/gpu fit sdxl 1024px", 1024, 0},
		// 768 × 1344 = 1,032,192 pixels, the square of side 1,016.
		{"生图用啥卡 768x1344", 1016, 0},
		{"/gpu fit sdxl res=640", 640, 0},
		{"sdxl 出图 1万张 4090 多少钱", 0, 10000},
		{"/gpu cost sdxl 5000 images on 4090", 0, 5000},
		{"/gpu cost sdxl images=10k on 4090", 0, 10000},
		{"flux 出图 2千张 512x512", 512, 2000},
		// Not image sizes: a card count, a model size.
		{"/gpu fit 8x h100 70b", 0, 0},
	} {
		s := p.Parse(tt.text).Slots
		if s.Resolution != tt.res || s.Images != tt.images {
			t.Errorf("%q: resolution %d images %v, want %d and %v", tt.text, s.Resolution, s.Images, tt.res, tt.images)
		}
	}
	if r := p.Parse("/gpu fit sdxl res=99999"); len(r.Problems) == 0 {
		t.Error("res=99999 accepted; want the range 64–4096 said")
	}
}

// TestImageCountsAndSizesInWords: "出完50万张" with an image model named is
// 500,000 pictures though no 图 is written; "1024分辨率", "resolution 768"
// are sizes; "一张4090" stays a card.
func TestImageCountsAndSizesInWords(t *testing.T) {
	p := newParser(t)
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in         string
		images     float64
		res, cards int
	}{
		{"FLUX.1-dev，1024分辨率，3天内要出完50万张，H20还是4090？", 500000, 1024, 0},
		{"sdxl lora, 60 imgs, resolution 768, ~3000 steps", 60, 768, 0},
		{"SDXL出图，一张4090一小时能出多少张1024x1024的？我要生成１万张做数据集", 10000, 1024, 1},
	} {
		s := p.ParseAt(c.in, at).Slots
		if s.Images != c.images || s.Resolution != c.res || s.Cards != c.cards {
			t.Errorf("Parse(%q): images %v res %d cards %d, want %v %d %d", c.in, s.Images, s.Resolution, s.Cards, c.images, c.res, c.cards)
		}
	}
}
