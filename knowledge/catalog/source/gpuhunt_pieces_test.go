package source

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

const lastRow = "last,eu-west-9,3.00,8,64,1,H100,80,False,100,nvidia,,x86,{}"

// piecesCatalog is a gpuhunt CSV with every kind of row a reader treats
// apart, spread over the file so that any cut falls among them: good rows,
// rows with too few cells, an empty instance name, an unparsable price,
// CPU-only rows, unknown cards, empty lines, and keys listed twice (the
// second copy cheaper, or dearer) far apart, so the copies land in
// different pieces. The last line has no line end.
func piecesCatalog() (csv string, badLines []int) {
	var b strings.Builder
	b.WriteString("instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,gpu_vendor,flags,cpu_arch,provider_data\n")
	line := 1
	row := func(s string) {
		b.WriteString(s + "\n")
		line++
	}
	for i := range 300 {
		switch i % 10 {
		case 3:
			row(fmt.Sprintf("bad-%d,loc,1.0", i))
			badLines = append(badLines, line)
		case 5:
			row(fmt.Sprintf(",us-east-%d,1.0,8,64,1,H100,80,False,100,nvidia,,x86,{}", i%3))
			badLines = append(badLines, line)
		case 7:
			row(fmt.Sprintf("i-%d,us-east-1,cheap,8,64,1,H100,80,False,100,nvidia,,x86,{}", i))
			badLines = append(badLines, line)
		case 8:
			row(fmt.Sprintf("c-%d,us-east-1,0.1,8,64,0,,,False,100,,,x86,{}", i))
		case 9:
			row(fmt.Sprintf("u-%d,us-east-1,2.0,8,64,1,Mystery%d,%d,False,100,nvidia,,x86,{}", i, i%4, 10+i%3))
		case 4:
			row("")
		default:
			// i%150 repeats each key twice, 150 rows apart, at a
			// price that is lower the second time for half of them.
			k := i % 150
			price := 2.0 + float64(k%7)/10
			if i >= 150 && k%2 == 0 {
				price -= 0.5
			} else if i >= 150 {
				price += 0.5
			}
			row(fmt.Sprintf("g-%d,eu-west-%d,%.2f,%d,%d,%d,%s,%s,%s,100,nvidia,,x86,{}",
				k, k%3, price, 8*(1+k%2), 64, 1+k%2, []string{"H100", "A100", "RTX4090"}[k%3], []string{"80", "80", "24"}[k%3],
				[]string{"False", "True"}[k%4/2]))
		}
	}
	b.WriteString(lastRow)
	return b.String(), badLines
}

