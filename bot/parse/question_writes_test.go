package parse

import "testing"

// A question never writes: a message with a spent figure that asks
// something (a question mark, "on track", "how many", "多少") is a report,
// not a new ledger entry; a statement, or any message with a ledger word
// ("log", "记一笔"), still adds one.
func TestQuestionsDoNotLogSpend(t *testing.T) {
	p := newParser(t)
	for _, c := range []struct{ text, mode string }{
		{"Atlas has $120k for Q1; spent $47k through Jan 31 — on track, what is the run-rate?", "report"},
		{"AWS bill $61,200 for p4d last month; how many GPU-hours is that at $32.77/hr per p4d?", "report"},
		{"Team ML spent 312k of 400k annual by end Sept — over pace?", "report"},
		{"上个月 AutoDL 花了 ¥3,200？", "report"},
		{"runpod h100 40 hours $99.60 project llm-ft", "add"},
		{"记一笔：AutoDL 4090 跑了20小时，¥40，项目 sd", "add"},
		{"帮我记一下：恒源云 3090 跑了 30 小时，¥54，项目 kb-qa", "add"},
	} {
		r := p.Parse(c.text)
		if r.Intent == Spend && r.Slots.Mode != c.mode {
			t.Errorf("%q: mode %q, want %q", c.text, r.Slots.Mode, c.mode)
		}
		if c.mode == "add" && r.Intent != Spend {
			t.Errorf("%q: routed %s, want a spend entry", c.text, r.Intent)
		}
	}
}

// Common misspellings read as the word meant: "64 concurent users" is a
// concurrency of 64, "reseved" a reservation, "infernce" serving.
func TestMisspellingsRead(t *testing.T) {
	p := newParser(t)
	r := p.Parse("tok/s per user for an 8B model on one H100 at 64 concurent users?")
	if r.Slots.Concurrency != 64 {
		t.Errorf("concurent: concurrency %d, want 64", r.Slots.Concurrency)
	}
	r = p.Parse("8b infernce on a 4090, how much vram")
	if r.Slots.Method != "inference" {
		t.Errorf("infernce: method %q, want inference", r.Slots.Method)
	}
	if got := respell("concurrency of the concurent users, not preconcurent"); got != "concurrency of the concurrent users, not preconcurent" {
		t.Errorf("respell: %q (whole words only)", got)
	}
}

// A question is never a correction of a ledger entry, even with a
// correction's words in it ("should be cheaper"): only a statement edits.
func TestQuestionsAreNotCorrections(t *testing.T) {
	for _, q := range []string{
		"we are burning ~$42k/mo on on-demand H100s (24 cards), would a 1yr reserve save us anything, should be cheaper right",
		"actually is the H100 on runpod still $2.39?",
		"这笔应该是按量划算吧",
	} {
		if c, ok := ReadCorrection(q); ok {
			t.Errorf("%q read as a correction: %+v", q, c)
		}
	}
	for _, q := range []string{"actually it was 120 hours, not 100", "不对，金额是1800元"} {
		if _, ok := ReadCorrection(q); !ok {
			t.Errorf("%q: a correction not read", q)
		}
	}
}

// A signed budget with no currency mark is still read, and refused — never
// dropped; a rental longer than 10 years is refused with what was read.
func TestSignedBudgetAndLongSpanRefused(t *testing.T) {
	p := newParser(t)
	for _, q := range []string{"每月预算-5000，H20能租几张？", "rent 2x H100 for 600 weeks, total?"} {
		if r := p.Parse(q); len(r.Problems) == 0 {
			t.Errorf("%q: no problem raised (slots %+v)", q, r.Slots)
		}
	}
}
