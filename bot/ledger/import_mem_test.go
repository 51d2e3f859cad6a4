package ledger

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// bill50k is a 50,000-row bill (the import limit) as a platform exports
// it: a line id, a day in October 2026, a project, a card, its count, the
// hours and the amount at ¥1.88 a 4090 card-hour or ¥8.00 an A100
// card-hour (AutoDL's list prices), about 4 MB in all.
func bill50k() []byte {
	var b bytes.Buffer
	b.WriteString("line id,日期,项目,显卡,卡数,时长(小时),金额,币种,平台,计费方式,备注\n")
	projects := []string{"llm-ft", "aigc", "pretrain", "eval"}
	for i := range maxImportRows {
		card, price := "RTX 4090", int64(188)
		if i%3 == 0 {
			card, price = "A100", 800
		}
		cards, hours := 1+i%8, 1+i%24
		fmt.Fprintf(&b, "L%06d,2026-10-%02d,%s,%s,%d,%d,%d.%02d,CNY,AutoDL,按量,run %d\n",
			i, 1+i%31, projects[i%4], card, cards, hours, price*int64(cards*hours)/100, price*int64(cards*hours)%100, i)
	}
	return b.Bytes()
}

// peakHeap samples the heap in use while f runs and returns its growth
// over the heap before f: the peak an import adds to the process.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	return peak - base
}

func embeddedLedger(tb testing.TB) (*Ledger, func()) {
	tb.Helper()
	ctx := context.Background()
	st, err := store.OpenEmbedded(ctx, tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	clk := time.Date(2026, 11, 20, 9, 0, 0, 0, Shanghai)
	return New(st, Options{KB: knowledge.MustShipped(), Location: Shanghai, Now: func() time.Time { return clk }}), func() { st.Close() }
}

// BenchmarkImport50kRows imports a 50,000-row bill into an empty embedded
// ledger and reports, besides B/op, the peak heap the import adds
// (peak-heap-B).
func BenchmarkImport50kRows(b *testing.B) {
	raw := bill50k()
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		b.StopTimer()
		l, done := embeddedLedger(b)
		b.StartTimer()
		var res *ImportResult
		var err error
		peak = max(peak, peakHeap(func() {
			res, err = l.Import(context.Background(), "TBENCH", "UADMIN", bytes.NewReader(raw), "bill50k.csv")
		}))
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Added) != maxImportRows || len(res.Errors) > 0 {
			b.Fatalf("added %d, errors %d (first %v)", len(res.Added), len(res.Errors), res.Errors[:min(1, len(res.Errors))])
		}
		done()
		b.StartTimer()
	}
	b.ReportMetric(float64(peak), "peak-heap-B")
}

// TestImport50kRowsMemory holds #28 item 9: a 50,000-row bill (the row
// limit, bill50k) imported into an embedded ledger. Measured with
// BenchmarkImport50kRows (2 busy cores; the peak is sampled every 2 ms
// and moves with GC timing):
//
//	                       peak heap added   allocated
//	before (ReadAll)           667 MB         2.57 GB   (the issue saw 627 MB)
//	after (streamed, batched)  372–447 MB     0.87–0.99 GB
//
// The bounds (560 MB, 1.3 GB) sit ~25 % over the highest after figures
// and under the before ones, so a return to the old reading fails here.
func TestImport50kRowsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 50,000 rows (~5 s)")
	}
	if raceEnabled {
		t.Skip("memory is measured without the race detector (it allocates more); make test-quick and BenchmarkImport50kRows measure it")
	}
	const maxPeak, maxAlloc = 560 << 20, 1300 << 20
	raw := bill50k()
	l, done := embeddedLedger(t)
	defer done()
	var res *ImportResult
	var err error
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := peakHeap(func() {
		res, err = l.Import(context.Background(), "TMEM", "UADMIN", bytes.NewReader(raw), "bill50k.csv")
	})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Added) != maxImportRows || len(res.Errors) > 0 || len(res.InFile) > 0 {
		t.Fatalf("added %d, errors %d, in-file duplicates %d; want 50000, 0, 0", len(res.Added), len(res.Errors), len(res.InFile))
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("50,000 rows: peak heap +%d MB, allocated %d MB", peak>>20, alloc>>20)
	if peak > maxPeak {
		t.Errorf("peak heap grew %d MB during the import, want at most %d MB", peak>>20, maxPeak>>20)
	}
	if alloc > maxAlloc {
		t.Errorf("the import allocated %d MB, want at most %d MB", alloc>>20, maxAlloc>>20)
	}
}

// TestImportStreamedChecks: the checks that used to run on the whole file
// still hold when it arrives in pieces. A character split between two
// reads is UTF-8 (日期 read one byte at a time books the row); a bad byte
// after the header, or a file that ends inside a character, refuses the
// whole file and books nothing; a file past 10 MiB is refused by size
// even when its rows would also pass the 50,000-row limit.
func TestImportStreamedChecks(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	good := "\ufeff日期,显卡,时长,金额\n2026-10-01,4090,1,¥1.88\n"
	res, err := l.Import(ctx, tm, "UADMIN", iotest.OneByteReader(strings.NewReader(good)), "bill.csv")
	if err != nil || len(res.Added) != 1 {
		t.Fatalf("one byte at a time: %v, %+v; want 1 added", err, res)
	}
	// The file's hash is of its bytes as sent, BOM included: sha256 of good.
	sum := sha256.Sum256([]byte(good))
	if want := hex.EncodeToString(sum[:])[:12]; res.FileHash != want {
		t.Errorf("file hash %s, want %s", res.FileHash, want)
	}
	for name, csv := range map[string]string{
		"bad byte in a row":         "日期,显卡,时长,金额\n2026-10-02,4090,1,¥1.88\n2026-10-03,4090,1,\xff\n",
		"ends inside a character":   "日期,显卡,时长,金额\n2026-10-02,4090,1,¥1.88\n" + "备"[:2],
		"GBK row after UTF-8 lines": "日期,显卡,时长,金额\n2026-10-02,4090,1,¥1.88\n2026-10-03,4090,1,\xc8\xd5\n",
	} {
		_, err := l.Import(ctx, tm, "UADMIN", iotest.HalfReader(strings.NewReader(csv)), "bill.csv")
		var in *InputError
		if !errors.As(err, &in) || !strings.Contains(in.Reason, "not UTF-8") {
			t.Errorf("%s: err = %v, want the not-UTF-8 refusal", name, err)
		}
	}
	big := "date,gpu,hours\n" + strings.Repeat("2026-10-01,4090,1\n", maxImportBytes/18+1) // 18 bytes a row: > 10 MiB, > 50,000 rows
	_, err = l.Import(ctx, tm, "UADMIN", strings.NewReader(big), "big.csv")
	var in *InputError
	if !errors.As(err, &in) || !strings.Contains(in.Reason, "larger than 10 MiB") {
		t.Errorf("11 MB file: err = %v, want the size refusal", err)
	}
	if all, _ := l.List(ctx, tm, Month{}, ""); len(all) != 1 {
		t.Errorf("ledger holds %d entries, want only the first good file's 1", len(all))
	}
}
