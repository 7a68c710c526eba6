package contracts

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestArtifactsFresh recompiles the sources with the pinned solc and
// regenerates the bindings into a temporary directory, then requires the
// committed build/ and bindings/ trees to be byte-identical to the result.
func TestArtifactsFresh(t *testing.T) {
	if _, err := os.Stat("node_modules/solc"); err != nil {
		t.Fatalf("solc npm package missing: run `npm ci --prefix contracts` (make deps): %v", err)
	}
	tmp := t.TempDir()
	build := filepath.Join(tmp, "build")
	bindings := filepath.Join(tmp, "bindings")
	cmd := exec.Command("sh", "scripts/generate.sh", build, bindings)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generate.sh: %v\n%s", err, out)
	}
	compareTrees(t, "build", build)
	compareTrees(t, "bindings", bindings)
}

func compareTrees(t *testing.T, committed, fresh string) {
	t.Helper()
	want := readTree(t, fresh)
	got := readTree(t, committed)
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s/%s is missing: run `make contracts`", committed, name)
		case !bytes.Equal(g, w):
			t.Errorf("%s/%s is stale: run `make contracts`", committed, name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s/%s is not generated any more: run `make contracts`", committed, name)
		}
	}
}

func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatalf("read %s: %v", root, err)
	}
	if len(files) == 0 {
		t.Fatalf("%s is empty", root)
	}
	return files
}
