package layers

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every package of the module says what it is in a package doc comment
// (go doc shows it first; docs/architecture.md lists them).
func TestEveryPackageHasADocComment(t *testing.T) {
	pkgs := goList[struct{ ImportPath, Doc string }](t, "ImportPath,Doc")
	for _, p := range pkgs {
		if strings.TrimSpace(p.Doc) == "" {
			t.Errorf("package %s has no doc comment", p.ImportPath)
		}
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; expected the whole module", len(pkgs))
	}
}

// narration matches the phrases that tell how the code came to be rather
// than what it is: numbered work items, plans for later, diaries.
var narration = regexp.MustCompile(`(?i)\bissue #\d|\blater issue\b|\b(first|second|third|fourth|fifth|sixth|seventh) session\b|\bschema \d also wrote\b`)

// Code comments and docs speak of the project as it is; its history is
// the git log. The check reads every Go file and Markdown document of the
// module (vendored npm folders and the build cache aside).
func TestNoHistoryNarration(t *testing.T) {
	root := moduleRoot(t)
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".cache", ".git", "data", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".md") {
			return nil
		}
		if path == filepath.Join(root, "internal", "layers", "docs_test.go") {
			return nil // the pattern itself
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		checked++
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for line := 1; sc.Scan(); line++ {
			if m := narration.FindString(sc.Text()); m != "" {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: %q narrates history; say what is, or leave it to the git log", rel, line, m)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d files; expected the whole module", checked)
	}
}

// moduleRoot is the folder of the module's go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(gomod)))
}
