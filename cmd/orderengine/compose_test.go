package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"

	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/clusterrun"
	"github.com/orderengine/orderengine/internal/syncbuf"
)

// dockerfile is what TestComposeFile reads of the Dockerfile.
type dockerfile struct {
	stages             int
	entrypoint, health []string
	cmd                []string
	user, goVersion    string
}

// readDockerfile parses the instructions the tests check (exec forms as
// JSON arrays; continuation lines joined).
func readDockerfile(t *testing.T, path string) dockerfile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d dockerfile
	jsonArray := func(s string) []string {
		var out []string
		if err := json.Unmarshal([]byte(strings.TrimSpace(s)), &out); err != nil {
			t.Fatalf("Dockerfile: %q is not an exec form (JSON array): %v", s, err)
		}
		return out
	}
	text := strings.ReplaceAll(string(data), "\\\n", " ")
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		word, rest, _ := strings.Cut(line, " ")
		switch word {
		case "FROM":
			d.stages++
		case "ENTRYPOINT":
			d.entrypoint = jsonArray(rest)
		case "CMD":
			d.cmd = jsonArray(rest)
		case "USER":
			d.user = strings.TrimSpace(rest)
		case "HEALTHCHECK":
			_, form, ok := strings.Cut(rest, " CMD ")
			if !ok {
				t.Fatalf("Dockerfile: HEALTHCHECK without CMD: %q", line)
			}
			d.health = jsonArray(form)
		case "ARG":
			if v, ok := strings.CutPrefix(strings.TrimSpace(rest), "GO_VERSION="); ok {
				d.goVersion = v
			}
		}
	}
	return d
}

// TestComposeFile loads docker-compose.yml with compose-go, which
// validates it against the Compose specification, and checks it against
// the Dockerfile and the layout the multi-process tests and `make
// cluster` run (clusterrun.Compose): the chain's command; each node's
// command and environment, exactly; the published ports (the nodes' on
// the host ports of `make cluster`, the chain's on 8545); the volumes
// (a data volume each, the shared one read-only on the nodes); the nodes
// waiting for a healthy chain; and every health check being a command of
// the image's entrypoint binary whose flags parse. The Dockerfile is
// multi-stage, runs as a non-root user, builds with the Makefile's Go
// release and runs serve by default.
func TestComposeFile(t *testing.T) {
	root := filepath.Join("..", "..")
	project, err := loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  root,
		ConfigFiles: []types.ConfigFile{{Filename: filepath.Join(root, "docker-compose.yml")}},
		Environment: types.Mapping{},
	})
	if err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	bin := checkDockerfile(t, root)
	chainPort, ports := clusterrun.LocalPorts(3)
	hostPorts := make([]int, len(ports))
	for i, p := range ports {
		hostPorts[i] = p.HTTP
	}
	want := clusterrun.Compose(hostPorts)
	if len(project.Services) != 1+len(want.Nodes) {
		t.Fatalf("%d services, want chain and %d nodes", len(project.Services), len(want.Nodes))
	}
	chain, err := project.GetService("chain")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(chain.Command, want.ChainArgs()) {
		t.Fatalf("chain command %v, want %v", chain.Command, want.ChainArgs())
	}
	shared := filepath.Dir(want.Chain.ConfigFile)
	if got := published(chain); !slices.Equal(got, []string{"127.0.0.1:" + strconv.Itoa(chainPort) + "->8545"}) {
		t.Fatalf("chain ports %v", got)
	}
	if got := mounts(chain); !slices.Equal(got, []string{"chain-data:" + want.Chain.DataDir + ":false", "shared:" + shared + ":false"}) {
		t.Fatalf("chain volumes %v", got)
	}
	checkHealth(t, bin, "chain", chain.HealthCheck)
	for i, n := range want.Nodes {
		s, err := project.GetService(n.Name)
		if err != nil {
			t.Fatal(err)
		}
		checkComposeNode(t, s, want, i, hostPorts[i])
		checkHealth(t, bin, n.Name, s.HealthCheck)
	}
}

