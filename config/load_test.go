package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestFieldNames(t *testing.T) {
	want := map[string][2]string{
		"http.adminListen":       {"ORDERENGINE_HTTP_ADMIN_LISTEN", "http-admin-listen"},
		"chain.devRPCListen":     {"ORDERENGINE_CHAIN_DEV_RPC_LISTEN", "chain-dev-rpc-listen"},
		"chain.chainId":          {"ORDERENGINE_CHAIN_CHAIN_ID", "chain-chain-id"},
		"limits.free.quote":      {"ORDERENGINE_LIMITS_FREE_QUOTE", "limits-free-quote"},
		"dataDir":                {"ORDERENGINE_DATA_DIR", "data-dir"},
		"limits.makerOpenOrders": {"ORDERENGINE_LIMITS_MAKER_OPEN_ORDERS", "limits-maker-open-orders"},
	}
	seenEnv := map[string]bool{}
	for _, f := range Fields() {
		if seenEnv[f.Env] {
			t.Errorf("duplicate env %s", f.Env)
		}
		seenEnv[f.Env] = true
		if w, ok := want[f.Path]; ok {
			if f.Env != w[0] || f.Flag != w[1] {
				t.Errorf("%s: env %s flag %s, want %v", f.Path, f.Env, f.Flag, w)
			}
			delete(want, f.Path)
		}
	}
	for p := range want {
		t.Errorf("field %s not listed", p)
	}
}

