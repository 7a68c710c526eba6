package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// rule forbids the packages matching from (minus fromExcept) to import the
// packages matching to (minus toExcept). Patterns are paths relative to the
// module: "http" is that package only, "app/..." is app and every package
// below it, "..." is every package of the module ("." is the root package).
// Only imports of the module's own packages are checked.
type rule struct {
	name       string
	from, to   []string
	fromExcept []string
	toExcept   []string
	// tests also checks the imports of the packages' test files (by
	// default a test may import anything its package's layer cannot: the
	// tests of a service start the real server through app/apptest).
	tests bool
	// known lists importers that break the rule today and are being fixed:
	// they are excused, and the test fails once one no longer imports
	// what the rule forbids, so that its entry is removed.
	known []string
}

// rules are the import rules of the tree. Add one per constraint, with a
// name that reads as the rule.
var rules = []rule{
	{
		name:       "only http's subpackages, app, cmd and bench import http",
		from:       []string{"..."},
		fromExcept: []string{"http/...", "app/...", "cmd/...", "bench/..."},
		to:         []string{"http/..."},
	},
	{
		name:       "only cmd, bench and the test server import the composition root (app)",
		from:       []string{"..."},
		fromExcept: []string{"cmd/...", "bench/...", "app/..."},
		to:         []string{"app"},
	},
	{
		name: "actors do not import the services built on them",
		from: []string{"actors/..."},
		to:   []string{"orders/...", "market/...", "keeper/..."},
	},
	{
		name: "actors of one kind do not import the services, the chain lifecycle or the HTTP layer",
		from: []string{"actors/..."},
		to:   []string{"chainsync/...", "routing/..."},
	},
	{
		name:     "persistence is below every actor and service",
		from:     []string{"persistence/..."},
		to:       []string{"actors/...", "orders/...", "market/...", "keeper/...", "chainsync/...", "routing/...", "api/..."},
		toExcept: []string{},
	},
	{
		name: "the chain packages know nothing of the engine above them",
		from: []string{"chain/...", "contracts/..."},
		to:   []string{"persistence/...", "actors/...", "orders/...", "market/...", "keeper/...", "chainsync/...", "routing/...", "api/..."},
	},
	{
		name: "the actors and the store know nothing of the cluster's machinery: they define its seams (kind.Placement, the journal)",
		from: []string{"actors/...", "persistence/..."},
		to:   []string{"cluster/..."},
	},
	{
		name: "the store core imports none of the domain stores built on it",
		from: []string{"persistence"},
		to:   []string{"persistence/accountstore", "persistence/webhookstore", "persistence/chainstore", "persistence/orderstore"},
	},
	{
		name: "the domain stores do not import one another",
		from: []string{"persistence/accountstore", "persistence/webhookstore", "persistence/chainstore", "persistence/orderstore"},
		to:   []string{"persistence/accountstore", "persistence/webhookstore", "persistence/chainstore", "persistence/orderstore"},
	},
	{
		name: "only tests import the store's test helpers",
		from: []string{"..."},
		to:   []string{"persistence/persistencetest"},
	},
	{
		name:     "api is a vocabulary: it imports nothing of the engine but config and the JSON writer",
		from:     []string{"api/..."},
		to:       []string{"..."},
		toExcept: []string{"config", "api/...", "internal/jsonw"},
		tests:    true,
	},
}

// pkg is one package of the module as go list describes it.
type pkg struct {
	ImportPath                         string
	Imports, TestImports, XTestImports []string
}

func TestImportsPointDownwards(t *testing.T) {
	module, pkgs := listModule(t)
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages of %s; expected the whole module", len(pkgs), module)
	}
	for _, v := range check(module, pkgs, rules) {
		t.Error(v)
	}
}

// The checker itself, on a made-up module: each kind of breach is found,
// allowed imports are not reported, and a known exception that is no longer
// needed is reported as such.
func TestCheckFindsBreaches(t *testing.T) {
	const m = "example.com/m"
	pkgs := []pkg{
		{ImportPath: m + "/http", Imports: []string{m + "/orders", "net/http"}},
		{ImportPath: m + "/http/sub", Imports: []string{m + "/http"}},
		{ImportPath: m + "/orders", Imports: []string{m + "/http", m + "/config"}},
		{ImportPath: m + "/market", XTestImports: []string{m + "/http"}},
		{ImportPath: m + "/keeper", Imports: []string{m + "/app"}},
		{ImportPath: m + "/cmd/tool", Imports: []string{m + "/app", m + "/http"}},
		{ImportPath: m + "/api", Imports: []string{m + "/config", m + "/persistence", "time"}},
		{ImportPath: m, Imports: []string{m + "/http/sub"}},
	}
	rs := []rule{
		{name: "http", from: []string{"..."}, fromExcept: []string{"http/...", "cmd/..."}, to: []string{"http/..."}},
		{name: "app", from: []string{"..."}, fromExcept: []string{"cmd/..."}, to: []string{"app"}, known: []string{"keeper", "market"}},
		{name: "api", from: []string{"api"}, to: []string{"..."}, toExcept: []string{"config"}, tests: true},
	}
	got := check(m, pkgs, rs)
	want := []string{
		`http: orders imports http`,
		`http: . imports http/sub`,
		`app: market is listed as a known exception but no longer imports app: remove it from known`,
		`api: api imports persistence`,
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
			t.Errorf("missing %q in\n%s", w, strings.Join(got, "\n"))
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d findings, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
}

// check returns one line per breach of rs in pkgs, and one per known
// exception that is no longer needed.
func check(module string, pkgs []pkg, rs []rule) []string {
	rel := func(path string) (string, bool) {
		if path == module {
			return ".", true
		}
		r, ok := strings.CutPrefix(path, module+"/")
		return r, ok
	}
	var out []string
	for _, r := range rs {
		used := map[string]bool{}
		for _, p := range pkgs {
			from, ok := rel(p.ImportPath)
			if !ok || !matchAny(r.from, from) || matchAny(r.fromExcept, from) {
				continue
			}
			imports := p.Imports
			if r.tests {
				imports = slices.Concat(p.Imports, p.TestImports, p.XTestImports)
			}
			for _, imp := range imports {
				to, ok := rel(imp)
				if !ok || to == from || !matchAny(r.to, to) || matchAny(r.toExcept, to) {
					continue
				}
				if slices.Contains(r.known, from) {
					used[from] = true
					continue
				}
				out = append(out, fmt.Sprintf("%s: %s imports %s", r.name, from, to))
			}
		}
		for _, k := range r.known {
			if !used[k] {
				out = append(out, fmt.Sprintf("%s: %s is listed as a known exception but no longer imports %s: remove it from known",
					r.name, k, strings.Join(r.to, ", ")))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func matchAny(patterns []string, path string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return match(p, path) })
}

// match reports whether a module-relative path matches a pattern: "..."
// matches every path, "x/..." matches x and the paths below it, anything
// else only itself.
func match(pattern, path string) bool {
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == pattern
}

// listModule runs go list over the module this test belongs to.
func listModule(t *testing.T) (string, []pkg) {
	t.Helper()
	modPath, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return strings.TrimSpace(string(modPath)), goList[pkg](t, "ImportPath,Imports,TestImports,XTestImports")
}

// goList returns go list's JSON of every package of the module, the given
// fields only, decoded into T.
func goList[T any](t *testing.T, fields string) []T {
	t.Helper()
	cmd := exec.Command("go", "list", "-json="+fields, "./...")
	cmd.Dir = moduleRoot(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var list []T
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p T
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decode go list: %v", err)
		}
		list = append(list, p)
	}
	return list
}
