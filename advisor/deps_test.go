package advisor

import (
	"os/exec"
	"strings"
	"testing"
)

// TestAdvisorImportsNoIO keeps the engine pure, like go/build/deps_test.go:
// advisor may import the standard library and knowledge (with the decoder
// knowledge uses for its embedded files), nothing else.
func TestAdvisorImportsNoIO(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{
		"github.com/gpubot/gpubot/advisor":   true,
		"github.com/gpubot/gpubot/knowledge": true,
		"go.yaml.in/yaml/v3":                 true,
	}
	for _, p := range strings.Fields(string(out)) {
		if !allowed[p] {
			t.Errorf("advisor depends on %s; it may use only the standard library and knowledge", p)
		}
	}
	std, err := exec.Command("go", "list", "-deps", "-f", "{{if .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(std)) {
		switch {
		case p == "net" || strings.HasPrefix(p, "net/") || p == "os/exec" || strings.HasPrefix(p, "database/"):
			t.Errorf("advisor depends on I/O package %s", p)
		}
	}
}
