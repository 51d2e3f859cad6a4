package policy

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const module = "github.com/gpubot/gpubot/"

// pkg is what the rules read of one package from `go list -json`.
type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string // not tests: tests may import anything below cmd
	Imports    []string
}

// rel is the package's path inside the module: "bot/schedule".
func (p pkg) rel() string { return strings.TrimPrefix(p.ImportPath, module) }

var (
	listOnce sync.Once
	listed   []pkg
	listErr  error
)

// packages lists every package of the module (go list ./... from its root;
// module-local, no network: the module cache or vendor tree is enough).
func packages(t *testing.T) []pkg {
	t.Helper()
	listOnce.Do(func() {
		cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Dir,GoFiles,Imports", "./...")
		cmd.Dir = filepath.Join("..", "..")
		out, err := cmd.Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				err = errors.New(err.Error() + ": " + string(ee.Stderr))
			}
			listErr = err
			return
		}
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for {
			var p pkg
			if err := dec.Decode(&p); err == io.EOF {
				break
			} else if err != nil {
				listErr = err
				return
			}
			listed = append(listed, p)
		}
	})
	if listErr != nil {
		t.Fatalf("go list: %v", listErr)
	}
	if len(listed) < 10 {
		t.Fatalf("go list found %d packages; run from the module", len(listed))
	}
	return listed
}
