package devchain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/contracts"
	"github.com/orderengine/orderengine/contracts/bindings/oracle"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
)

// WithDataDir keeps the dev chain in dir (serve passes
// <dataDir>/devchain): the node's database and the deployment it holds.
// Start then continues the chain found there, from its head, instead of
// deploying a new one; the first start creates it. Without this option
// the chain lives in memory and every Start is a new chain.
func WithDataDir(dir string) Option { return func(d *DevChain) { d.dataDir = dir } }

// savedFile is the deployment record next to the node's database, written
// once the first start's setup is mined: without it a chain in the folder
// is a setup that did not finish.
const savedFile = "deployment.json"

// savedChain is what a persisted dev chain was made with.
type savedChain struct {
	// ChainID and DevAccounts are part of the genesis: a start with other
	// values cannot continue this chain.
	ChainID     uint64 `json:"chainId"`
	DevAccounts int    `json:"devAccounts"`
	// Deployment is the deployed contracts, tokens and pools.
	Deployment *Deployment `json:"deployment"`
	// Fees and OracleMaxAge are the settings written to the router and
	// the oracle; a start with other values writes the new ones.
	Fees         []contracts.FeeCell `json:"fees"`
	OracleMaxAge time.Duration       `json:"oracleMaxAge"`
	// MarketMaker is set once the market-maker account is funded and its
	// approvals are mined (a chain made with the market maker off gets
	// them on the first start that turns it on).
	MarketMaker bool `json:"marketMaker"`
}

// Persistent reports whether the chain is kept in a data directory (it
// survives a restart) rather than in memory.
func (d *DevChain) Persistent() bool { return d.dataDir != "" }

// Resumed reports whether Start continued a chain found in the data
// directory (false: the chain was deployed by this start).
func (d *DevChain) Resumed() bool { return d.resumed }

// loadSaved reads the deployment record; ok is false when there is none.
func loadSaved(dir string) (s savedChain, ok bool, err error) {
	data, err := os.ReadFile(filepath.Join(dir, savedFile))
	if errors.Is(err, fs.ErrNotExist) {
		return s, false, nil
	}
	if err != nil {
		return s, false, fmt.Errorf("devchain: %w", err)
	}
	if err := json.Unmarshal(data, &s); err != nil || s.Deployment == nil {
		return s, false, fmt.Errorf("devchain: %s is damaged (%v): remove %s to start a new dev chain", filepath.Join(dir, savedFile), err, dir)
	}
	return s, true, nil
}

// save writes the deployment record atomically (a temporary file renamed
// over it, then the directory synced).
func (d *DevChain) save() error {
	params, err := deployParams(d.cfg, d.feePolicy, d.accounts.FeeVault.Address)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(savedChain{ChainID: d.cfg.ChainID, DevAccounts: d.cfg.DevAccounts, Deployment: d.deploy,
		Fees: params.Fees, OracleMaxAge: d.cfg.OracleMaxAge, MarketMaker: d.mmReady}, "", "  ")
	if err != nil {
		return fmt.Errorf("devchain: encode %s: %w", savedFile, err)
	}
	path := filepath.Join(d.dataDir, savedFile)
	tmp := path + ".tmp"
	if err := writeSynced(tmp, data); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("devchain: %w", err)
	}
	dir, err := os.Open(d.dataDir)
	if err != nil {
		return fmt.Errorf("devchain: %w", err)
	}
	defer func() { _ = dir.Close() }()
	if err := dir.Sync(); err != nil {
		return fmt.Errorf("devchain: sync %s: %w", d.dataDir, err)
	}
	return nil
}

func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("devchain: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("devchain: write %s: %w", path, err)
	}
	return nil
}

// prepareDataDir checks the data directory before the node opens it: a
// chain made with another chain id or number of dev accounts cannot be
// continued (they are in its genesis), and a folder whose first setup did
// not finish (no deployment record) is cleared to start again. It returns
// the record when there is one.
func (d *DevChain) prepareDataDir() (savedChain, bool, error) {
	saved, ok, err := loadSaved(d.dataDir)
	if err != nil {
		return saved, false, err
	}
	if ok {
		if saved.ChainID != d.cfg.ChainID || saved.DevAccounts != d.cfg.DevAccounts {
			return saved, false, fmt.Errorf("devchain: the dev chain in %s was made with chain.chainId %d and chain.devAccounts %d, now %d and %d: "+
				"start with the settings it was made with, or remove %s to start a new dev chain",
				d.dataDir, saved.ChainID, saved.DevAccounts, d.cfg.ChainID, d.cfg.DevAccounts, d.dataDir)
		}
		return saved, true, nil
	}
	entries, err := os.ReadDir(d.dataDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return saved, false, fmt.Errorf("devchain: %w", err)
	}
	if len(entries) > 0 {
		d.logger.Warn("the dev chain's first setup did not finish: starting a new dev chain", "dir", d.dataDir)
		if err := os.RemoveAll(d.dataDir); err != nil {
			return saved, false, fmt.Errorf("devchain: clear %s: %w", d.dataDir, err)
		}
	}
	if err := os.MkdirAll(d.dataDir, 0o755); err != nil {
		return saved, false, fmt.Errorf("devchain: %w", err)
	}
	return saved, false, nil
}

