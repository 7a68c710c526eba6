// Package clusterrun runs a cluster of orderengine processes: the shared
// dev chain (`orderengine devnet serve`) and several `orderengine serve`
// nodes that follow it. The Layout says what each process is started with
// (its command line and ORDERENGINE_* environment); `orderengine cluster`
// (`make cluster`), the multi-process test harness (clustertest) and the
// compose file's test all take their commands and environment from it, so
// the three cannot drift apart. Cluster starts and stops the processes.
package clusterrun

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Chain is the shared dev chain's process: `orderengine devnet serve`.
type Chain struct {
	// Listen is the JSON-RPC server's address (--listen).
	Listen string
	// RPCURL is how the nodes reach it: chain.rpcURL (--rpc-url).
	RPCURL string
	// PublicRPCURL is the URL GET /v1/config gives clients
	// (--public-rpc-url).
	PublicRPCURL string
	// DataDir keeps the chain (--data-dir); Memory keeps it in memory
	// instead (--memory).
	DataDir string
	Memory  bool
	// ConfigFile is where the chain writes the nodes' configuration
	// (--config-out) and where the nodes read it (ORDERENGINE_CONFIG).
	ConfigFile string
	// KeeperKeyFile is where the chain writes the dev keeper account's key
	// (--keeper-key-out) and where the nodes read it
	// (ORDERENGINE_LIFECYCLE_KEEPER_KEY_FILE).
	KeeperKeyFile string
	// Extra flags (tests: a shorter block interval).
	Extra []string
}

// Node is one `orderengine serve` node: its name, listen addresses,
// the addresses its peers reach it at, and its data folder.
type Node struct {
	// Name is cluster.node, also the name of its log file.
	Name string
	// HTTP and Admin are http.listen and http.adminListen; PublicURL is
	// http.publicURL, the URL clients reach HTTP at.
	HTTP, Admin, PublicURL string
	// NATS is cluster.nats.listen; Route is how the peers reach it
	// (nats://host:port, an entry of cluster.nats.routes).
	NATS, Route string
	// NATSClient is cluster.nats.clientListen, the embedded server's
	// client listener (the `nats` CLI, tests that ask JetStream which node
	// leads a stream); empty: none.
	NATSClient string
	// DataDir is the node's data folder.
	DataDir string
	// NetNS is the network namespace the node runs in (tests of network
	// faults, internal/netns); empty: the caller's. Its admin API is
	// then on the namespace's loopback, reached through Cluster.Client.
	NetNS string
}

// Layout is a cluster: the chain, the nodes and whether cluster mode is on.
type Layout struct {
	Chain Chain
	Nodes []Node
	// Cluster sets cluster.enabled. Off, the nodes are independent
	// engines on one chain (each with its own orders and keys).
	Cluster bool
	// Env are further variables every node gets, after the layout's
	// (tests: shorter polls, larger rate limits).
	Env map[string]string
}

// NodePorts are a node's loopback ports.
type NodePorts struct {
	HTTP, Admin, NATS int
}

// LocalPorts are the ports of `make cluster`: the chain's JSON-RPC on
// 8545; node i (from 0) serves HTTP on 8080+2i and its admin API on
// 8081+2i, and its NATS route on 6222+i.
func LocalPorts(n int) (chain int, nodes []NodePorts) {
	for i := range n {
		nodes = append(nodes, NodePorts{HTTP: 8080 + 2*i, Admin: 8081 + 2*i, NATS: 6222 + i})
	}
	return 8545, nodes
}

// Local is `make cluster`: three nodes on loopback (LocalPorts), the chain
// and every node's data folder under dir.
func Local(dir string) Layout {
	chain, nodes := LocalPorts(3)
	return Loopback(dir, chain, nodes)
}

// Loopback is a cluster on 127.0.0.1 with the given ports, its folders and
// files under dir: dir/chain (the chain), dir/chain.json (the nodes'
// configuration), dir/keeper.key, dir/node1 ... (the nodes').
func Loopback(dir string, chainPort int, ports []NodePorts) Layout {
	at := func(p int) string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(p)) }
	rpc := "http://" + at(chainPort)
	l := Layout{
		Chain: Chain{
			Listen: at(chainPort), RPCURL: rpc, PublicRPCURL: rpc, DataDir: filepath.Join(dir, "chain"),
			ConfigFile: filepath.Join(dir, "chain.json"), KeeperKeyFile: filepath.Join(dir, "keeper.key"),
		},
		Cluster: true,
	}
	for i, p := range ports {
		name := NodeName(i)
		l.Nodes = append(l.Nodes, Node{
			Name: name, HTTP: at(p.HTTP), Admin: at(p.Admin), PublicURL: "http://" + at(p.HTTP),
			NATS: at(p.NATS), Route: "nats://" + at(p.NATS),
			DataDir: filepath.Join(dir, name),
		})
	}
	return l
}

