package source

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpubot/gpubot/knowledge"
)

// A large plain catalogue is read in parallel parts; the batch must be
// the one a single reader makes: same offers in the same order, the same
// duplicates resolved, the same counts and the first problems by line.
func TestGPUHuntParallelReadsAsOneReader(t *testing.T) {
	var raw bytes.Buffer
	raw.WriteString("instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,gpu_vendor,flags,cpu_arch,provider_data\n")
	for i := range 30000 {
		switch {
		case i%997 == 0:
			raw.WriteString("broken,row\n") // wrong width: a problem with its line
		case i%1009 == 0:
			raw.WriteString("\n") // empty line: skipped, but counted in line numbers
		case i%101 == 0:
			fmt.Fprintf(&raw, "inst-%d,r1,1.5,8,64,1,NoSuchCard,24,False,100.0,nvidia,,x86,{}\n", i)
		default:
			// i%3000 repeats keys across the whole file, so duplicates
			// meet across parts; prices differ to show which one stays.
			fmt.Fprintf(&raw, "inst-%d,region-%d,%.4f,8,64,%d,H100,80,%s,100.0,nvidia,,x86,{}\n",
				i%3000, i%7, 2+float64(i%17)/10, 1+i%2, []string{"False", "True"}[i%2])
		}
	}
	if raw.Len() < parallelBytes {
		t.Fatalf("test catalogue %d bytes, below the parallel threshold", raw.Len())
	}
	kb := knowledge.MustShipped()
	g := &GPUHunt{Provider: "aws", Mapper: NewMapper(kb, nil), Base: kb}
	now := time.Date(2026, 10, 8, 0, 0, 0, 0, time.UTC)
	prev := runtime.GOMAXPROCS(1)
	one, err := g.Parse(raw.Bytes(), "x", now)
	runtime.GOMAXPROCS(max(prev, 2))
	if err != nil {
		t.Fatal(err)
	}
	many, err := g.Parse(raw.Bytes(), "x", now)
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Offers) < 1000 || one.Skipped["duplicate"] == 0 || len(one.Problems) == 0 {
		t.Fatalf("test catalogue too tame: %d offers, skipped %v", len(one.Offers), one.Skipped)
	}
	if d := cmp.Diff(one.Offers, many.Offers); d != "" {
		t.Errorf("offers differ (-one +parallel):\n%s", d)
	}
	if d := cmp.Diff([]any{one.Skipped, one.Unknown, one.Problems}, []any{many.Skipped, many.Unknown, many.Problems}); d != "" {
		t.Errorf("accounts differ (-one +parallel):\n%s", d)
	}
}
