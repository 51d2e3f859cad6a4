package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestAskJSONReadsPastAHugeLine: between two questions, a 3 MiB line (no
// Scanner buffer holds it) is refused with a JSON error object in its own
// language, and the question after it is still answered. A line just under
// the limit is answered.
func TestAskJSONReadsPastAHugeLine(t *testing.T) {
	t.Setenv("REDIS_URL", "")
	t.Setenv("BOT_DATA_DIR", t.TempDir())
	huge := strings.Repeat("显存", 3<<20/6) // 3 MiB of Chinese
	near := "fit 13b lora " + strings.Repeat("x", maxLine-20)
	in := "fit 13b lora\n" + huge + "\r\n" + near + "\n" + "70B 推理要多大显存\n"
	var out bytes.Buffer
	if err := run(context.Background(), []string{"ask", "--json", "-"}, strings.NewReader(in), &out, io.Discard); err != nil {
		t.Fatalf("ask: %v", err)
	}
	var got []map[string]any
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not one JSON object per line: %v: %.200s", err, sc.Text())
		}
		got = append(got, m)
	}
	if len(got) != 4 {
		t.Fatalf("%d objects, want 4 (answer, refusal, answer, answer)", len(got))
	}
	if got[0]["intent"] != "fit" || got[2]["intent"] != "fit" || got[3]["intent"] != "fit" {
		t.Errorf("intents %v, %v, %v; want fit for the questions around the refusal", got[0]["intent"], got[2]["intent"], got[3]["intent"])
	}
	ref := got[1]
	msg, _ := ref["error"].(string)
	if ref["lang"] != "zh" || !strings.Contains(msg, "第 2 行") || ref["line"] != 2.0 || ref["bytes"] != float64(len(huge)) || ref["limit_bytes"] != float64(maxLine) {
		t.Errorf("refusal = %v, want line 2 of %d bytes, in Chinese", ref, len(huge))
	}
}

func TestLineReaderEndings(t *testing.T) {
	l := newLineReader(strings.NewReader("a\r\nb\n\nlast"))
	var lines []string
	for {
		s, err := l.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, s)
	}
	if strings.Join(lines, "|") != "a|b||last" {
		t.Errorf("lines %q", lines)
	}
}
