package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/digest"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/knowledge"
)

const previewUsage = `usage:
  bot preview daily [--lang zh|en] [--gpu h100,4090] [--threshold 5%] [--out DIR] [--json]
  bot preview recap [--month YYYY-MM] [--team T] [--lang zh|en] [--out DIR] [--json]

Prints exactly what the scheduled post would say now (the plain text; --json adds
the Block Kit blocks) and writes its chart to DIR (default BOT_DATA_DIR/preview).
Nothing is posted and nothing is marked as sent.
`

// previewCmd runs `bot preview daily|recap`.
func previewCmd(ctx context.Context, cfg Config, kb *knowledge.Base, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New(previewUsage)
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("preview "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	lang := fs.String("lang", "en", "zh or en")
	out := fs.String("out", filepath.Join(cfg.DataDir, "preview"), "directory for the chart")
	asJSON := fs.Bool("json", false, "print text, blocks and data as JSON")
	gpus := fs.String("gpu", "", "daily: cards, comma-separated (as /gpu subscribe prices gpu=)")
	threshold := fs.String("threshold", "", "daily: smallest move, e.g. 5%")
	month := fs.String("month", "", "recap: the month, YYYY-MM (default: last month in BOT_TIMEZONE)")
	team := fs.String("team", cliTeam, "recap: the Slack workspace (team id) whose ledger to read")
	if _, err := parseArgs(fs, args); err != nil {
		return fmt.Errorf("preview %s: %w\n%s", sub, err, previewUsage)
	}
	if *lang != "zh" && *lang != "en" {
		return fmt.Errorf("preview: --lang %q: use zh or en", *lang)
	}
	d, closeStore, err := openCLI(ctx, cfg, kb, log)
	if err != nil {
		return err
	}
	defer closeStore()
	now := time.Now()
	var (
		text   string
		blocks []slack.Block
		chart  []byte
		name   string
		data   any
	)
	switch sub {
	case "daily":
		f := digest.Filter{Lang: *lang}
		if f.GPUs, err = cardIDs(kb, *gpus); err != nil {
			return err
		}
		if f.Threshold, err = share(*threshold); err != nil {
			return err
		}
		dg, err := d.daily.Preview(ctx, now, f)
		if err != nil {
			return fmt.Errorf("preview daily: %w", err)
		}
		text, blocks = dg.Render()
		if dg.Chart != nil && !dg.Quiet() {
			chart, name = dg.Chart.PNG, dg.Chart.Name
		}
		data = dg
	case "recap":
		m := ledger.MonthOf(now, d.loc).Prev()
		if *month != "" {
			if m, err = ledger.ParseMonth(*month); err != nil {
				return fmt.Errorf("preview recap: --month: %w", err)
			}
		}
		rc, err := d.recaps.Build(ctx, *team, m, *lang, now)
		if err != nil {
			return fmt.Errorf("preview recap: %w", err)
		}
		text, blocks = rc.Render()
		if rc.Chart != nil {
			chart, name = rc.Chart.PNG, rc.Chart.Name
		}
		data = rc
	default:
		return fmt.Errorf("unknown preview %q\n%s", sub, previewUsage)
	}
	path := ""
	if chart != nil {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return fmt.Errorf("preview: chart directory: %w", err)
		}
		path = filepath.Join(*out, name)
		if err := os.WriteFile(path, chart, 0o644); err != nil {
			return fmt.Errorf("preview: write chart: %w", err)
		}
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"text": text, "blocks": blocks, "chart": path, sub: data})
	}
	fmt.Fprintln(stdout, text)
	if path != "" {
		fmt.Fprintf(stdout, "\nchart: %s\n", path)
	} else {
		fmt.Fprintln(stdout, "\nchart: none (nothing to draw)")
	}
	return nil
}

// cardIDs reads "h100,4090" as canonical card ids.
func cardIDs(kb *knowledge.Base, list string) ([]string, error) {
	var out []string
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		g, ok := kb.GPU(name)
		if !ok {
			return nil, fmt.Errorf("preview: --gpu: unknown card %q", name)
		}
		out = append(out, g.ID)
	}
	return out, nil
}

// share reads "5%", "5" or "0.05" as 0.05.
func share(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	pct := strings.HasSuffix(s, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("preview: --threshold %q: write it as 5%%", s)
	}
	if pct || v >= 1 {
		v /= 100
	}
	if v > 1 {
		return 0, fmt.Errorf("preview: --threshold %q: at most 100%%", s)
	}
	return v, nil
}
