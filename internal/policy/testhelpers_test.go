package policy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The tests have one of each helper, in bot/bottest (#27): one golden
// comparison with one -update flag (bottest.GoldenJSON, bottest.Update),
// one test clock (bottest.Clock) and one reader of REDIS_URL
// (bottest.RealRedis, bottest.RealRedisURL). TestOneOfEachTestHelper fails
// on a test file outside bot/bottest that declares its own.

// strayTestHelpers lists what f, a test file, declares that bot/bottest
// already provides, as "file:line: what; use bottest.X".
func strayTestHelpers(fset *token.FileSet, f *ast.File) []string {
	var out []string
	at := func(n ast.Node, msg string) {
		out = append(out, fset.Position(n.Pos()).String()+": "+msg)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			pkg, name := selector(n.Fun)
			switch {
			case pkg == "flag" && flagArg(name, n) == "update":
				at(n, `a flag named "update": read bottest.Update(), the module's one -update flag (a second one panics in a test binary that links bottest)`)
			case pkg == "os" && (name == "Getenv" || name == "LookupEnv") && len(n.Args) == 1 && stringLit(n.Args[0]) == "REDIS_URL":
				at(n, "reads REDIS_URL itself: use bottest.RealRedis (a client and a key prefix it cleans up) or bottest.RealRedisURL")
			}
		case *ast.TypeSpec:
			if strings.Contains(strings.ToLower(n.Name.Name), "clock") {
				at(n, "a clock type "+n.Name.Name+": use bottest.Clock (Now, Set, Add, Wait)")
			}
		case *ast.FuncDecl:
			if n.Recv != nil && strings.EqualFold(n.Name.Name, "now") && returnsTime(n.Type) {
				at(n, "a Now() time.Time method: a test clock; use bottest.Clock")
			}
		}
		return true
	})
	return out
}

// selector splits pkg.Name; "" for anything else.
func selector(e ast.Expr) (pkg, name string) {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	id, ok := s.X.(*ast.Ident)
	if !ok {
		return "", ""
	}
	return id.Name, s.Sel.Name
}

// flagArg is the name a flag.X call defines: the first argument of
// flag.Bool/String/…, the second of flag.BoolVar/StringVar/….
func flagArg(fn string, c *ast.CallExpr) string {
	i := 0
	if strings.HasSuffix(fn, "Var") {
		i = 1
	}
	if i >= len(c.Args) {
		return ""
	}
	return stringLit(c.Args[i])
}

// stringLit is the value of a string literal, "" for anything else.
func stringLit(e ast.Expr) string {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return ""
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil {
		return ""
	}
	return s
}

// returnsTime reports whether ft returns exactly one time.Time.
func returnsTime(ft *ast.FuncType) bool {
	if ft.Results == nil || len(ft.Results.List) != 1 || len(ft.Results.List[0].Names) > 1 {
		return false
	}
	pkg, name := selector(ft.Results.List[0].Type)
	return pkg == "time" && name == "Time"
}

func TestOneOfEachTestHelper(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor" || rel == "bot/bottest") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, s := range strayTestHelpers(fset, f) {
			t.Errorf("%s", strings.TrimPrefix(filepath.ToSlash(s), "../../"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("read %d test files; run from internal/policy in the module", files)
	}
}

// The check finds each kind of stray helper it is meant to refuse, and
// passes bottest's own use.
func TestStrayTestHelpersAreFound(t *testing.T) {
	const src = `package x

var update = flag.Bool("update", false, "rewrite")
var other = flag.Bool("corpus.cv", false, "fine")
var again bool

func init() { flag.BoolVar(&again, "update", false, "rewrite") }

type fakeClock struct{ t time.Time }

type stamp struct{}

func (stamp) now() time.Time { return time.Time{} }

func url(t *testing.T) string { return os.Getenv("REDIS_URL") }

func fine(t *testing.T) {
	t.Setenv("REDIS_URL", "redis://x")
	_ = os.Getenv("HOME")
	c := bottest.NewClock(time.Now())
	bottest.GoldenJSON(t, "testdata/x.golden.json", nil)
	rdb, prefix := bottest.RealRedis(t)
	_, _, _ = c, rdb, prefix
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	got := strayTestHelpers(fset, f)
	// Lines by hand: flag.Bool "update" (3), flag.BoolVar "update" (7),
	// type fakeClock (9), stamp.now (13), os.Getenv("REDIS_URL") (15).
	want := []string{"x_test.go:3:", "x_test.go:7:", "x_test.go:9:", "x_test.go:13:", "x_test.go:15:"}
	if len(got) != len(want) {
		t.Fatalf("found %d stray helpers, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("finding %d = %q, want one at %s", i, got[i], w)
		}
	}
}
