package clusterrun

import (
	"os"
	"path/filepath"
	"testing"
)

// Lines keeps the last n lines that contain the string, in order; Tail
// the last n lines.
func TestProcLogLines(t *testing.T) {
	log := filepath.Join(t.TempDir(), "node.log")
	data := "a members: joined\nb other\nc members: shard taken\nd members: renewing failed\ne other"
	if err := os.WriteFile(log, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	p := &Proc{Log: log}
	if got, want := p.Lines("members: ", 2), "c members: shard taken\nd members: renewing failed\n"; got != want {
		t.Fatalf("Lines: %q, want %q", got, want)
	}
	if got := p.Lines("members: ", 10); got != "a members: joined\nc members: shard taken\nd members: renewing failed\n" {
		t.Fatalf("Lines with room for all: %q", got)
	}
	if got := p.Tail(2); got != "d members: renewing failed\ne other" {
		t.Fatalf("Tail: %q", got)
	}
}
