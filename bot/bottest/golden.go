package bottest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update is the module's one -update flag: it rewrites the checked-in
// files that tests compare against (golden files through GoldenJSON, the
// router's embedded weights in bot/parse) from what the code produces now.
// Read it with Update; a test file declaring its own "update" flag would
// panic in any test binary that links this package (internal/policy
// refuses one).
var update = flag.Bool("update", false, "rewrite the golden files (and bot/parse's router weights) from the code's output")

// Update reports whether the test binary runs with -update.
func Update() bool { return *update }

// GoldenJSON compares got, a JSON document, with the golden file at path
// (relative to the test's package: "testdata/x.golden.json") as decoded
// JSON, so key order and spacing do not matter. On a difference it reports
// the first differing line of the two documents (keys sorted) and the
// differing values, and the command that rewrites the file. With -update it
// first writes got there, indented two spaces, in got's own key order.
func GoldenJSON(t testing.TB, path string, got []byte) {
	t.Helper()
	var have any
	if err := json.Unmarshal(got, &have); err != nil {
		t.Fatalf("golden %s: the output is not JSON: %v\n%s", path, err, got)
	}
	if *update {
		var b bytes.Buffer
		if err := json.Indent(&b, got, "", "  "); err != nil {
			t.Fatal(err)
		}
		b.WriteByte('\n')
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("golden %s does not exist; create it with\n\t%s", path, updateCommand(t))
	} else if err != nil {
		t.Fatal(err)
	}
	var want any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("golden %s is not JSON: %v", path, err)
	}
	diff := cmp.Diff(want, have)
	if diff == "" {
		return
	}
	t.Errorf("%s differs from the output at %s\n(-golden +got):\n%s\nIf the change is intended, rewrite the file and read its diff:\n\t%s",
		path, firstDifference(want, have), diff, updateCommand(t))
}

// firstDifference is the first line where want and have, written as
// indented JSON with sorted keys, differ: "line N: golden `…`, got `…`".
func firstDifference(want, have any) string {
	w, _ := json.MarshalIndent(want, "", "  ")
	h, _ := json.MarshalIndent(have, "", "  ")
	wl, hl := strings.Split(string(w), "\n"), strings.Split(string(h), "\n")
	for i := 0; ; i++ {
		var a, b string
		if i < len(wl) {
			a = strings.TrimSpace(wl[i])
		}
		if i < len(hl) {
			b = strings.TrimSpace(hl[i])
		}
		if i >= len(wl) && i >= len(hl) {
			return "no line (the values differ only in type)"
		}
		if i >= len(wl) || i >= len(hl) || a != b {
			return fmt.Sprintf("line %d (keys sorted): golden `%s`, got `%s`", i+1, a, b)
		}
	}
}

// updateCommand is the go test command that reruns t's top-level test with
// -update from the module root: "go test ./bot/recap -run '^TestX$' -update".
func updateCommand(t testing.TB) string {
	pkg := "."
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				if rel, err := filepath.Rel(dir, wd); err == nil && rel != "." {
					pkg = "./" + filepath.ToSlash(rel)
				}
				break
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	name, _, _ := strings.Cut(t.Name(), "/")
	return fmt.Sprintf("go test %s -run '^%s$' -update", pkg, name)
}
