package bottest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// recorder is a testing.TB that keeps what GoldenJSON reports; Fatalf
// stops the call (as t.Fatalf does) by panicking with errFatal.
type recorder struct {
	testing.TB
	name   string
	errors []string
	fatal  string
}

var errFatal = errors.New("fatal")

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return r.name }
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	panic(errFatal)
}

func (r *recorder) golden(path string, got string) {
	defer func() {
		if p := recover(); p != nil && p != errFatal {
			panic(p)
		}
	}()
	GoldenJSON(r, path, []byte(got))
}

func TestGoldenJSON(t *testing.T) {
	if Update() {
		t.Skip("-update rewrites the files this test compares")
	}
	path := filepath.Join(t.TempDir(), "x.golden.json")
	if err := os.WriteFile(path, []byte("{\"b\": [1, 2],\n \"a\": \"x\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const update = "go test ./bot/bottest -run '^TestGoldenJSON$' -update"

	// Same values, other key order and spacing: equal.
	r := &recorder{name: "TestGoldenJSON/same"}
	r.golden(path, `{"a":"x","b":[1,2]}`)
	if len(r.errors) != 0 || r.fatal != "" {
		t.Errorf("equal documents reported %q %q", r.errors, r.fatal)
	}

	// b[1] differs. The golden file with sorted keys, indented, reads
	// line 1 `{`, 2 `"a": "x",`, 3 `"b": [`, 4 `1,`, 5 `2`: line 5.
	r = &recorder{name: "TestGoldenJSON/differs"}
	r.golden(path, `{"a":"x","b":[1,3]}`)
	if len(r.errors) != 1 {
		t.Fatalf("a difference gave %d errors, want 1: %q", len(r.errors), r.errors)
	}
	for _, want := range []string{"line 5 (keys sorted): golden `2`, got `3`", update} {
		if !strings.Contains(r.errors[0], want) {
			t.Errorf("the report lacks %q:\n%s", want, r.errors[0])
		}
	}

	// A missing file says how to create it.
	r = &recorder{name: "TestGoldenJSON"}
	r.golden(filepath.Join(t.TempDir(), "none.golden.json"), `{}`)
	if !strings.Contains(r.fatal, "does not exist") || !strings.Contains(r.fatal, update) {
		t.Errorf("missing file reported %q, want it to say so and give %q", r.fatal, update)
	}

	// Output that is not JSON is refused before any comparison.
	r = &recorder{name: "TestGoldenJSON"}
	r.golden(path, `{"a":`)
	if !strings.Contains(r.fatal, "not JSON") {
		t.Errorf("broken output reported %q, want \"not JSON\"", r.fatal)
	}
}

// Wait moves the clock on by what it was asked to wait and records it:
// 09:00 + 2 s + 3 s = 09:00:05.
func TestClockWaitMovesTimeAndRecords(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	c := NewClock(t0)
	for _, d := range []time.Duration{2 * time.Second, 3 * time.Second} {
		if err := c.Wait(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := c.Now(), time.Date(2026, 12, 1, 9, 0, 5, 0, time.UTC); !got.Equal(want) {
		t.Errorf("Now = %v, want %v", got, want)
	}
	if got := c.Waits(); len(got) != 2 || got[0] != 2*time.Second || got[1] != 3*time.Second {
		t.Errorf("Waits = %v, want [2s 3s]", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Wait(ctx, time.Second); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait on a cancelled context = %v, want context.Canceled", err)
	}
}
