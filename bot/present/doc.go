package present

import (
	"fmt"
	"strings"
)

// The answer shape's limits.
const (
	// MaxText bounds an answer's plain text: a chat message, not a report.
	MaxText = 1200
	// MaxFigures is how many key figures an answer shows.
	MaxFigures = 5
	// ShortList is how many entries of a list an answer shows before "More".
	ShortList = 5
)

// Figure is one key figure: a label and its formatted value.
type Figure struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// Step kinds in an answer's working.
const (
	StepCalc       = "step"       // a formula with its numbers put in
	StepAssumption = "assumption" // a stated assumption
	StepSource     = "source"     // a price or figure with its source and date
	StepNote       = "note"       // context: rules of thumb, caveats
	StepItem       = "item"       // a list entry beyond the short list
)

// Step is one line of the working behind an answer (ask --json's
// "working"): what was computed, the formula with its values, the result.
type Step struct {
	Kind    string  `json:"kind"`
	Label   string  `json:"label"`
	Formula string  `json:"formula,omitempty"`
	Value   float64 `json:"value,omitempty"`
	Unit    string  `json:"unit,omitempty"`
	Shown   string  `json:"shown,omitempty"` // the value as the answer writes it
}

// Doc is an answer in the shape people read: the headline (the verdict or
// the figure asked for), at most five key figures, a short list, one line
// of what was assumed (pasteable keys), one next step; the full working
// behind it. It renders as plain text (Text) or Block Kit (Blocks).
type Doc struct {
	Lang     Lang
	Headline string
	Summary  []string // a line or two under the headline
	Figures  []Figure
	// ListTitle and List are a ranked list (offers, cards, rankings);
	// the short view shows ShortList entries and says how many more.
	ListTitle string
	List      []string
	Body      []string // paragraphs: guide notes, help, spend reports
	Assumed   []string // key=value pairs that were defaulted; pasteable
	Next      string   // the one change that matters
	Working   []Step
}

// View is which rendering of a document a message shows.
type View string

// The views a button can ask for.
const (
	Short   View = ""        // the answer shape
	Working View = "working" // the full derivation
	More    View = "more"    // the whole list
)

func (d Doc) figures() []Figure {
	if len(d.Figures) > MaxFigures {
		return d.Figures[:MaxFigures]
	}
	return d.Figures
}

// Long reports whether the list has entries beyond the short view.
func (d Doc) Long() bool { return len(d.List) > ShortList }

// HasWorking reports whether there is a derivation to show.
func (d Doc) HasWorking() bool { return len(d.Working) > 0 }

func (d Doc) moreLine(shown int) string {
	n := len(d.List) - shown
	return d.Lang.Pick(fmt.Sprintf("…and %d more", n), fmt.Sprintf("……还有 %d 项", n))
}

// AssumedLine is the "what was assumed" line, or "".
func (d Doc) AssumedLine() string {
	if len(d.Assumed) == 0 {
		return ""
	}
	return d.Lang.Pick("Assumed: ", "默认：") + strings.Join(d.Assumed, " ") + d.Lang.Pick(" (paste any to change it)", "（复制其中任一项改值重问）")
}

// NextLine is the "next step" line, or "".
func (d Doc) NextLine() string {
	if d.Next == "" {
		return ""
	}
	return d.Lang.Pick("Next: ", "下一步：") + d.Next
}

// Text is the short answer as plain text, at most MaxText characters:
// list entries and then body text are dropped or cut to fit, never the
// headline, the assumed line or the next step.
func (d Doc) Text() string {
	for shown := min(len(d.List), ShortList); ; shown-- {
		t := d.text(shown, 0)
		if len([]rune(t)) <= MaxText || shown == 0 {
			if len([]rune(t)) <= MaxText {
				return t
			}
			break
		}
	}
	// Body too long: cut it to what is left.
	base := len([]rune(d.text(0, -1)))
	t := d.text(0, max(MaxText-base-2, 0))
	return Clip(t, MaxText)
}

// text builds the plain text with shown list entries; body is cut to
// bodyRunes (0: whole, -1: none).
func (d Doc) text(shown, bodyRunes int) string {
	var lines []string
	lines = append(lines, d.Headline)
	lines = append(lines, d.Summary...)
	for _, f := range d.figures() {
		lines = append(lines, f.Label+": "+f.Value)
	}
	if shown > 0 {
		if d.ListTitle != "" {
			lines = append(lines, d.ListTitle)
		}
		for _, it := range d.List[:shown] {
			lines = append(lines, "• "+it)
		}
		if shown < len(d.List) {
			lines = append(lines, d.moreLine(shown))
		}
	} else if len(d.List) > 0 && d.ListTitle != "" {
		lines = append(lines, d.ListTitle+" "+d.moreLine(0))
	}
	if bodyRunes >= 0 {
		body := strings.Join(d.Body, "\n")
		if bodyRunes > 0 {
			body = Clip(body, bodyRunes)
		}
		if body != "" {
			lines = append(lines, body)
		}
	}
	if l := d.AssumedLine(); l != "" {
		lines = append(lines, l)
	}
	if l := d.NextLine(); l != "" {
		lines = append(lines, l)
	}
	return strings.Join(nonEmpty(lines), "\n")
}

func nonEmpty(xs []string) []string {
	out := xs[:0:0]
	for _, x := range xs {
		if strings.TrimSpace(x) != "" {
			out = append(out, x)
		}
	}
	return out
}

// WorkingText is the full derivation as plain text: the formula steps, the
// whole list, the assumptions, the sources with their dates and the notes.
func (d Doc) WorkingText() string {
	var b strings.Builder
	b.WriteString(d.Headline + "\n")
	groups := []struct {
		kind, en, zh string
	}{
		{StepCalc, "How it is computed:", "计算过程："},
		{StepItem, "All entries:", "全部条目："},
		{StepAssumption, "Assumptions:", "假设："},
		{StepSource, "Sources:", "来源："},
		{StepNote, "Notes:", "说明："},
	}
	for _, g := range groups {
		var lines []string
		for _, s := range d.Working {
			if s.Kind != g.kind {
				continue
			}
			lines = append(lines, "• "+s.line())
		}
		if g.kind == StepItem && len(lines) == 0 && len(d.List) > 0 {
			for _, it := range d.List {
				lines = append(lines, "• "+it)
			}
		}
		if len(lines) > 0 {
			b.WriteString("\n" + d.Lang.Pick(g.en, g.zh) + "\n" + strings.Join(lines, "\n") + "\n")
		}
	}
	if l := d.AssumedLine(); l != "" {
		b.WriteString("\n" + l + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// MoreText is the headline and the whole list.
func (d Doc) MoreText() string {
	lines := []string{d.Headline}
	if d.ListTitle != "" {
		lines = append(lines, d.ListTitle)
	}
	for i, it := range d.List {
		lines = append(lines, fmt.Sprintf("%d. %s", i+1, it))
	}
	return strings.Join(lines, "\n")
}

func (s Step) line() string {
	switch {
	case s.Shown != "" && s.Formula != "":
		return s.Label + " = " + s.Shown + "  (" + s.Formula + ")"
	case s.Shown != "":
		return s.Label + " = " + s.Shown
	case s.Formula != "":
		return s.Label + ": " + s.Formula
	}
	return s.Label
}

// Render is the plain text of a view.
func (d Doc) Render(v View) string {
	switch v {
	case Working:
		return d.WorkingText()
	case More:
		return d.MoreText()
	}
	return d.Text()
}
