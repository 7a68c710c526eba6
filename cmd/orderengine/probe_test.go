package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/internal/syncbuf"
)

// probe succeeds on a 2xx answer and fails on any other, on no answer, and
// on a missing --file; by default it probes /readyz on the loopback
// address of ORDERENGINE_HTTP_LISTEN (an unspecified host, as in a
// container, is probed on 127.0.0.1).
func TestProbe(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	probe := func(listen string, args ...string) error {
		env := &cliEnv{stdout: &syncbuf.Buffer{}, stderr: &syncbuf.Buffer{}, reg: registry(),
			lookupEnv: func(k string) (string, bool) { return listen, k == "ORDERENGINE_HTTP_LISTEN" }}
		return run(context.Background(), env, append([]string{"probe"}, args...))
	}
	if err := probe("0.0.0.0:" + port); err != nil {
		t.Fatalf("ready node: %v", err)
	}
	status = http.StatusServiceUnavailable
	if err := probe("0.0.0.0:" + port); err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("unready node: %v", err)
	}
	status = http.StatusOK
	if err := probe("", "--url", srv.URL+"/nope"); err == nil {
		t.Fatal("404 accepted")
	}
	file := filepath.Join(t.TempDir(), "chain.json")
	if err := probe("", "--url", srv.URL+"/readyz", "--file", file); err == nil {
		t.Fatal("missing --file accepted")
	}
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := probe("", "--url", srv.URL+"/readyz", "--file", file); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{{"--url", "ftp://x/readyz"}, {"--url", "/readyz"}, {"--timeout", "0s"}, {"extra"}} {
		if err := probe("", bad...); err == nil {
			t.Fatalf("probe %v accepted", bad)
		}
	}
	srv.Close()
	if err := probe("127.0.0.1:" + port); err == nil {
		t.Fatal("no server, yet healthy")
	}
}

func TestLoopbackOf(t *testing.T) {
	for in, want := range map[string]string{"0.0.0.0:8080": "127.0.0.1:8080", ":8080": "127.0.0.1:8080", "[::]:8080": "[::1]:8080",
		"10.1.2.3:8080": "10.1.2.3:8080", "127.0.0.1:9": "127.0.0.1:9"} {
		if got := loopbackOf(in); got != want {
			t.Errorf("loopbackOf(%q) = %q, want %q", in, got, want)
		}
	}
}
