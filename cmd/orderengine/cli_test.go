package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/internal/buildinfo"
	"github.com/orderengine/orderengine/internal/syncbuf"
	"github.com/orderengine/orderengine/internal/testport"
)

// commandNames are every command `orderengine help` must list.
var commandNames = []string{"admin", "devnet", "help", "keeper", "serve", "version"}

// TestCommandLineOfTheBinary runs the real binary: with no arguments it
// lists the commands on stderr and exits 2 without serving; help, -h and
// --help list them on stdout and exit 0; an unknown command or a flag
// before the command exits 2; version prints the build.
func TestCommandLineOfTheBinary(t *testing.T) {
	bin := binary(t)
	runBin := func(args ...string) (stdout, stderr string, code int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = withoutEngineEnv(os.Environ())
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee):
			code = ee.ExitCode()
		default:
			t.Fatalf("%v: %v", args, err)
		}
		return out.String(), errb.String(), code
	}
	lists := func(s string) bool {
		for _, n := range commandNames {
			if !strings.Contains(s, "\n  "+n+" ") {
				return false
			}
		}
		return strings.HasPrefix(s, "usage: orderengine <command>")
	}
	if out, errs, code := runBin(); code != 2 || !lists(errs) || out != "" {
		t.Fatalf("no arguments: exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}
	for _, h := range []string{"help", "-h", "--help"} {
		if out, errs, code := runBin(h); code != 0 || !lists(out) {
			t.Fatalf("%s: exit %d, stderr %q, stdout:\n%s", h, code, errs, out)
		}
	}
	if _, errs, code := runBin("frobnicate"); code != 2 || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Fatalf("unknown command: exit %d, stderr:\n%s", code, errs)
	}
	if _, errs, code := runBin("--data-dir", t.TempDir()); code != 2 || !strings.Contains(errs, "the command comes first") {
		t.Fatalf("a flag first: exit %d, stderr:\n%s", code, errs)
	}
	out, errs, code := runBin("version")
	if code != 0 || !strings.HasPrefix(out, "orderengine ") || !strings.Contains(out, "\ncommit ") ||
		!strings.Contains(out, "\ngo go1.") || strings.Contains(out, "\ncommit \n") {
		t.Fatalf("version: exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
}

// TestVersionFromTheLinker: the Makefile's -X values are what version
// prints (a build without them prints the go command's stamp, as above).
func TestVersionFromTheLinker(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "orderengine")
	pkg := "github.com/orderengine/orderengine/internal/buildinfo"
	build := exec.Command("go", "build", "-ldflags", "-X "+pkg+".version=v9.8.7-test -X "+pkg+".commit=0123456789abcdef", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "orderengine v9.8.7-test\ncommit 0123456789abcdef\ngo go1.") {
		t.Fatalf("version:\n%s", out)
	}
}

// TestConfigServesTheBuild: GET /v1/config carries the running build, as
// orderengine version prints it.
func TestConfigServesTheBuild(t *testing.T) {
	r := startServe(t, t.TempDir())
	defer r.stop(t)
	resp, err := http.Get("http://" + r.pub + "/v1/config")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var cfg struct{ Build buildinfo.Info }
	if err := json.NewDecoder(resp.Body).Decode(&cfg); err != nil {
		t.Fatal(err)
	}
	if b := buildinfo.Get(); cfg.Build != b || b.GoVersion == "" {
		t.Fatalf("/v1/config build %+v, want %+v", cfg.Build, b)
	}
}

// TestAdminNamesARefusedToken: an admin command that reaches a server with
// another token says so, naming the server and what to do, instead of
// printing the 401 body.
func TestAdminNamesARefusedToken(t *testing.T) {
	dir := t.TempDir()
	r := startServe(t, dir)
	defer r.stop(t)
	var out bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	// The token file of another data folder (another server, or this
	// folder before the last restart).
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "admin.token"), []byte("not-this-servers-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--data-dir", other}, {"--token", "not-this-servers-token"}} {
		err := run(context.Background(), env, append([]string{"admin", "list-accounts", "--admin-url", "http://" + r.adm}, args...))
		want := "the admin token was refused by http://" + r.adm + ": pass --token or run from the data folder of that server"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%v: %v, want %q", args, err, want)
		}
	}
	if err := run(context.Background(), env, []string{"admin", "list-accounts", "--admin-url", "http://" + r.adm, "--data-dir", dir}); err != nil {
		t.Fatalf("with the server's own token: %v", err)
	}
}

// TestFailedFirstStartKeepsTheDevKey: a first start that fails (the public
// port is taken) creates no development key; the next start on the same
// data folder prints one, and it works.
func TestFailedFirstStartKeepsTheDevKey(t *testing.T) {
	dir := t.TempDir()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stdout := &syncbuf.Buffer{}
	env := &cliEnv{stdout: stdout, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	err = run(context.Background(), env, []string{"serve", "--data-dir", dir, "--http-listen", busy.Addr().String(),
		"--http-admin-listen", testport.Addr(t), "--chain-dev-rpc-listen", "127.0.0.1:0"})
	if err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("serve on a busy port: %v", err)
	}
	if strings.Contains(stdout.String(), "DEVELOPMENT API KEY") || strings.Contains(stdout.String(), "export KEY=") {
		t.Fatalf("a failed start printed the dev key:\n%s", stdout.String())
	}
	if err := busy.Close(); err != nil {
		t.Fatal(err)
	}
	r := startServe(t, dir)
	defer r.stop(t)
	m := r.devKeyMatch(t)
	if m == nil {
		t.Fatalf("no dev key on the first start that serves:\n%s", r.stdout.String())
	}
	if code := get(t, "http://"+r.pub+"/v1/stats", m[1]); code != http.StatusOK {
		t.Fatalf("the dev key: %d", code)
	}
	var accts struct{ Accounts []json.RawMessage }
	r2 := adminJSON(t, r.adm, dir, &accts)
	if r2 != nil || len(accts.Accounts) != 1 {
		t.Fatalf("accounts after the failed and the good start: %d (%v)", len(accts.Accounts), r2)
	}
}

// adminJSON runs `admin list-accounts` against the server at adm with the
// token of dir and decodes its output into v.
func adminJSON(t *testing.T, adm, dir string, v any) error {
	t.Helper()
	var out bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	if err := run(context.Background(), env, []string{"admin", "list-accounts", "--admin-url", "http://" + adm, "--data-dir", dir}); err != nil {
		return err
	}
	return json.Unmarshal(out.Bytes(), v)
}

// devKeyMatch waits for the development key serve prints once its
// listeners are up (shortly after /healthz first answers) and returns
// keyRe's match; nil when none came within ten seconds.
func (r *running) devKeyMatch(t *testing.T) []string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if m := keyRe.FindStringSubmatch(r.stdout.String()); m != nil || time.Now().After(deadline) {
			return m
		}
	}
}
