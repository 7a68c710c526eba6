package orderengine

import "time"

// ChainConfig says which chain the engine follows and where its contracts
// live. With an empty RPCURL the engine starts the embedded dev chain and
// fills the addresses itself.
type ChainConfig struct {
	// RPCURL of an external node. Empty starts the embedded dev chain.
	RPCURL string `json:"rpcURL"`
	// ChainID is the expected chain id, checked against the node at start.
	// Default 4663.
	ChainID uint64 `json:"chainId"`
	// Confirmations is the indexer's confirmation depth. Default 0.
	Confirmations uint64 `json:"confirmations"`
	// BlockInterval is the dev chain's mining period. Default 1 s.
	BlockInterval time.Duration `json:"blockInterval"`
	// DevRPCListen is where the dev chain serves JSON-RPC. Default
	// 127.0.0.1:8545; empty disables it.
	DevRPCListen string `json:"devRPCListen"`
	// Router, Oracle and FeeVault are contract addresses (0x-hex). The dev
	// chain fills them at start.
	Router   string `json:"router"`
	Oracle   string `json:"oracle"`
	FeeVault string `json:"feeVault"`
}

func defaultChain() ChainConfig {
	return ChainConfig{
		ChainID:       4663,
		BlockInterval: time.Second,
		DevRPCListen:  "127.0.0.1:8545",
	}
}
