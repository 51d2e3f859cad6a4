package chart_test

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/gpubot/gpubot/infra/chart"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
	"github.com/redis/go-redis/v9"
)

var t0 = time.Date(2026, 9, 8, 1, 30, 0, 0, time.UTC)

func series(gpu string, cur knowledge.Currency, prices ...float64) catalog.Series {
	s := catalog.Series{GPU: gpu, Currency: cur, Class: catalog.ClassOnDemand}
	for i, p := range prices {
		// Six refreshes a day; the chart keeps each day's lowest.
		for h := range 6 {
			s.Points = append(s.Points, catalog.SeriesPoint{At: t0.Add(time.Duration(i)*24*time.Hour + time.Duration(h)*4*time.Hour),
				CardHourly: p + float64(h)*0.01})
		}
	}
	return s
}

func TestTrendIsAPNGOfTheAskedSize(t *testing.T) {
	prices := make([]float64, 30)
	for i := range prices {
		prices[i] = 0.45 - float64(i%7)*0.01
	}
	b, err := chart.Trend([]catalog.Series{series("rtx4090", knowledge.USD, prices...), series("h100-sxm", knowledge.USD, 2.5, 2.4, 2.45)},
		chart.Options{Width: 900, Height: 450, Location: time.FixedZone("CST", 8*3600)})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if got := img.Bounds().Size(); got.X != 900 || got.Y != 450 {
		t.Errorf("size = %v, want 900x450", got)
	}
	// Something was drawn in the plot colours, not just axes on white.
	coloured := 0
	for x := 0; x < 900; x += 3 {
		for y := 0; y < 450; y += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r != g || g != bl {
				coloured++
			}
		}
	}
	if coloured < 100 {
		t.Errorf("only %d coloured pixels; the lines are missing", coloured)
	}
}

func TestTrendDefaultsAndErrors(t *testing.T) {
	b, err := chart.Trend([]catalog.Series{series("rtx4090", knowledge.USD, 0.4)}, chart.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil || cfg.Width != 800 || cfg.Height != 400 {
		t.Errorf("default size = %dx%d, %v", cfg.Width, cfg.Height, err)
	}
	if _, err := chart.Trend([]catalog.Series{{GPU: "rtx4090", Currency: knowledge.USD}}, chart.Options{}); !errors.Is(err, chart.ErrNoData) {
		t.Errorf("empty series: %v", err)
	}
	mixed := []catalog.Series{series("rtx4090", knowledge.USD, 0.4), series("rtx4090", knowledge.CNY, 2.9)}
	if _, err := chart.Trend(mixed, chart.Options{}); err == nil {
		t.Error("USD and CNY drawn on one axis")
	}
}

// TestTrendFromCatalogHistory draws from what refreshes recorded.
func TestTrendFromCatalogHistory(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	defer rdb.Close()
	src := &stepSource{}
	c := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{src}})
	for i := range 30 {
		src.price = 0.5 - float64(i)*0.005
		if _, err := c.Refresh(t.Context(), t0.Add(time.Duration(i)*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	now := t0.Add(29 * 24 * time.Hour)
	ss, err := c.CheapestSeries(t.Context(), []string{"rtx4090", "h100-sxm"}, knowledge.USD, catalog.ClassOnDemand, now.Add(-30*24*time.Hour), now)
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || len(ss[0].Points) != 30 {
		t.Fatalf("series = %+v", ss)
	}
	b, err := chart.Trend(ss, chart.Options{Width: 640, Height: 320, From: now.Add(-30 * 24 * time.Hour), To: now})
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(b)); err != nil || cfg.Width != 640 || cfg.Height != 320 {
		t.Errorf("png %dx%d, %v", cfg.Width, cfg.Height, err)
	}
}

type stepSource struct{ price float64 }

func (s *stepSource) Name() string { return "step" }

func (s *stepSource) Fetch(_ context.Context, _ time.Time) (*catalog.Batch, error) {
	return &catalog.Batch{Offers: []knowledge.Offer{{Key: "k", Platform: "runpod", GPU: "rtx4090", GPUCount: 1,
		PriceLow: s.price, PriceHigh: s.price, Currency: knowledge.USD, Unit: knowledge.PerHour, Basis: knowledge.PerGPU,
		Model: knowledge.OnDemand, ObservedAt: "2026-10-08", Source: "test"}}}, nil
}
