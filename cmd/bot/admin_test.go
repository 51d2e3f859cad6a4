package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/store"
)

// A bill imported while `bot serve` runs on the embedded default used to
// print "1 added" and vanish at serve's next save: two processes each had
// their own copy of the state. Now the CLI finds the data dir locked and
// sends the import to the running bot; three imports at once, plus the
// bot's own writes, all survive the bot's restart.
func TestCLIImportWhileServing(t *testing.T) {
	fs := bottest.NewSlack(t)
	dir := filepath.Join(t.TempDir(), "data")
	out, errc, stop := serveIn(t, fs, dir)
	out.wait(t, regexp.MustCompile(`(serving Slack HTTP)`), errc)

	bills := make([]string, 3)
	for i := range bills {
		bills[i] = filepath.Join(t.TempDir(), fmt.Sprintf("bill%d.csv", i))
		csv := fmt.Sprintf("date,project,gpu,cards,hours,amount\n2026-10-%02d,p%d,h800,8,24,2880\n2026-10-%02d,p%d,h800,8,12,1440\n", i+1, i, i+1, i)
		if err := os.WriteFile(bills[i], []byte(csv), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	outs := make([]string, len(bills))
	errs := make([]error, len(bills))
	for i, b := range bills {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var o, e bytes.Buffer
			errs[i] = run(context.Background(), []string{"spend", "import", b, "--team", "T1"}, strings.NewReader(""), &o, &e)
			outs[i] = o.String() + e.String()
		}()
	}
	wg.Wait()
	for i := range bills {
		if errs[i] != nil || !strings.Contains(outs[i], "2 added") {
			t.Errorf("import %d while serving: %v\n%s", i, errs[i], outs[i])
		}
	}
	if err := stop(); err != nil {
		t.Fatalf("serve: %v", err)
	}

	st, err := store.OpenEmbedded(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	es, err := ledger.New(st, ledger.Options{}).List(context.Background(), "T1", ledger.Month{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 6 {
		t.Errorf("after serve stopped the ledger holds %d entries, want 6 (3 bills × 2 lines)", len(es))
	}
}

// With no bot running the CLI owns the data dir itself, and a second
// process cannot open it meanwhile.
func TestCLIImportWithoutServe(t *testing.T) {
	c := newCLI(t)
	out := c.run("spend", "import", "testdata/sample_bill.csv")
	contains(t, "import", out, "25 added")
	st, err := store.OpenEmbedded(context.Background(), filepath.Join(c.dir, "data"))
	if err != nil {
		t.Fatalf("the CLI kept the data dir locked after it exited: %v", err)
	}
	defer st.Close()
	var o bytes.Buffer
	err = run(context.Background(), []string{"spend", "import", "testdata/sample_bill.csv"}, strings.NewReader(""), &o, &o)
	if err == nil || !strings.Contains(err.Error(), "in use by another gpubot process") {
		t.Errorf("import while another process holds the dir (no admin socket): %v", err)
	}
}
