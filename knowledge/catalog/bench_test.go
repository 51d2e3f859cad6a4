package catalog_test

import (
	"bytes"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

// genCatalog writes a gpuhunt-format CSV of n offers; every 20th price is
// moved by shift so a diff has 5 % changes to find.
func genCatalog(n int, shift float64) []byte {
	cards := []struct {
		name string
		mem  float64
		base float64
	}{{"RTX4090", 24, 0.4}, {"H100", 80, 2.4}, {"A100", 80, 1.6}, {"A100", 40, 1.2}, {"L40S", 48, 0.9}, {"H200", 141, 3.4}, {"V100", 16, 0.5}}
	var b bytes.Buffer
	b.Grow(n * 100)
	b.WriteString("instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,gpu_vendor,flags,cpu_arch,provider_data\n")
	for i := range n {
		c := cards[i%len(cards)]
		count := []int{1, 2, 4, 8}[(i/7)%4]
		price := c.base * float64(count) * (1 + float64(i%13)/100)
		if i%20 == 0 {
			price *= 1 + shift
		}
		fmt.Fprintf(&b, "inst-%d,region-%d,%.4f,%d,%d,%d,%s,%g,%s,100.0,nvidia,,x86,{}\n",
			i, i%37, price, 8*count, 64*count, count, c.name, c.mem, []string{"False", "True"}[i%2])
	}
	return b.Bytes()
}

// BenchmarkIngestNormaliseDiff100k parses 100,000 generated gpuhunt rows
// into offers (card mapping, keys, hashes), validates every offer and diffs
// the result against the previous catalogue. Target: under 1 s and 200 MB
// per op.
func BenchmarkIngestNormaliseDiff100k(b *testing.B) { benchIngest(b, 100_000) }

// BenchmarkIngestNormaliseDiff1M is the same at 1,000,000 offers (issue
// 17). Target: under 2 s per op; peak RSS under 400 MB (the PeakRSS
// variant, run once by make bench).
func BenchmarkIngestNormaliseDiff1M(b *testing.B) { benchIngest(b, 1_000_000) }

func benchIngest(b *testing.B, n int) {
	kb := knowledge.MustShipped()
	g := &source.GPUHunt{Provider: "bench", Mapper: source.NewMapper(kb, nil), Base: kb}
	prev, err := g.Parse(genCatalog(n, 0), "prev", t0)
	if err != nil {
		b.Fatal(err)
	}
	limits := catalog.DefaultLimits()
	var cpu time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		// The bot refreshes hours apart: the bytes and garbage of the last
		// refresh were collected long before this one starts. It reads a
		// catalogue's bytes, parses them and lets them go; it keeps the
		// previous catalogue, not its bytes.
		b.StopTimer()
		runtime.GC()
		raw := genCatalog(n, 0.1)
		b.StartTimer()
		c0 := cpuTime()
		cur, err := g.Parse(raw, "cur", t0)
		if err != nil {
			b.Fatal(err)
		}
		raw = nil //nolint:ineffassign // the bytes are garbage from here on, as in the bot
		limits.CheckRows(cur.Rows, kb)
		d := catalog.DiffTables(prev.Rows, cur.Rows, catalog.DefaultThresholds())
		cpu += cpuTime() - c0
		if cur.Rows.Len() < n*6/7-1 || len(d.Changes) == 0 {
			b.Fatalf("valid %d, changes %d", cur.Rows.Len(), len(d.Changes))
		}
	}
	// CPU seconds per op, beside the wall time: on a machine shared with
	// other work the wall time measures the neighbours too.
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
