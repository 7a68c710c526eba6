package clusterrun

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/config"
)

// Every variable a layout gives a node names a setting, and the node's
// configuration loads from them (with a chain file as `devnet serve`
// writes it) into what the layout says: production mode on the chain's
// node, the listeners, the folder, the keeper key, and a cluster section
// that validates, with every node's route and peer.
func TestNodeEnvIsTheNodesConfiguration(t *testing.T) {
	dir := t.TempDir()
	chainFile := filepath.Join(dir, "chain.json")
	addr := "0x" + strings.Repeat("11", 20)
	data, _ := json.Marshal(map[string]any{"chain": map[string]any{"router": addr, "oracle": addr, "feeVault": addr}})
	if err := os.WriteFile(chainFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, l := range map[string]Layout{"local": Local(dir), "compose": Compose([]int{8080, 8082, 8084})} {
		l.Chain.ConfigFile = chainFile
		for i, n := range l.Nodes {
			env := l.NodeEnv(i)
			if err := config.CheckEnv(Environ(nil, env)); err != nil {
				t.Fatalf("%s %s: %v", name, n.Name, err)
			}
			cfg, err := config.LoadConfig(l.NodeArgs()[1:], func(k string) (string, bool) { v, ok := env[k]; return v, ok }, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", name, n.Name, err)
			}
			c := cfg.Cluster
			if cfg.Dev || cfg.Chain.RPCURL != l.Chain.RPCURL || cfg.Chain.Router != addr || cfg.DataDir != n.DataDir ||
				cfg.HTTP.Listen != n.HTTP || cfg.HTTP.AdminListen != n.Admin || cfg.HTTP.PublicURL != n.PublicURL ||
				cfg.Lifecycle.KeeperKeyFile != l.Chain.KeeperKeyFile {
				t.Fatalf("%s %s: %+v", name, n.Name, cfg)
			}
			if !c.Enabled || c.Node != n.Name || c.NATS.Listen != n.NATS || len(c.NATS.Routes) != 3 ||
				!slices.Contains(c.NATS.Routes, n.Route) {
				t.Fatalf("%s %s: cluster %+v", name, n.Name, c)
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("%s %s: %v", name, n.Name, err)
			}
		}
	}
}

// The ports of `make cluster` (docs/cluster.md) are distinct.
func TestLocalPortsAreDistinct(t *testing.T) {
	chain, nodes := LocalPorts(3)
	seen := map[int]bool{chain: true}
	for _, n := range nodes {
		for _, p := range []int{n.HTTP, n.Admin, n.NATS} {
			if seen[p] {
				t.Fatalf("port %d used twice", p)
			}
			seen[p] = true
		}
	}
	if nodes[0].HTTP != 8080 || nodes[2].Admin != 8085 || chain != 8545 {
		t.Fatalf("ports %d %+v", chain, nodes)
	}
}

// Environ sets the layout's variables over the inherited ones, replacing
// a variable of the same name.
func TestEnviron(t *testing.T) {
	got := Environ([]string{"HOME=/h", "ORDERENGINE_DEV=true", "ORDERENGINE_LOG_LEVEL=debug"}, map[string]string{"ORDERENGINE_DEV": "false"})
	slices.Sort(got)
	want := []string{"HOME=/h", "ORDERENGINE_DEV=false", "ORDERENGINE_LOG_LEVEL=debug"}
	if !slices.Equal(got, want) {
		t.Fatalf("%v, want %v", got, want)
	}
	if got := WithoutEngineEnv(want); !slices.Equal(got, []string{"HOME=/h"}) {
		t.Fatalf("WithoutEngineEnv: %v", got)
	}
}