// resume continues the persisted chain of saved: it checks the router is
// there, writes the fee table and the oracle's staleness bound when the
// configuration changed them, and picks the market maker's walk up at the
// oracle's prices. Nothing is funded or approved again.
func (d *DevChain) resume(ctx context.Context, saved savedChain) error {
	dep := saved.Deployment
	code, err := d.client.CodeAt(ctx, dep.Router, nil)
	if err != nil {
		return fmt.Errorf("devchain: read the router of the persisted chain: %w", err)
	}
	if len(code) == 0 {
		return fmt.Errorf("devchain: the dev chain in %s has no router at %s: remove %s to start a new dev chain", d.dataDir, dep.Router.Hex(), d.dataDir)
	}
	d.deploy = dep
	d.resumed = true
	params, err := deployParams(d.cfg, d.feePolicy, d.accounts.FeeVault.Address)
	if err != nil {
		return err
	}
	var txs []common.Hash
	r := servicerouter.NewServiceRouter()
	old := map[[2]uint8]contracts.FeeCell{}
	for _, f := range saved.Fees {
		old[[2]uint8{f.Kind, f.Class}] = f
	}
	for _, f := range params.Fees {
		if old[[2]uint8{f.Kind, f.Class}] == f {
			continue
		}
		tx, err := d.deployer.send(ctx, dep.Router, r.PackSetFee(f.Kind, f.Class, f.ProtocolPpm, f.KeeperPpm), nil, 0)
		if err != nil {
			return fmt.Errorf("devchain: write the fee policy to the router: %w", err)
		}
		txs = append(txs, tx.Hash())
	}
	if saved.OracleMaxAge != d.cfg.OracleMaxAge {
		o := oracle.NewOracle()
		tx, err := d.deployer.send(ctx, dep.Oracle, o.PackSetMaxAge(big.NewInt(int64(d.cfg.OracleMaxAge/time.Second))), nil, 0)
		if err != nil {
			return fmt.Errorf("devchain: write chain.oracleMaxAge to the oracle: %w", err)
		}
		txs = append(txs, tx.Hash())
	}
	d.mmReady = saved.MarketMaker
	if d.cfg.MarketMaker.Enabled {
		d.mm = newMarketMaker(d.cfg.MarketMaker, d.logger, d.client, dep, d.senderOf(d.accounts.MarketMaker), d.deployer)
		if err := d.mm.resumeFromOracle(ctx); err != nil {
			return err
		}
		if !d.mmReady {
			hashes, err := d.mm.prepare(ctx, d.faucet().send)
			if err != nil {
				return err
			}
			txs = append(txs, hashes...)
			d.mmReady = true
		}
	}
	if len(txs) > 0 {
		if _, err := d.Mine(ctx, txs...); err != nil {
			return err
		}
		if err := d.save(); err != nil {
			return err
		}
	}
	return nil
}

// resumeFromOracle sets each walk's price to the oracle's answer (within
// the walk's bounds), so a restarted market maker walks on from where the
// market is instead of from the seeded prices.
func (m *MarketMaker) resumeFromOracle(ctx context.Context) error {
	o := oracle.NewOracle()
	inst := o.Instance(m.client, m.dep.Oracle)
	m.mu.Lock()
	defer m.mu.Unlock()
	for token, w := range m.walks {
		r, err := bind.Call(inst, &bind.CallOpts{Context: ctx}, o.PackLatestRoundData(token), o.UnpackLatestRoundData)
		if err != nil {
			return fmt.Errorf("devchain: oracle answer of %s: %w", token, err)
		}
		if r.Answer == nil || r.Answer.Sign() <= 0 {
			continue
		}
		w.price = new(big.Int).Set(r.Answer)
		if w.price.Cmp(w.lo) < 0 {
			w.price.Set(w.lo)
		}
		if w.price.Cmp(w.hi) > 0 {
			w.price.Set(w.hi)
		}
	}
	return nil
}