// checkDockerfile checks the Dockerfile (multi-stage, non-root, the
// Makefile's Go release, serve by default, a health check of the binary)
// and returns its entrypoint binary.
func checkDockerfile(t *testing.T, root string) string {
	t.Helper()
	df := readDockerfile(t, filepath.Join(root, "Dockerfile"))
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`(?m)^export GOTOOLCHAIN := go(\S+)$`).FindSubmatch(makefile); m == nil || string(m[1]) != df.goVersion {
		t.Fatalf("Dockerfile GO_VERSION %q, Makefile GOTOOLCHAIN %q", df.goVersion, m)
	}
	if df.stages < 2 || df.user == "" || df.user == "root" || strings.HasPrefix(df.user, "0") ||
		len(df.entrypoint) != 1 || !slices.Equal(df.cmd, []string{"serve"}) {
		t.Fatalf("Dockerfile: %d stages, user %q, entrypoint %v, cmd %v", df.stages, df.user, df.entrypoint, df.cmd)
	}
	bin := df.entrypoint[0]
	checkHealth(t, bin, "Dockerfile", &types.HealthCheckConfig{Test: append(types.HealthCheckTest{"CMD"}, df.health...)})
	return bin
}

// checkHealth checks that a health check runs `<bin> probe` with flags
// probe accepts.
func checkHealth(t *testing.T, bin, what string, hc *types.HealthCheckConfig) {
	t.Helper()
	if hc == nil || len(hc.Test) < 3 || hc.Test[0] != "CMD" {
		t.Fatalf("%s health check %v: want the exec form [CMD %s probe ...]", what, hc, bin)
	}
	test := hc.Test[1:]
	if test[0] != bin || test[1] != "probe" {
		t.Fatalf("%s health check %v is not `%s probe`", what, test, bin)
	}
	if _, ok := registry().commands[test[1]]; !ok {
		t.Fatalf("%s health check: the binary has no command %q", what, test[1])
	}
	env := &cliEnv{stdout: &syncbuf.Buffer{}, stderr: &syncbuf.Buffer{}, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	if _, err := parseProbe(env, test[2:]); err != nil {
		t.Fatalf("%s health check %v: %v", what, test, err)
	}
}

// checkComposeNode checks node i's service against the layout.
func checkComposeNode(t *testing.T, s types.ServiceConfig, want clusterrun.Layout, i, hostPort int) {
	t.Helper()
	n := want.Nodes[i]
	if !slices.Equal(s.Command, want.NodeArgs()) {
		t.Fatalf("%s command %v, want %v", n.Name, s.Command, want.NodeArgs())
	}
	env := map[string]string{}
	for k, v := range s.Environment {
		if v == nil {
			t.Fatalf("%s: %s has no value", n.Name, k)
		}
		env[k] = *v
	}
	wantEnv := want.NodeEnv(i)
	for k, v := range wantEnv {
		if env[k] != v {
			t.Errorf("%s: %s=%q, want %q", n.Name, k, env[k], v)
		}
	}
	for k := range env {
		if _, ok := wantEnv[k]; !ok {
			t.Errorf("%s: %s is not set by the layout", n.Name, k)
		}
	}
	if got := published(s); !slices.Equal(got, []string{"127.0.0.1:" + strconv.Itoa(hostPort) + "->8080"}) ||
		!strings.HasSuffix(n.HTTP, ":8080") {
		t.Fatalf("%s ports %v (listens on %s)", n.Name, got, n.HTTP)
	}
	shared := filepath.Dir(want.Chain.ConfigFile)
	if got := mounts(s); !slices.Equal(got, []string{n.Name + "-data:" + n.DataDir + ":false", "shared:" + shared + ":true"}) {
		t.Fatalf("%s volumes %v", n.Name, got)
	}
	if dep, ok := s.DependsOn["chain"]; !ok || dep.Condition != types.ServiceConditionHealthy {
		t.Fatalf("%s depends on %+v, want chain healthy", n.Name, s.DependsOn)
	}
	if s.StopGracePeriod == nil || time.Duration(*s.StopGracePeriod) <= config.Default().HTTP.ShutdownTimeout {
		t.Fatalf("%s: stop_grace_period %v leaves serve no time to drain (http.shutdownTimeout %s)", n.Name, s.StopGracePeriod, config.Default().HTTP.ShutdownTimeout)
	}
}

// published lists a service's published ports as host_ip:published->target.
func published(s types.ServiceConfig) []string {
	var out []string
	for _, p := range s.Ports {
		out = append(out, p.HostIP+":"+p.Published+"->"+strconv.Itoa(int(p.Target)))
	}
	return out
}

// mounts lists a service's volumes as source:target:readOnly.
func mounts(s types.ServiceConfig) []string {
	var out []string
	for _, v := range s.Volumes {
		out = append(out, v.Source+":"+v.Target+":"+strconv.FormatBool(v.ReadOnly))
	}
	return out
}
