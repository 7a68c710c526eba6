package http_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/app/apptest"
)

// lintDir holds the pinned linters (package.json, package-lock.json) and
// their configuration; `make deps` installs them.
const lintDir = "../tools/openapi-lint"

// TestOpenAPILint runs Redocly CLI (recommended ruleset) and Spectral
// (spectral:oas) from the project's pinned npm packages on the document the
// server serves, and requires 0 errors and 0 warnings from both.
func TestOpenAPILint(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: install Node.js, then run make deps")
	}
	redocly := filepath.Join(lintDir, "node_modules", "@redocly", "cli", "bin", "cli.js")
	spectral := filepath.Join(lintDir, "node_modules", "@stoplight", "spectral-cli", "dist", "index.js")
	for _, f := range []string{redocly, spectral} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s is missing: run make deps (npm ci --prefix tools/openapi-lint)", f)
		}
	}

	ts := apptest.NewTestServer(t)
	doc := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(doc, ts.Do("GET", "/v1/openapi.json", nil, nil).Body, 0o600); err != nil {
		t.Fatal(err)
	}

	// Redocly: --format=json prints {"totals": {...}, "problems": [...]}.
	out := runLinter(t, node, redocly, "lint", "--config", filepath.Join(lintDir, "redocly.yaml"), "--format=json", doc)
	var r struct {
		Totals struct {
			Errors   int `json:"errors"`
			Warnings int `json:"warnings"`
		} `json:"totals"`
		Problems []struct {
			RuleID   string `json:"ruleId"`
			Severity string `json:"severity"`
			Message  string `json:"message"`
			Location []struct {
				Pointer string `json:"pointer"`
			} `json:"location"`
		} `json:"problems"`
	}
	if err := json.Unmarshal(jsonPart(out, '{'), &r); err != nil {
		t.Fatalf("redocly output is not its JSON report: %v\n%s", err, out)
	}
	for _, p := range r.Problems {
		where := ""
		if len(p.Location) > 0 {
			where = p.Location[0].Pointer
		}
		t.Errorf("redocly %s %s at %s: %s", p.Severity, p.RuleID, where, p.Message)
	}
	t.Logf("redocly: %d errors, %d warnings", r.Totals.Errors, r.Totals.Warnings)
	if r.Totals.Errors != 0 || r.Totals.Warnings != 0 {
		t.Errorf("redocly: %d errors, %d warnings, want none", r.Totals.Errors, r.Totals.Warnings)
	}

	// Spectral: --format json prints an array of results; severity 0 is
	// an error, 1 a warning, 2 information, 3 a hint.
	out = runLinter(t, node, spectral, "lint", "--ruleset", filepath.Join(lintDir, "spectral.yaml"), "--format", "json", "--quiet", doc)
	var results []struct {
		Code     string   `json:"code"`
		Severity int      `json:"severity"`
		Message  string   `json:"message"`
		Path     []string `json:"path"`
	}
	if err := json.Unmarshal(jsonPart(out, '['), &results); err != nil {
		t.Fatalf("spectral output is not its JSON report: %v\n%s", err, out)
	}
	counts := [4]int{}
	for _, res := range results {
		if res.Severity >= 0 && res.Severity < len(counts) {
			counts[res.Severity]++
		}
		t.Errorf("spectral severity %d %s at %s: %s", res.Severity, res.Code, strings.Join(res.Path, "."), res.Message)
	}
	t.Logf("spectral: %d errors, %d warnings, %d infos, %d hints", counts[0], counts[1], counts[2], counts[3])
}

// runLinter runs a linter's CLI with node and returns its standard output.
// A non-zero exit is not a failure here: the report says why.
func runLinter(t *testing.T, node, script string, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), node, append([]string{script}, args...)...)
	// No telemetry, update checks or colours: the test must work offline
	// and parse the output.
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true",
		"NO_UPDATE_NOTIFIER=1", "NO_COLOR=1", "SCARF_ANALYTICS=false")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatalf("%s: %v\n%s", filepath.Base(script), err, stderr.Bytes())
	}
	if stdout.Len() == 0 {
		t.Fatalf("%s printed no report (%v)\n%s", filepath.Base(script), err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// jsonPart returns out from the first open bracket on (a CLI may print a
// notice before its JSON) up to the matching close.
func jsonPart(out []byte, open byte) []byte {
	i := bytes.IndexByte(out, open)
	if i < 0 {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(out[i:]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return out[i:]
	}
	return raw
}
