package policy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// addIntentFiles is how many files the add-an-intent checklist in
// ARCHITECTURE.md names: the intent's own package, its lexicon words, one
// line of cmd/bot/wire.go, and the new package's rule and layer here. Issue
// #27 measured 13 for the budget intent before the table.
const addIntentFiles = 4

// reChecklistItem is a numbered item of the checklist, naming its file.
var reChecklistItem = regexp.MustCompile("(?m)^\\d+\\. `([^`]+)`")

// grandfathered are the other packages and cmd/bot files that import an
// intent package for something besides its row, each with the reason; a
// new intent is imported by cmd/bot/wire.go alone.
var grandfathered = map[string][]string{
	// the budget alert's Acknowledge button (a click, not a command)
	"bot/budget": {"bot/transport"},
	// profile is also the team's settings store, which budgets and the
	// recap read
	"bot/profile": {"bot/budget", "bot/recap", "cmd/bot/config.go"},
	// the watch evaluator (a scheduled task) and its metrics
	"bot/watch": {"cmd/bot/catalog.go", "cmd/bot/home.go", "cmd/bot/serve.go"},
}

// TestAddingAnIntentIsItsChecklist holds the add-an-intent checklist to
// its file count, and the code to the checklist: every package that exports
// an intent Row is imported, outside tests, by cmd/bot/wire.go alone (its
// one table line), so adding one touches no other package.
func TestAddingAnIntentIsItsChecklist(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "## Adding an intent")
	if !ok {
		t.Fatal("ARCHITECTURE.md has no \"## Adding an intent\" section")
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	var files []string
	for _, m := range reChecklistItem.FindAllStringSubmatch(section, -1) {
		files = append(files, m[1])
	}
	if len(files) != addIntentFiles {
		t.Errorf("the checklist names %d files %q, want %d: an intent grew a file to touch (move the fact into its row) or the count here is stale", len(files), files, addIntentFiles)
	}
	for _, f := range files {
		if strings.Contains(f, "<") {
			continue // the intent's own package
		}
		if _, err := os.Stat(filepath.Join("..", "..", f)); err != nil {
			t.Errorf("the checklist names %s, which does not exist", f)
		}
	}

	pkgs := packages(t)
	var intentPkgs []string
	for _, p := range pkgs {
		if p.rel() != "bot" && exportsRow(t, p) {
			intentPkgs = append(intentPkgs, p.rel())
		}
	}
	if !slices.Contains(intentPkgs, "bot/sources") {
		t.Errorf("intent packages %v: bot/sources (the checklist's worked example) exports no Row", intentPkgs)
	}
	for _, ip := range intentPkgs {
		var users []string
		for _, p := range pkgs {
			if !slices.Contains(p.Imports, module+ip) {
				continue
			}
			if p.rel() != "cmd/bot" {
				users = append(users, p.rel())
				continue
			}
			for _, f := range importingFiles(t, p, module+ip) {
				if f != "wire.go" {
					users = append(users, "cmd/bot/"+f)
				}
			}
		}
		sort.Strings(users)
		want := grandfathered[ip]
		if ip == "bot/transport" {
			continue // the transport exports ListenRow; cmd/bot serves it
		}
		if !slices.Equal(users, want) {
			t.Errorf("%s (an intent package) is imported by %v besides cmd/bot/wire.go, want %v: wire it through its row in cmd/bot/wire.go", ip, users, want)
		}
	}
}

// exportsRow reports whether p declares a function returning intent.Row
// (Row, ListenRow).
func exportsRow(t *testing.T, p pkg) bool {
	t.Helper()
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || fn.Type.Results == nil || len(fn.Type.Results.List) != 1 {
				continue
			}
			if sel, ok := fn.Type.Results.List[0].Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Row" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "intent" {
					return true
				}
			}
		}
	}
	return false
}

// importingFiles are p's non-test files that import path.
func importingFiles(t *testing.T, p pkg, path string) []string {
	t.Helper()
	var out []string
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if strings.Trim(imp.Path.Value, `"`) == path {
				out = append(out, name)
			}
		}
	}
	return out
}
