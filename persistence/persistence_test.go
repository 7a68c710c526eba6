package persistence

import (
	"strings"
	"testing"
)

func openTemp(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

func TestPrefixesDisjoint(t *testing.T) {
	for i, a := range Prefixes {
		if !strings.HasSuffix(a.Prefix, "/") {
			t.Errorf("prefix %q does not end in '/'", a.Prefix)
		}
		for j, b := range Prefixes {
			if i != j && strings.HasPrefix(b.Prefix, a.Prefix) {
				t.Errorf("prefix %q overlaps %q", a.Prefix, b.Prefix)
			}
		}
	}
}

func TestPrefixUpperBound(t *testing.T) {
	if got := string(PrefixUpperBound([]byte("a/"))); got != "a0" {
		t.Fatalf("got %q", got)
	}
	if got := PrefixUpperBound([]byte{0xff, 0xff}); got != nil {
		t.Fatalf("got %v", got)
	}
}
