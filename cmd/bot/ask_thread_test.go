package main

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
)

// TestAskThreadMergesFollowUps: with --thread, stdin lines are one
// conversation; a follow-up carries the earlier request's slots.
func TestAskThreadMergesFollowUps(t *testing.T) {
	in := "7b lora 微调成本多少\n20k samples\n4090 hourly rate on vast?\nand on runpod?\n"
	out, err := runBot(t, in, "ask", "--json", "--thread", "t1", "-")
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Intent string
		Slots  struct {
			ParamsB  float64 `json:"params_b"`
			Method   string
			Samples  float64
			Platform string
			Missing  []string
		}
	}
	var as []answer
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 4<<20) // an answer with its full working is longer than 64 KB
	for sc.Scan() {
		var a answer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		as = append(as, a)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(as) != 4 {
		t.Fatalf("%d answers, want 4:\n%s", len(as), out)
	}
	if a := as[1]; a.Intent != "cost" || a.Slots.ParamsB != 7 || a.Slots.Method != "lora" || a.Slots.Samples != 20000 || len(a.Slots.Missing) > 0 {
		t.Errorf("\"20k samples\" answered as %+v; want the 7B LoRA cost with 20 000 samples", a)
	}
	if a := as[3]; a.Intent != "price" || a.Slots.Platform != "runpod" {
		t.Errorf("\"and on runpod?\" answered as %+v; want the 4090 price on runpod", a)
	}
	// without --thread every line stands alone
	out, err = runBot(t, "7b lora 微调成本多少\n20k samples\n", "ask", "--json", "-")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var last answer
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatal(err)
	}
	if last.Slots.ParamsB == 7 {
		t.Errorf("without --thread, \"20k samples\" inherited the model size: %+v", last)
	}
}
