package ledger

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
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
