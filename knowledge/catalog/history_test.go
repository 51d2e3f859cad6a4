package catalog_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

const day = 24 * time.Hour

func TestHistoryAppendsOnChangeAndDailyHeartbeat(t *testing.T) {
	_, rdb := newRedis(t)
	src := &fake{name: "src"}
	c := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{src}})
	src.offers(offer("k", "rtx4090", 0.40))
	refresh(t, c, t0)                   // first point
	refresh(t, c, t0.Add(4*time.Hour))  // unchanged: no point
	refresh(t, c, t0.Add(25*time.Hour)) // unchanged but a day old: heartbeat point
	src.offers(offer("k", "rtx4090", 0.36))
	refresh(t, c, t0.Add(26*time.Hour)) // changed: point
	o := offer("k", "rtx4090", 0.36)
	o.Availability = "low"
	src.offers(o)
	refresh(t, c, t0.Add(27*time.Hour)) // availability changed: point

	pts, err := c.History(context.Background(), "k", t0.Add(-time.Hour), t0.Add(30*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pts {
		got = append(got, p.At.Sub(t0).String()+" "+catalog.FormatAmount(p.CardHourly)+" "+p.Availability)
	}
	want := []string{"0s 0.4 ", "25h0m0s 0.4 ", "26h0m0s 0.36 ", "27h0m0s 0.36 low"}
	if len(got) != len(want) {
		t.Fatalf("points = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("point %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestHistoryRetention(t *testing.T) {
	m, rdb := newRedis(t)
	src := &fake{name: "src"}
	c := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{src}}) // default 180 days
	for i, at := range []time.Duration{0, 100 * day, 200 * day} {
		src.offers(offer("k", "rtx4090", 0.40-float64(i)*0.01))
		refresh(t, c, t0.Add(at))
	}
	pts, err := c.History(context.Background(), "k", t0.Add(-day), t0.Add(300*day))
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 || !pts[0].At.Equal(t0.Add(100*day)) {
		t.Errorf("points after 200 days = %+v; the day-0 point is past the 180-day window", pts)
	}
	// An offer that stops being seen expires a retention after its last point.
	if ttl := m.TTL("gpubot:catalog:hist:k"); ttl != 180*day {
		t.Errorf("history TTL = %v, want 180 days", ttl)
	}
	m.FastForward(181 * day)
	if m.Exists("gpubot:catalog:hist:k") {
		t.Error("history outlived its retention")
	}
}

func TestCheapestSeriesAndNewLows(t *testing.T) {
	_, rdb := newRedis(t)
	src := &fake{name: "src"}
	c := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{src}})
	ctx := context.Background()
	spot := offer("spot", "rtx4090", 0.2)
	spot.Model = knowledge.Spot
	soldOut := offer("sold-out", "rtx4090", 0.1)
	soldOut.Availability = "none"
	cny := offer("cn", "rtx4090", 1.98)
	cny.Currency, cny.Platform = knowledge.CNY, "autodl"
	for i, p := range []float64{0.44, 0.40, 0.42, 0.37} {
		src.offers(offer("a", "rtx4090", p), offer("b", "rtx4090", p+0.05), spot, soldOut, cny, offer("h", "h100-sxm", 2.5))
		refresh(t, c, t0.Add(time.Duration(i)*day))
	}
	s, err := c.Cheapest(ctx, "rtx4090", knowledge.USD, catalog.ClassOnDemand, t0.Add(-30*day), t0.Add(30*day))
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, p := range s.Points {
		got = append(got, p.CardHourly)
		if p.OfferKey != "a" {
			t.Errorf("cheapest offer %s; spot and sold-out offers are not on-demand cheapest", p.OfferKey)
		}
	}
	if want := []float64{0.44, 0.40, 0.42, 0.37}; len(got) != 4 || got[0] != want[0] || got[3] != want[3] {
		t.Errorf("series = %v, want %v", got, want)
	}
	v := current(t, c)
	lows, err := c.NewLows(ctx, v, t0.Add(3*day), 30*day)
	if err != nil {
		t.Fatal(err)
	}
	if len(lows) != 1 || lows[0].GPU != "rtx4090" || lows[0].CardHourly != 0.37 || lows[0].PrevLow != 0.40 ||
		!lows[0].PrevLowAt.Equal(t0.Add(day)) || lows[0].Offer.Key != "a" {
		t.Errorf("new lows = %+v; want 4090 at 0.37 under the earlier 0.40 (CNY and H100 did not move)", lows)
	}
	// Inside a window that starts after the 0.40 point, 0.42 is the bar.
	lows, _ = c.NewLows(ctx, v, t0.Add(3*day), day+time.Hour)
	if len(lows) != 1 || lows[0].PrevLow != 0.42 {
		t.Errorf("short window lows = %+v", lows)
	}
}