func TestLoadConfigPrecedence(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.json")
	err := os.WriteFile(file, []byte(`{"http":{"listen":"127.0.0.1:9000","shutdownTimeout":"3s"},"limits":{"free":{"read":7}},"log":{"level":"debug"}}`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	env := envOf(map[string]string{
		ConfigFileEnv:                   file,
		"ORDERENGINE_HTTP_LISTEN":       "127.0.0.1:9001",
		"ORDERENGINE_LIMITS_FREE_ORDER": "9",
	})
	cfg, err := LoadConfig([]string{"--limits-free-order", "11", "--data-dir", "/tmp/x"}, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTP.Listen != "127.0.0.1:9001" || cfg.HTTP.ShutdownTimeout != 3*time.Second ||
		cfg.Limits.Free.Read != 7 || cfg.Limits.Free.Order != 11 || cfg.Limits.Free.Quote != 120 ||
		cfg.DataDir != "/tmp/x" || cfg.Log.Level != "debug" {
		t.Fatalf("got %+v", cfg)
	}
}

func TestLoadConfigFlagAliases(t *testing.T) {
	cfg, err := LoadConfig([]string{"--rpc-url", "http://127.0.0.1:8546", "--listen", "127.0.0.1:9002",
		"--chain-router", "0x00000000000000000000000000000000000000aa",
		"--chain-oracle", "0x00000000000000000000000000000000000000bb",
		"--chain-fee-vault", "0x00000000000000000000000000000000000000cc"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Chain.RPCURL != "http://127.0.0.1:8546" || cfg.HTTP.Listen != "127.0.0.1:9002" {
		t.Fatalf("aliases not applied: rpcURL %q listen %q", cfg.Chain.RPCURL, cfg.HTTP.Listen)
	}
	for alias, path := range flagAliases() {
		found := false
		for _, f := range Fields() {
			if f.Path == path {
				found = true
			}
			if f.Flag == alias {
				t.Errorf("alias --%s collides with a derived flag", alias)
			}
		}
		if !found {
			t.Errorf("alias --%s names unknown field %q", alias, path)
		}
	}
}

func TestLoadConfigRejects(t *testing.T) {
	cases := map[string][]string{
		"non-loopback admin": {"--http-admin-listen", "0.0.0.0:8081"},
		"bad duration":       {"--http-read-timeout", "soon"},
		"bad level":          {"--log-level", "loud"},
		"zero limit":         {"--limits-free-read", "0"},
		"unknown flag":       {"--nope", "1"},
		// the file already refused unknown fields; the environment and
		// flags ignored them
		"unknown field in a flag's JSON": {"--routing-tokens", `[{"symbl":"WETH","symbol":"WETH","decimals":18,"class":"major"}]`},
		"data after a flag's JSON":       {"--routing-connectors", `["WETH"] ["USDC"]`},
		// checked only when the lifecycle started, after the chain
		"confirmations beyond recentBlocks": {"--chain-confirmations", "256"},
	}
	for name, args := range cases {
		if _, err := LoadConfig(args, nil, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	file := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(file, []byte(`{"http":{"lisen":"x"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig([]string{"--config", file}, nil, nil); err == nil || !strings.Contains(err.Error(), "lisen") {
		t.Errorf("unknown file key: %v", err)
	}
}

// A list or map value (file, environment or flag) replaces the default
// whole: a token does not inherit the fields of the default token at its
// index (routing.tokens[0] is WETH, "Wrapped Ether", major), and a map does
// not keep the default's other keys.
func TestLoadConfigCompositeReplacesDefault(t *testing.T) {
	const tokens, gas = `[{"symbol":"DAI","decimals":18}]`, `{"cpmm":1}`
	file := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(file, []byte(`{"routing":{"tokens":`+tokens+`,"gasPerHop":`+gas+`}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, load := range map[string]func() (Config, error){
		"file": func() (Config, error) { return LoadConfig([]string{"--config", file}, nil, nil) },
		"env": func() (Config, error) {
			return LoadConfig(nil, envOf(map[string]string{"ORDERENGINE_ROUTING_TOKENS": tokens, "ORDERENGINE_ROUTING_GAS_PER_HOP": gas}), nil)
		},
		"flag": func() (Config, error) {
			return LoadConfig([]string{"--routing-tokens", tokens, "--routing-gas-per-hop", gas}, nil, nil)
		},
	} {
		cfg, err := load()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := (TokenConfig{Symbol: "DAI", Decimals: 18}); len(cfg.Routing.Tokens) != 1 || cfg.Routing.Tokens[0] != want {
			t.Errorf("%s: tokens %+v, want [%+v]", name, cfg.Routing.Tokens, want)
		}
		if g := cfg.Routing.GasPerHop; len(g) != 1 || g["cpmm"] != 1 {
			t.Errorf("%s: gasPerHop %v, want map[cpmm:1]", name, g)
		}
	}
}

// A list of durations (webhooks.retry) takes "10s" strings, as every
// duration does, or integer nanoseconds, from the file, the environment and
// flags; -h and docs/configuration.md show its default as strings.
func TestLoadConfigDurationList(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(file, []byte(`{"webhooks":{"retry":["5s","1m"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, load := range map[string]func() (Config, error){
		"file": func() (Config, error) { return LoadConfig([]string{"--config", file}, nil, nil) },
		"env": func() (Config, error) {
			return LoadConfig(nil, envOf(map[string]string{"ORDERENGINE_WEBHOOKS_RETRY": `["5s",60000000000]`}), nil)
		},
		"flag": func() (Config, error) { return LoadConfig([]string{"--webhooks-retry", `["5s","1m0s"]`}, nil, nil) },
	} {
		cfg, err := load()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r := cfg.Webhooks.Retry; len(r) != 2 || r[0] != 5*time.Second || r[1] != time.Minute {
			t.Errorf("%s: retry %v, want [5s 1m0s]", name, r)
		}
	}
	if _, err := LoadConfig([]string{"--webhooks-retry", `["5s","soon"]`}, nil, nil); err == nil ||
		!strings.Contains(err.Error(), "--webhooks-retry") || !strings.Contains(err.Error(), "soon") {
		t.Errorf("bad entry: %v", err)
	}
	for _, f := range Fields() {
		if f.Path == "webhooks.retry" && f.Default != `["5s","5m0s","30m0s","2h0m0s","5h0m0s","10h0m0s","10h0m0s"]` {
			t.Errorf("webhooks.retry default shown as %s", f.Default)
		}
	}
}

// Invalid values fail the load with a message naming the setting. Negative
// durations where zero means the default, and a negative verifyTop, used to
// be read as zero.
func TestLoadConfigRejectsNamingTheSetting(t *testing.T) {
	cases := map[string][]string{
		"lifecycle.indexerPoll":    {"--lifecycle-indexer-poll", "-1s"},
		"lifecycle.keeperPoll":     {"--lifecycle-keeper-poll", "-1s"},
		"orders.actorIdle":         {"--orders-actor-idle", "-5s"},
		"orders.fundedCacheTTL":    {"--orders-funded-cache-ttl", "-1ms"},
		"chain.blockInterval":      {"--chain-block-interval", "-1s"},
		"chain.marketMaker.period": {"--chain-market-maker-period", "-1s"},
		"chain.oracleMaxAge":       {"--chain-oracle-max-age", "-1h"},
		"verifyTop":                {"--routing-verify-top", "-2"},
		// Addresses and URLs used to pass the load and fail later (after
		// the dev chain had started), naming the address but not the
		// setting; a bad contract address was only caught by the lifecycle.
		"http.listen":                       {"--http-listen", "garbage"},
		"http.listen: \"127.0.0.1:http99\"": {"--http-listen", "127.0.0.1:http99"},
		"chain.devRPCListen":                {"--chain-dev-rpc-listen", "nope"},
		"chain.router":                      {"--chain-router", "0x12"},
		"chain.feeVault":                    {"--chain-fee-vault", "0xZZ00000000000000000000000000000000000000"},
		"chain.publicRPCURL":                {"--chain-public-rpcurl", "example.org:8545"},
		"chain.rpcURL must be": {"--chain-rpc-url", "node.example:8545/v3/KEY-SECRET", "--chain-router", "0x000000000000000000000000000000000000dEaD",
			"--chain-oracle", "0x000000000000000000000000000000000000dEaD", "--chain-fee-vault", "0x000000000000000000000000000000000000dEaD"},
	}
	for want, args := range cases {
		_, err := LoadConfig(args, nil, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: got %v, want an error naming %s", args, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%v: the error quotes the RPC URL, which may carry a key: %v", args, err)
		}
	}
	for _, ok := range [][]string{{"--http-listen", ":8080"}, {"--chain-rpc-url", "/var/run/geth.ipc", "--chain-router", "0x000000000000000000000000000000000000dEaD",
		"--chain-oracle", "0x000000000000000000000000000000000000dEaD", "--chain-fee-vault", "0x000000000000000000000000000000000000dEaD"}} {
		if _, err := LoadConfig(ok, nil, nil); err != nil {
			t.Errorf("%v: %v", ok, err)
		}
	}
}

// Every problem is reported at once, each naming its setting (the limits,
// chain and routing sections stopped at their first problem; the HTTP
// timeouts and the maker limits were named together).
func TestLoadConfigReportsEveryProblem(t *testing.T) {
	_, err := LoadConfig([]string{"--limits-window", "0s", "--limits-free-read", "0", "--limits-maker-submits", "0",
		"--http-write-timeout", "-1s", "--chain-dev-accounts", "500", "--chain-market-maker-max-deviation-ppm", "2000000",
		"--routing-max-hops", "9", "--routing-max-split-paths", "0", "--routing-impact-suggest-ppm", "2000000"}, nil, nil)
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"limits.window", "limits.free.read", "limits.makerSubmits", "http.writeTimeout",
		"chain.devAccounts", "chain.marketMaker.maxDeviationPpm", "maxHops", "maxSplitPaths", "impactSuggestPpm"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %s:\n%v", want, err)
		}
	}
}

// A file's errors name the key's path once ("http: unknown key
// \"http.lisen\"", "webhooks: webhooks.timeout: ..." and, for a syntax
// error, ": invalid character" before).
func TestLoadConfigFileErrorPaths(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.json")
	for content, want := range map[string]string{
		`{"http":{"lisen":"x"}}`:          `unknown key "http.lisen"`,
		`{"webhooks":{"timeout":"soon"}}`: `webhooks.timeout: time: invalid duration "soon"`,
		`{"http":5}`:                      `http: must be a JSON object`,
		`{"http":`:                        `unexpected end of JSON input`,
	} {
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig([]string{"--config", file}, nil, nil)
		if want = "config: file " + file + ": " + want; err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %s", content, err, want)
		}
	}
}

func TestDefaultValidates(t *testing.T) {
	if err := Default().Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestConfigurationDoc keeps docs/configuration.md in step with Config: the
// table between the markers is generated from Fields. Regenerate it with
// UPDATE_CONFIG_DOC=1 go test -run TestConfigurationDoc ./config
func TestConfigurationDoc(t *testing.T) {
	const begin, end = "<!-- fields:begin -->\n", "<!-- fields:end -->"
	path := filepath.Join("..", "docs", "configuration.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the field markers", path)
	}
	var b strings.Builder
	b.WriteString("| key | environment | flag | type | default |\n|---|---|---|---|---|\n")
	for _, f := range Fields() {
		def := strings.ReplaceAll(f.Default, "|", "\\|")
		if len(def) > 60 {
			def = "(see source)"
		}
		if def == "" {
			def = "(empty)"
		} else {
			def = "`" + def + "`"
		}
		b.WriteString("| `" + f.Path + "` | `" + f.Env + "` | `--" + f.Flag + "` | " + f.Type + " | " + def + " |\n")
	}
	want := doc[:i+len(begin)] + b.String() + doc[j:]
	if want == doc {
		return
	}
	if os.Getenv("UPDATE_CONFIG_DOC") != "" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("%s is out of date with Config; run UPDATE_CONFIG_DOC=1 go test -run TestConfigurationDoc ./config", path)
}

// An ORDERENGINE_* variable that names no setting is refused with the
// nearest setting's variable; the settings' variables and the other known
// variables pass, and so do variables of other programs.
func TestCheckEnvReportsUnknownVariables(t *testing.T) {
	ok := []string{"ORDERENGINE_HTTP_LISTEN=127.0.0.1:1", "ORDERENGINE_CONFIG=c.json", "ORDERENGINE_API_KEY=k",
		"ORDERENGINE_GETH=/bin/geth", "PATH=/bin", "ORDERENGINEX=1"}
	if err := CheckEnv(ok); err != nil {
		t.Fatal(err)
	}
	err := CheckEnv(append(ok, "ORDERENGINE_DEVE=false", "ORDERENGINE_NO_SUCH_THING_AT_ALL=1"))
	if err == nil {
		t.Fatal("unknown variables accepted")
	}
	msg := err.Error()
	for _, want := range []string{"ORDERENGINE_DEVE (did you mean ORDERENGINE_DEV?)", "unknown environment variable ORDERENGINE_NO_SUCH_THING_AT_ALL;"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("%q does not say %q", msg, want)
		}
	}
}

// TestDevModeFollowsTheChain: dev mode is the default only with the
// embedded dev chain; a chain.rpcURL from any source turns it off unless
// dev is set explicitly, from any source.
func TestDevModeFollowsTheChain(t *testing.T) {
	chain := []string{"--chain-router", "0x00000000000000000000000000000000000000aa",
		"--chain-oracle", "0x00000000000000000000000000000000000000bb", "--chain-fee-vault", "0x00000000000000000000000000000000000000cc"}
	dir := t.TempDir()
	n := 0
	file := func(body string) string {
		n++
		p := filepath.Join(dir, "c"+strings.Repeat("x", n)+".json")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name string
		args []string
		env  func(string) (string, bool)
		dev  bool
	}{
		{"embedded dev chain", nil, nil, true},
		{"rpc url flag", append([]string{"--rpc-url", "http://127.0.0.1:8546"}, chain...), nil, false},
		{"rpc url env", chain, envOf(map[string]string{"ORDERENGINE_CHAIN_RPC_URL": "http://127.0.0.1:8546"}), false},
		{"rpc url file", append([]string{"--config", file(`{"chain":{"rpcURL":"http://127.0.0.1:8546"}}`)}, chain...), nil, false},
		{"explicit dev flag", append([]string{"--rpc-url", "http://127.0.0.1:8546", "--dev=true"}, chain...), nil, true},
		{"explicit dev env", append([]string{"--rpc-url", "http://127.0.0.1:8546"}, chain...), envOf(map[string]string{"ORDERENGINE_DEV": "true"}), true},
		{"explicit dev file", append([]string{"--config", file(`{"dev":true,"chain":{"rpcURL":"http://127.0.0.1:8546"}}`)}, chain...), nil, true},
		{"explicit production without a node", []string{"--dev=false"}, nil, false},
	}
	for _, c := range cases {
		cfg, err := LoadConfig(c.args, c.env, nil)
		if c.name == "explicit production without a node" {
			if err == nil || !strings.Contains(err.Error(), "chain.rpcURL is required outside dev mode") {
				t.Errorf("%s: err %v", c.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if cfg.Dev != c.dev {
			t.Errorf("%s: dev %v, want %v", c.name, cfg.Dev, c.dev)
		}
	}
}

// A cluster node's lists come comma-separated from a flag or variable, or
// as JSON; a cluster needs a shared chain, and its addresses are checked.
func TestClusterSettings(t *testing.T) {
	env := map[string]string{
		"ORDERENGINE_CLUSTER_NATS_ROUTES": "nats://10.0.0.1:6222, nats://10.0.0.2:6222,nats://10.0.0.3:6222",
	}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	cfg, err := LoadConfig([]string{"--cluster-enabled", "true", "--chain-rpc-url", "http://127.0.0.1:8545",
		"--cluster-shards", "32"}, lookup, nil)
	if err != nil && strings.Contains(err.Error(), "cluster") { // the chain's addresses are not set here
		t.Fatal(err)
	}
	if len(cfg.Cluster.NATS.Routes) != 3 || cfg.Cluster.NATS.Routes[1] != "nats://10.0.0.2:6222" || cfg.Cluster.Shards != 32 {
		t.Fatalf("lists: %q, shards %d", cfg.Cluster.NATS.Routes, cfg.Cluster.Shards)
	}
	if _, err := LoadConfig([]string{"--cluster-enabled", "true"}, lookup, nil); err == nil || !strings.Contains(err.Error(), "chain.rpcURL") {
		t.Fatalf("a cluster on the embedded dev chain: %v", err)
	}
	_, err = LoadConfig([]string{"--cluster-enabled", "true", "--chain-rpc-url", "http://127.0.0.1:8545", "--cluster-replicas", "3",
		"--cluster-nats-routes", "10.0.0.1:6222", "--cluster-shards", "0"}, lookup, nil)
	for _, want := range []string{"lists 1 nodes", "not a nats://host:port URL", "cluster.shards must be 1 to 1024"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad cluster settings: %v, want %q", err, want)
		}
	}
	if err := Default().Cluster.Validate(); err != nil {
		t.Fatalf("a disabled cluster section is valid as it is: %v", err)
	}
	// The actors' own listeners and peers are gone: a configuration that
	// still sets them is refused, saying what replaced them.
	for _, src := range []struct {
		args []string
		env  map[string]string
		file string
	}{
		{args: []string{"--cluster-actors-listen", "127.0.0.1:7222"}},
		{env: map[string]string{"ORDERENGINE_CLUSTER_ACTORS_PEERS": "a:1,b:2"}},
		{file: `{"cluster": {"actors": {"listen": "127.0.0.1:7222"}}}`},
	} {
		lookup := func(k string) (string, bool) { v, ok := src.env[k]; return v, ok }
		args := src.args
		if src.file != "" {
			f := filepath.Join(t.TempDir(), "c.json")
			if err := os.WriteFile(f, []byte(src.file), 0o600); err != nil {
				t.Fatal(err)
			}
			args = []string{"--config", f}
		}
		_, err := LoadConfig(args, lookup, nil)
		if err == nil && src.env != nil {
			var environ []string
			for k, v := range src.env {
				environ = append(environ, k+"="+v)
			}
			err = CheckEnv(environ)
		}
		if err == nil || !strings.Contains(err.Error(), "is no longer a setting") || !strings.Contains(err.Error(), "cluster.nats.routes") {
			t.Errorf("a removed cluster.actors setting (%v %v %s): %v", src.args, src.env, src.file, err)
		}
	}
}

// TestWebhookAllowTargets: webhooks.allowTargets reads as a comma-separated
// list from a flag or variable, and refuses an entry that is not a range
// or an address, has host bits set, or overlaps a range webhooks may never
// reach, naming the entry.
func TestWebhookAllowTargets(t *testing.T) {
	env := func(name string) (string, bool) {
		if name == EnvPrefix+"WEBHOOKS_ALLOW_TARGETS" {
			return "127.0.0.1/32, 10.0.0.0/8,fd12::/16", true
		}
		return "", false
	}
	cfg, err := LoadConfig([]string{"--data-dir", "/tmp/x"}, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := cfg.Webhooks.AllowedTargets()
	if err != nil || len(got) != 3 || got[0].String() != "127.0.0.1/32" || got[2].String() != "fd12::/16" {
		t.Fatalf("allowTargets %v (%v)", got, err)
	}
	for entry, want := range map[string]string{
		"169.254.169.254":   "overlaps 169.254.0.0/16",
		"0.0.0.0/0":         "overlaps 0.0.0.0/8",
		"::/0":              "overlaps",
		"fd00::/8":          "overlaps fd00:ec2::254/128",
		"fe80::1":           "overlaps fe80::/10",
		"10.0.0.1/8":        "host bits set: write 10.0.0.0/8",
		"intranet":          "not a CIDR",
		"fe80::1%eth0":      "zoned",
		"::ffff:10.0.0.0/8": "at least /96",
	} {
		w := defaultWebhooks()
		w.AllowTargets = []string{"127.0.0.1", entry}
		err := w.Validate()
		if err == nil || !strings.Contains(err.Error(), "webhooks.allowTargets[1]") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error naming allowTargets[1] with %q", entry, err, want)
		}
	}
	w := defaultWebhooks()
	w.AllowTargets = []string{"::ffff:10.0.0.0/104", "127.0.0.1"}
	if got, err := w.AllowedTargets(); err != nil || got[0].String() != "10.0.0.0/8" || got[1].String() != "127.0.0.1/32" {
		t.Fatalf("%v (%v)", got, err)
	}
}
