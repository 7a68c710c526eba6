package config

import (
	"errors"
	"time"
)

// LifecycleConfig configures the order lifecycle: the chain indexer, the
// trigger actors and the keepers. The confirmation depth is
// ChainConfig.Confirmations.
type LifecycleConfig struct {
	// IndexerPoll is how often the indexer asks the node for a new head.
	// Default 100 ms; zero means 100 ms. Keep it well under the block
	// interval: a fill is visible one poll after its block is confirmed.
	IndexerPoll time.Duration `json:"indexerPoll"`
	// RecentBlocks is how many applied blocks the indexer remembers (hashes
	// and undo records): the deepest reorg it can rewind. Default 256; zero
	// means 256. It must exceed Chain.Confirmations.
	RecentBlocks uint64 `json:"recentBlocks"`
	// MaxBlocksPerStep bounds how many blocks one indexer step applies
	// (backfill after a restart proceeds in steps of this size). Default
	// 1000; zero means 1000.
	MaxBlocksPerStep uint64 `json:"maxBlocksPerStep"`
	// DevKeeper runs the reference keeper in-process with a dev account
	// when the embedded dev chain runs. Default true.
	DevKeeper bool `json:"devKeeper"`
	// KeeperKeyFile is a file holding a hex private key (0x optional,
	// mode 0600): the node runs the reference keeper in-process with that
	// account, on any chain, and the account pays the gas of the fills it
	// sends. It is how nodes on an external node keep their orders moving
	// without a separate keeper process (`make cluster`, the compose
	// file). Empty: only the dev keeper runs, on the embedded dev chain.
	// Default empty.
	KeeperKeyFile string `json:"keeperKeyFile"`
	// KeeperPoll is the reference keeper's polling period of the
	// executable list. Default 500 ms; zero means 500 ms.
	KeeperPoll time.Duration `json:"keeperPoll"`
	// ReadyMaxLag is how many blocks the indexer may trail the node's head,
	// beyond Chain.Confirmations, before GET /readyz answers 503 (order
	// statuses and triggers are then that stale, e.g. during the backfill
	// after a restart). Default 32; zero means 32.
	ReadyMaxLag uint64 `json:"readyMaxLag"`
}

func defaultLifecycle() LifecycleConfig {
	return LifecycleConfig{
		IndexerPoll:      100 * time.Millisecond,
		RecentBlocks:     256,
		MaxBlocksPerStep: 1000,
		DevKeeper:        true,
		KeeperPoll:       500 * time.Millisecond,
		ReadyMaxLag:      32,
	}
}

// Resolved returns the configuration with zero values replaced by their
// documented defaults.
func (c LifecycleConfig) Resolved() LifecycleConfig {
	d := defaultLifecycle()
	if c.IndexerPoll <= 0 {
		c.IndexerPoll = d.IndexerPoll
	}
	if c.RecentBlocks == 0 {
		c.RecentBlocks = d.RecentBlocks
	}
	if c.MaxBlocksPerStep == 0 {
		c.MaxBlocksPerStep = d.MaxBlocksPerStep
	}
	if c.KeeperPoll <= 0 {
		c.KeeperPoll = d.KeeperPoll
	}
	if c.ReadyMaxLag == 0 {
		c.ReadyMaxLag = d.ReadyMaxLag
	}
	return c
}

// Validate checks the lifecycle section against the chain section.
func (c LifecycleConfig) Validate(chain ChainConfig) error {
	var errs []error
	if r := c.Resolved(); r.RecentBlocks <= chain.Confirmations {
		errs = append(errs, errors.New("lifecycle.recentBlocks must exceed chain.confirmations"))
	}
	errs = append(errs, notNegative(namedDuration{"lifecycle.indexerPoll", c.IndexerPoll}, namedDuration{"lifecycle.keeperPoll", c.KeeperPoll}))
	return errors.Join(errs...)
}
