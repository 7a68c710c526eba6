package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Flags the reference keeper cannot run with are refused before it starts:
// a zero or negative --poll (time.NewTicker panics on it) or --rpc-timeout
// (no deadline at all).
func TestKeeperRefusesNonPositiveDurations(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(keyFile, []byte("0x"+strings.Repeat("11", 32)), 0o600); err != nil {
		t.Fatal(err)
	}
	env := &cliEnv{stdout: io.Discard, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	for _, bad := range [][]string{{"--poll", "0"}, {"--poll", "-1s"}, {"--rpc-timeout", "0"}} {
		args := append([]string{"keeper", "--rpc-url", "http://127.0.0.1:1", "--key-file", keyFile, "--api-key", "svc_x"}, bad...)
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // were it accepted, the keeper would stop at once
		err := run(ctx, env, args)
		if err == nil || !strings.Contains(err.Error(), "positive") {
			t.Errorf("%v: %v, want a refusal", bad, err)
		}
	}
}
