package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// toolsDir holds the pinned browser-test packages (playwright-core,
// axe-core, ethers) and the driver run.mjs; `make deps` installs them.
const toolsDir = "../../tools/browser"

// plan is what the driver (tools/browser/run.mjs) is asked to do.
type plan struct {
	BaseURL   string   `json:"baseURL"`
	Chromium  string   `json:"chromium"`
	OutDir    string   `json:"outDir"`
	Report    string   `json:"report"`
	Scenarios []string `json:"scenarios"`
	// Wallet keys (hex) and chain id of the injected test wallet.
	WalletKeys []string `json:"walletKeys,omitempty"`
	ChainID    uint64   `json:"chainId,omitempty"`
	// Extra carries what a scenario needs beyond that.
	Extra map[string]any `json:"extra,omitempty"`
}

// report is the driver's answer.
type report struct {
	Scenarios map[string]*scenarioReport `json:"scenarios"`
}

type scenarioReport struct {
	Audits       []pageAudit     `json:"audits"`
	Observations json.RawMessage `json:"observations"`
	Error        string          `json:"error"`
	Seconds      float64         `json:"seconds"`
}

// pageAudit is one page state the driver recorded.
type pageAudit struct {
	Name          string      `json:"name"`
	Width         int         `json:"width"`
	Screenshot    string      `json:"screenshot"`
	Overflow      int         `json:"overflow"`
	Axe           []violation `json:"axe"`
	AxePasses     int         `json:"axePasses"`
	ConsoleErrors []string    `json:"consoleErrors"`
	CSPViolations []string    `json:"cspViolations"`
}

type violation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// chromiumPath is Debian's chromium (make deps installs it), or $CHROMIUM.
func chromiumPath(t *testing.T) string {
	t.Helper()
	p := os.Getenv("CHROMIUM")
	if p == "" {
		p = "/usr/bin/chromium"
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("chromium is not installed at %s: run make deps (apt-get install chromium) or set CHROMIUM", p)
	}
	return p
}

// runBrowser runs the driver with p and returns its report. Screenshots go
// to the test's artifact directory: kept under -outputdir with go test
// -artifacts, removed after the test otherwise.
func runBrowser(t *testing.T, p plan) *report {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: install Node.js, then run make deps")
	}
	for _, mod := range []string{"playwright-core", "axe-core", "ethers"} {
		if _, err := os.Stat(filepath.Join(toolsDir, "node_modules", mod, "package.json")); err != nil {
			t.Fatalf("%s is missing: run make deps (npm ci --prefix tools/browser)", mod)
		}
	}
	p.Chromium = chromiumPath(t)
	p.OutDir = t.ArtifactDir()
	work := t.TempDir()
	p.Report = filepath.Join(work, "report.json")
	planFile := filepath.Join(work, "plan.json")
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planFile, data, 0o600); err != nil {
		t.Fatal(err)
	}
	// The deadline only keeps a hung browser from holding the test run;
	// nothing is asserted about time.
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "run.mjs", planFile)
	cmd.Dir = toolsDir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("browser driver: %v\n%s", err, out.Bytes())
	}
	var r report
	raw, err := os.ReadFile(p.Report)
	if err != nil {
		t.Fatalf("browser driver wrote no report: %v\n%s", err, out.Bytes())
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("browser report: %v", err)
	}
	t.Logf("screenshots in %s", p.OutDir)
	return &r
}

// scenario returns the named scenario's report, failing the test when the
// driver did not run it or it stopped on an error; every page state it
// recorded is checked (checkAudit).
func (r *report) scenario(t *testing.T, name string, obs any) *scenarioReport {
	t.Helper()
	return r.scenarioOr(t, name, obs, nil)
}

// scenarioOr is scenario that, when the scenario stopped on an error,
// decodes its observations and calls onError before failing.
func (r *report) scenarioOr(t *testing.T, name string, obs any, onError func()) *scenarioReport {
	t.Helper()
	s := r.Scenarios[name]
	if s == nil {
		t.Fatalf("the driver did not run scenario %s", name)
	}
	t.Logf("scenario %s: %.1f s in the browser, %d page states", name, s.Seconds, len(s.Audits))
	for _, a := range s.Audits {
		checkAudit(t, a)
	}
	if s.Error != "" {
		if onError != nil && obs != nil && json.Unmarshal(s.Observations, obs) == nil {
			onError()
		}
		t.Fatalf("scenario %s stopped: %s", name, s.Error)
	}
	if obs != nil {
		if err := json.Unmarshal(s.Observations, obs); err != nil {
			t.Fatalf("scenario %s observations: %v\n%s", name, err, s.Observations)
		}
	}
	return s
}

// checkAudit fails on what a person must never meet: a missing picture,
// a page wider than a 390 px screen, an accessibility violation, a
// console error, a refused script or style.
func checkAudit(t *testing.T, a pageAudit) {
	t.Helper()
	where := a.Name + " at " + strconv.Itoa(a.Width) + " px"
	checkPNG(t, a.Screenshot, a.Width)
	if a.Overflow > 0 {
		t.Errorf("%s: the page is %d px wider than the viewport (horizontal scrolling)", where, a.Overflow)
	}
	if a.AxePasses == 0 {
		t.Errorf("%s: axe-core checked nothing", where)
	}
	for _, v := range a.Axe {
		t.Errorf("%s: accessibility: %s (%s, %s) at %s", where, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "; "))
	}
	for _, e := range a.ConsoleErrors {
		t.Errorf("%s: console error: %s", where, e)
	}
	for _, v := range a.CSPViolations {
		t.Errorf("%s: Content-Security-Policy violation: %s", where, v)
	}
}

// checkPNG fails unless file is a PNG screenshot width pixels wide.
func checkPNG(t *testing.T, file string, width int) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Errorf("no screenshot: %v", err)
		return
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil || cfg.Width != width || cfg.Height < 200 {
		t.Errorf("screenshot %s is not a %d px wide PNG (%v, %dx%d)", file, width, err, cfg.Width, cfg.Height)
	}
}