// Compose is the layout of docker-compose.yml: each node in its own
// container, named node1 ..., listening on every interface on the
// default ports (its admin API on loopback only), its data in the /data
// volume; the chain service named chain, its files in the /shared
// volume the nodes mount. hostPorts are the host ports the nodes' HTTP
// listeners are published on (their public URLs); the chain's 8545 is
// published as 8545.
func Compose(hostPorts []int) Layout {
	l := Layout{
		Chain: Chain{
			Listen: "0.0.0.0:8545", RPCURL: "http://chain:8545", PublicRPCURL: "http://127.0.0.1:8545", DataDir: "/data",
			ConfigFile: "/shared/chain.json", KeeperKeyFile: "/shared/keeper.key",
		},
		Cluster: true,
	}
	for i, hp := range hostPorts {
		name := NodeName(i)
		l.Nodes = append(l.Nodes, Node{
			Name: name, HTTP: "0.0.0.0:8080", Admin: "127.0.0.1:8081", PublicURL: "http://127.0.0.1:" + strconv.Itoa(hp),
			NATS: "0.0.0.0:6222", Route: "nats://" + name + ":6222",
			DataDir: "/data",
		})
	}
	return l
}

// Hosts is a cluster whose nodes run in the network namespaces netNS, on
// the addresses hosts (node i on hosts[i], every listener on its default
// port, the admin API on the namespace's loopback, the embedded NATS
// server's client listener on 4222), and whose chain serves JSON-RPC on
// chain (host:port) in the caller's namespace, which every node reaches.
// Its folders and files are under dir as with Loopback.
func Hosts(dir, chain string, hosts, netNS []string) Layout {
	rpc := "http://" + chain
	l := Layout{
		Chain: Chain{
			Listen: chain, RPCURL: rpc, PublicRPCURL: rpc, DataDir: filepath.Join(dir, "chain"),
			ConfigFile: filepath.Join(dir, "chain.json"), KeeperKeyFile: filepath.Join(dir, "keeper.key"),
		},
		Cluster: true,
	}
	for i, host := range hosts {
		name := NodeName(i)
		at := func(p int) string { return net.JoinHostPort(host, strconv.Itoa(p)) }
		l.Nodes = append(l.Nodes, Node{
			Name: name, HTTP: at(8080), Admin: "127.0.0.1:8081", PublicURL: "http://" + at(8080),
			NATS: at(6222), Route: "nats://" + at(6222),
			NATSClient: at(4222),
			DataDir:    filepath.Join(dir, name), NetNS: netNS[i],
		})
	}
	return l
}

// NodeName is the name of node i (from 0): node1, node2, ...
func NodeName(i int) string { return fmt.Sprintf("node%d", i+1) }

// ChainArgs is the chain's command line (after the binary).
func (l Layout) ChainArgs() []string {
	c := l.Chain
	args := []string{"devnet", "serve", "--listen", c.Listen, "--rpc-url", c.RPCURL, "--public-rpc-url", c.PublicRPCURL}
	if c.Memory {
		args = append(args, "--memory")
	} else {
		args = append(args, "--data-dir", c.DataDir)
	}
	args = append(args, "--config-out", c.ConfigFile, "--keeper-key-out", c.KeeperKeyFile)
	return append(args, c.Extra...)
}

// NodeArgs is a node's command line (after the binary): serve, configured
// by its environment alone.
func (l Layout) NodeArgs() []string { return []string{"serve"} }

// NodeEnv is node i's configuration as ORDERENGINE_* variables: the
// chain's file and node, production mode (dev off), its listeners and
// folder, the in-process keeper with the chain's keeper key, and its
// cluster settings (the routes of every node, itself included).
func (l Layout) NodeEnv(i int) map[string]string {
	n := l.Nodes[i]
	var routes []string
	for _, p := range l.Nodes {
		routes = append(routes, p.Route)
	}
	env := map[string]string{
		"ORDERENGINE_CONFIG":                    l.Chain.ConfigFile,
		"ORDERENGINE_CHAIN_RPC_URL":             l.Chain.RPCURL,
		"ORDERENGINE_DEV":                       "false",
		"ORDERENGINE_DATA_DIR":                  n.DataDir,
		"ORDERENGINE_HTTP_LISTEN":               n.HTTP,
		"ORDERENGINE_HTTP_ADMIN_LISTEN":         n.Admin,
		"ORDERENGINE_HTTP_PUBLIC_URL":           n.PublicURL,
		"ORDERENGINE_LIFECYCLE_KEEPER_KEY_FILE": l.Chain.KeeperKeyFile,
		"ORDERENGINE_CLUSTER_ENABLED":           strconv.FormatBool(l.Cluster),
		"ORDERENGINE_CLUSTER_NODE":              n.Name,
		"ORDERENGINE_CLUSTER_NATS_LISTEN":       n.NATS,
		"ORDERENGINE_CLUSTER_NATS_ROUTES":       strings.Join(routes, ","),
	}
	if n.NATSClient != "" {
		env["ORDERENGINE_CLUSTER_NATS_CLIENT_LISTEN"] = n.NATSClient
	}
	for k, v := range l.Env {
		env[k] = v
	}
	return env
}

// Environ is base (os.Environ form) with vars set over it: a variable of
// base that vars names is replaced.
func Environ(base []string, vars map[string]string) []string {
	out := make([]string, 0, len(base)+len(vars))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := vars[k]; !ok {
			out = append(out, kv)
		}
	}
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	return out
}

// WithoutEngineEnv drops the ORDERENGINE_* variables of env, so that only
// the layout configures a process (tests).
func WithoutEngineEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "ORDERENGINE_") {
			out = append(out, kv)
		}
	}
	return out
}

// readyTimeout bounds a node's start (app.New, the chain's backfill) in
// the waits of this package.
const readyTimeout = 2 * time.Minute
