// Package chart draws the catalogue's trend charts as PNG images for the
// daily price post: one line per card, its cheapest price per card-hour per
// day, from the cheapest-per-card series the catalogue records at every
// refresh.
package chart

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"sort"
	"time"

	"github.com/gpubot/gpubot/knowledge/catalog"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// ErrNoData means no series had a point to draw; there is no chart to post.
var ErrNoData = errors.New("chart: no data points")

// dpi is the resolution Options' pixel sizes are drawn at.
const dpi = 96

// Options shape a trend chart. Zero values take the defaults noted.
type Options struct {
	Width, Height int    // pixels; 800 × 400
	Title         string // "Cheapest on-demand price, last 30 days"
	// Location sets the day boundaries and the axis dates; UTC when nil.
	// The daily post passes BOT_TIMEZONE.
	Location *time.Location
	// From and To bound the x axis; zero: the data's own range.
	From, To time.Time
}

// palette is distinguishable on white and for the common colour
// blindnesses (Okabe–Ito).
var palette = []color.RGBA{
	{0, 114, 178, 255}, {213, 94, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255},
	{230, 159, 0, 255}, {86, 180, 233, 255}, {0, 0, 0, 255}, {240, 228, 66, 255},
}

// Trend draws each series' cheapest price per day (the lowest of the day's
// points) as a line, one colour per card, and returns the PNG. All series
// must be in one currency. Labels are ASCII (card ids), as the embedded
// fonts have no CJK glyphs.
func Trend(series []catalog.Series, opt Options) ([]byte, error) {
	if opt.Width <= 0 {
		opt.Width = 800
	}
	if opt.Height <= 0 {
		opt.Height = 400
	}
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	if opt.Title == "" {
		opt.Title = "Cheapest on-demand price, last 30 days"
	}
	cur := ""
	p := plot.New()
	p.Title.Text = opt.Title
	p.X.Tick.Marker = plot.TimeTicks{Format: "01-02", Time: plot.UnixTimeIn(opt.Location)}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	drawn, top := 0, 0.0
	for i, s := range series {
		if cur != "" && string(s.Currency) != cur {
			return nil, fmt.Errorf("chart: series in %s and %s; one chart, one currency", cur, s.Currency)
		}
		cur = string(s.Currency)
		xys := daily(s, opt)
		if len(xys) == 0 {
			continue
		}
		for _, xy := range xys {
			top = max(top, xy.Y)
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", s.GPU, err)
		}
		c := palette[i%len(palette)]
		line.Color, line.Width = c, vg.Points(2)
		points.Color, points.Shape, points.Radius = c, draw.CircleGlyph{}, vg.Points(2.5)
		p.Add(line, points)
		label := s.GPU
		if s.Class != "" && s.Class != catalog.ClassOnDemand {
			label += " (" + s.Class + ")"
		}
		p.Legend.Add(label, line, points)
		drawn++
	}
	if drawn == 0 {
		return nil, ErrNoData
	}
	p.Y.Label.Text = cur + " per card-hour"
	p.Y.Min, p.Y.Max = 0, top*1.15 // headroom for the legend
	if !opt.From.IsZero() {
		p.X.Min = float64(opt.From.Unix())
	}
	if !opt.To.IsZero() {
		p.X.Max = float64(opt.To.Unix())
	}
	w := vg.Length(opt.Width) * vg.Inch / dpi
	h := vg.Length(opt.Height) * vg.Inch / dpi
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart: encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// daily keeps each day's lowest point, placed at the day's start.
func daily(s catalog.Series, opt Options) plotter.XYs {
	low := map[time.Time]float64{}
	for _, pt := range s.Points {
		if (!opt.From.IsZero() && pt.At.Before(opt.From)) || (!opt.To.IsZero() && pt.At.After(opt.To)) {
			continue
		}
		t := pt.At.In(opt.Location)
		d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, opt.Location)
		if v, ok := low[d]; !ok || pt.CardHourly < v {
			low[d] = pt.CardHourly
		}
	}
	days := make([]time.Time, 0, len(low))
	for d := range low {
		days = append(days, d)
	}
	sort.Slice(days, func(i, j int) bool { return days[i].Before(days[j]) })
	xys := make(plotter.XYs, len(days))
	for i, d := range days {
		xys[i] = plotter.XY{X: float64(d.Unix()), Y: low[d]}
	}
	return xys
}
