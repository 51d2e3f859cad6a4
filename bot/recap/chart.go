package recap

import (
	"bytes"
	"fmt"
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// chartProjects bounds the bars: the biggest projects, the rest left out
// (the message lists them all).
const chartProjects = 8

// spendChart draws spend by project, this month beside the last, in CNY
// with other currencies converted at Options.FX. Nothing is drawn when the
// team spent nothing in either month.
func spendChart(r *Recap, opt Options) *Chart {
	groups := r.Report.ByProject
	if len(groups) > chartProjects {
		groups = groups[:chartProjects]
	}
	cur := make(plotter.Values, len(groups))
	prev := make(plotter.Values, len(groups))
	labels := make([]string, len(groups))
	projects := make([]string, len(groups))
	top := 0.0
	for i, g := range groups {
		if g.Converted != nil {
			cur[i] = g.Converted.Float()
		}
		if g.Prev.Converted != nil {
			prev[i] = g.Prev.Converted.Float()
		}
		top = max(top, cur[i], prev[i])
		labels[i] = chartLabel(i, g.Key)
		projects[i] = g.Key
	}
	if top <= 0 {
		return nil
	}
	title := fmt.Sprintf("GPU spend by project, %s vs %s (CNY; USD at %s)", r.Month, r.Prev, strconv.FormatFloat(opt.FX, 'f', -1, 64))
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "CNY"
	p.Y.Min, p.Y.Max = 0, top*1.25 // headroom for the legend
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	w := vg.Points(22)
	bars := []struct {
		vals  plotter.Values
		label string
		c     color.RGBA
		off   vg.Length
	}{
		{prev, r.Prev.String(), color.RGBA{170, 170, 170, 255}, -w / 2},
		{cur, r.Month.String(), color.RGBA{0, 114, 178, 255}, w / 2},
	}
	for _, b := range bars {
		bc, err := plotter.NewBarChart(b.vals, w)
		if err != nil {
			return nil
		}
		bc.Color, bc.LineStyle.Width, bc.Offset = b.c, 0, b.off
		p.Add(bc)
		p.Legend.Add(b.label, bc)
	}
	p.NominalX(labels...)
	// Room for the outer bars, which sit half a bar off their tick.
	p.X.Min, p.X.Max = -0.75, float64(len(groups))-0.25
	const width, height, dpi = 800, 400, 96
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(vg.Length(width)*vg.Inch/dpi, vg.Length(height)*vg.Inch/dpi), vgimg.UseDPI(dpi))}
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil
	}
	return &Chart{Name: "gpu-spend-" + r.Month.String() + ".png", Title: title, Projects: projects, PNG: buf.Bytes()}
}

// chartLabel is the project's name on the axis, numbered as the message
// lists it. The embedded fonts have no CJK glyphs, so a name outside
// printable ASCII is shown by its number only.
func chartLabel(i int, name string) string {
	for _, r := range name {
		if r < 0x20 || r > 0x7e {
			return strconv.Itoa(i + 1)
		}
	}
	if len(name) > 14 {
		name = name[:13] + "~"
	}
	return strconv.Itoa(i+1) + " " + name
}