// A catalogue read in pieces at once is the batch one reader makes: the
// same offers in the same order (duplicates across pieces resolved as one
// reader resolves them), the same counts and unknown names, and problems
// naming the lines of the whole file in file order.
func TestGPUHuntPiecesMatchOneReader(t *testing.T) {
	raw, badLines := piecesCatalog()
	g := &GPUHunt{Provider: "aws", Mapper: mapper(), Base: knowledge.MustShipped()}
	one, err := g.parse([]byte(raw), "r", now, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Independent of the reader: 90 bad rows, of which the first 20 are
	// reported, each by its line in the file.
	if one.Skipped[catalog.SkipMalformed] != len(badLines) || len(one.Problems) != 20 {
		t.Fatalf("one reader: skipped %v, %d problems; want %d malformed, 20 problems", one.Skipped, len(one.Problems), len(badLines))
	}
	for k, p := range one.Problems {
		if want := fmt.Sprintf("line %d: ", badLines[k]); !strings.HasPrefix(p, want) {
			t.Errorf("problem %d = %q, want it to start %q", k, p, want)
		}
	}
	// 120 good rows over 60 distinct keys + 1 last row; 60 duplicates;
	// unknown cards named by 2 names × 3 memory sizes.
	if one.Len() != 61 || one.Skipped[catalog.SkipDuplicate] != 60 || one.Skipped[catalog.SkipCPUOnly] != 30 || len(one.Unknown) != 6 {
		t.Fatalf("one reader: %d offers, skipped %v, unknown %v", one.Len(), one.Skipped, one.Unknown)
	}
	// The raw hash is the one rawHash gives the record's cells.
	all := one.All()
	if o := all[len(all)-1]; o.SKU != "last" || o.RawHash != rawHash(strings.Split(lastRow, ",")...) {
		t.Errorf("last offer %s raw hash %q, want %q", o.SKU, o.RawHash, rawHash(strings.Split(lastRow, ",")...))
	}
	for _, n := range []int{2, 3, 7} {
		got, err := g.parse([]byte(raw), "r", now, n)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(one.All(), got.All()); d != "" {
			t.Errorf("%d pieces: offers differ (-one +pieces):\n%s", n, d)
		}
		if d := cmp.Diff(one.Skipped, got.Skipped); d != "" {
			t.Errorf("%d pieces: skipped differ (-one +pieces):\n%s", n, d)
		}
		if d := cmp.Diff(one.Unknown, got.Unknown); d != "" {
			t.Errorf("%d pieces: unknown differ (-one +pieces):\n%s", n, d)
		}
		if d := cmp.Diff(one.Problems, got.Problems); d != "" {
			t.Errorf("%d pieces: problems differ (-one +pieces):\n%s", n, d)
		}
	}
}

// splitPlain's pieces cover the input exactly, each ends at a line end
// (but the last), and each numbers its first line as the whole file does.
func TestSplitPlainCutsAtLineEnds(t *testing.T) {
	raw := "a\nbb\n\nccc\ndddd\ne"
	for n := 1; n <= 8; n++ {
		ps := splitPlain(&plainCSV{raw: []byte(raw), next: 10}, n)
		var all string
		line := 10
		for k, p := range ps {
			if p.next != line {
				t.Errorf("n=%d piece %d starts at line %d, want %d", n, k, p.next+1, line+1)
			}
			if k < len(ps)-1 && !strings.HasSuffix(string(p.raw), "\n") {
				t.Errorf("n=%d piece %d = %q, not cut at a line end", n, k, p.raw)
			}
			all += string(p.raw)
			line += strings.Count(string(p.raw), "\n")
		}
		if all != raw || len(ps) > n {
			t.Errorf("n=%d: %d pieces joining to %q", n, len(ps), all)
		}
	}
}

// parseNumber reads every cell as strconv.ParseFloat does, errors alike.
func TestParseNumberIsParseFloat(t *testing.T) {
	for _, s := range []string{"0", "1", "8", "007", "640", "123456789012345", "1234567890123456", "9007199254740993",
		"1.5", "0.4000", "-1", "+2", "1e3", "", "x", "1 ", "NaN", "inf", "0x10", "1_000"} {
		want, werr := strconv.ParseFloat(s, 64)
		got, gerr := parseNumber(s)
		if math.Float64bits(got) != math.Float64bits(want) || (gerr == nil) != (werr == nil) {
			t.Errorf("parseNumber(%q) = %v, %v; ParseFloat gives %v, %v", s, got, gerr, want, werr)
		}
	}
}

// Keys by the rule written out by hand: lower case, runs of other
// characters one '-', none at either end, letters of any script kept,
// parts with nothing kept dropped with their '/'.
func TestOfferKeyRule(t *testing.T) {
	for _, c := range []struct {
		parts []string
		want  string
	}{
		{[]string{"Src", "--", "A100 SXM4 (80GB)", "西北B区", "+x_y.z", "  "}, "src/a100-sxm4-80gb/西北b区/+x_y.z"},
		{[]string{"", "-", "GPU_1x.H100", "us-EAST-1"}, "gpu_1x.h100/us-east-1"},
		{[]string{"ÄB--c", "ok"}, "äb-c/ok"},
	} {
		if got := offerKey(c.parts...); got != c.want {
			t.Errorf("offerKey(%q) = %q, want %q", c.parts, got, c.want)
		}
	}
}
