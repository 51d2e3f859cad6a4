package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

// `bot catalog status` on a fresh install lists every provider of the
// shipped market snapshot with its date and offer count.
func TestCatalogStatusListsEveryShippedProvider(t *testing.T) {
	t.Setenv("BOT_DATA_DIR", t.TempDir())
	t.Setenv("REDIS_URL", "")
	t.Setenv("CATALOG_PUBLIC", "off")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"catalog", "status"}, strings.NewReader(""), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	market, err := source.MarketProviders(knowledge.MustShipped())
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			lines[f[0]] = l
		}
	}
	for _, m := range market {
		l, ok := lines[m.Platform]
		if !ok {
			t.Errorf("status does not list %s", m.Platform)
			continue
		}
		if !strings.Contains(l, m.Newest) {
			t.Errorf("%s: line lacks its date %s: %q", m.Platform, m.Newest, l)
		}
	}
	// Oracle's rows are dated 2026-03-23 (shared/market/history.csv).
	if l := lines["oracle"]; !strings.Contains(l, "dated: 2026-03-23") {
		t.Errorf("oracle: %q", l)
	}
}
