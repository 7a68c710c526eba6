package devchain

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// chainNode is the node under the dev chain: go-ethereum's simulated
// backend in memory, or persistentNode on disk.
type chainNode interface {
	Client() simulated.Client
	Commit() common.Hash
	AdjustTime(time.Duration) error
	Close() error
}

// persistentNode is the simulated backend's node kept in a data directory:
// the same stack (an eth service, the filter API, a simulated beacon that
// seals a block when asked), opened on disk and continuing from its head.
// simulated.NewBackend cannot be used for it: it always opens in memory
// and rewinds the chain to genesis.
//
// The state is kept the crash-safe way: the hash scheme in archive mode
// writes every block's state to disk before the head moves to that block,
// so a process killed at any point restarts at its last head (the path
// scheme keeps the latest blocks' state in memory and journals it only at
// a clean shutdown; after a kill the chain would rewind). The cost is the
// disk: a block's changed trie nodes are kept (docs/devchain.md).
type persistentNode struct {
	stack  *node.Node
	beacon *catalyst.SimulatedBeacon
	client *ethclient.Client
	// db is the chain database, synced after every sealed block: geth
	// writes without syncing, and Pebble holds a write-ahead-log block in
	// memory until it fills (32 KiB, tens of dev blocks), so a killed
	// process would lose that many blocks.
	db     ethdb.KeyValueSyncer
	logger *slog.Logger
}

// Caches of the persistent node, far below a full node's defaults (GBs):
// the dev chain's state is small.
const (
	persistentDBCacheMB   = 32
	persistentDBHandles   = 128
	persistentTrieCacheMB = 16
)

// errGenesisChanged is returned when the data directory holds a chain made
// from another genesis (other dev accounts or gas limit).
var errGenesisChanged = errors.New("devchain: the dev chain in the data folder was made from another genesis")

// openPersistentNode opens (or creates) the node in dir with alloc as the
// genesis accounts and the options applied as simulated.NewBackend applies
// them.
func openPersistentNode(dir string, logger *slog.Logger, alloc types.GenesisAlloc, options ...func(*node.Config, *ethconfig.Config)) (n *persistentNode, err error) {
	nodeConf := node.DefaultConfig
	nodeConf.DataDir = dir
	// The instance folder under dir; without a name the node takes the
	// executable's, and a renamed binary would not find its chain.
	nodeConf.Name = "node"
	nodeConf.IPCPath = "" // no socket in the data folder
	nodeConf.P2P = p2p.Config{NoDiscovery: true}

	genesisAlloc := core.SystemContractAllocs()
	maps.Copy(genesisAlloc, alloc)
	ethConf := ethconfig.Defaults
	ethConf.Genesis = &core.Genesis{
		Config:   params.AllDevChainProtocolChanges,
		GasLimit: ethconfig.Defaults.Miner.GasCeil,
		Alloc:    genesisAlloc,
	}
	ethConf.SyncMode = ethconfig.FullSync
	ethConf.TxPool.NoLocals = true
	ethConf.LogNoHistory = true
	ethConf.StateScheme = rawdb.HashScheme
	ethConf.NoPruning = true
	ethConf.SnapshotCache = 0
	ethConf.DatabaseCache = persistentDBCacheMB
	ethConf.DatabaseHandles = persistentDBHandles
	ethConf.TrieCleanCache = persistentTrieCacheMB
	ethConf.TrieDirtyCache = 0
	for _, option := range options {
		option(&nodeConf, &ethConf)
	}
	stack, err := node.New(&nodeConf)
	if err != nil {
		return nil, fmt.Errorf("devchain: node in %s: %w", dir, err)
	}
	defer func() {
		if err != nil {
			_ = stack.Close()
		}
	}()
	backend, err := eth.New(stack, &ethConf)
	if err != nil {
		var mismatch *core.GenesisMismatchError
		if errors.As(err, &mismatch) {
			return nil, fmt.Errorf("%w (%s)", errGenesisChanged, dir)
		}
		return nil, fmt.Errorf("devchain: open the dev chain in %s: %w", dir, err)
	}
	filterSystem := filters.NewFilterSystem(backend.APIBackend, filters.Config{})
	stack.RegisterAPIs([]rpc.API{{Namespace: "eth", Service: filters.NewFilterAPI(filterSystem)}})
	if err := stack.Start(); err != nil {
		return nil, fmt.Errorf("devchain: start the dev chain node: %w", err)
	}
	// Unlike simulated.NewBackend, no Fork to genesis: the chain goes on
	// from its head.
	beacon, err := catalyst.NewSimulatedBeacon(0, common.Address{}, backend)
	if err != nil {
		return nil, fmt.Errorf("devchain: simulated beacon: %w", err)
	}
	db, ok := backend.ChainDb().(ethdb.KeyValueSyncer)
	if !ok {
		return nil, fmt.Errorf("devchain: the chain database of %s cannot sync", dir)
	}
	return &persistentNode{stack: stack, beacon: beacon, client: ethclient.NewClient(stack.Attach()), db: db, logger: logger}, nil
}

// Client is the in-process client of the node.
func (n *persistentNode) Client() simulated.Client { return n.client }

// Commit seals a block with the pending transactions and syncs it to disk.
func (n *persistentNode) Commit() common.Hash {
	h := n.beacon.Commit()
	n.sync()
	return h
}

// AdjustTime seals an empty block d after the head's time and syncs it.
func (n *persistentNode) AdjustTime(d time.Duration) error {
	err := n.beacon.AdjustTime(d)
	n.sync()
	return err
}

// sync makes the sealed blocks durable. A failure is logged: the block
// stays valid in memory, and a kill before the next sync loses it (the
// engine sees that as a reorg).
func (n *persistentNode) sync() {
	if err := n.db.SyncKeyValue(); err != nil {
		n.logger.Warn("dev chain: sync the chain database", "err", err)
	}
}

// Close stops the beacon and the node (which writes its last state and
// closes the database).
func (n *persistentNode) Close() error {
	n.client.Close()
	return errors.Join(n.beacon.Stop(), n.stack.Close())
}
