package devchain

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/params"

	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// RemoteFaucet funds to on a node that mines by itself (the dev chain's
// JSON-RPC server, geth --dev) from the account of key, and waits until the
// transaction is mined: native coin when token is the zero address, else
// the token, minted (the dev tokens' mint is public) or, for WETH, wrapped
// from key's coin and transferred. A nil amount is 100 native coins or
// 1,000 whole tokens. It is what `orderengine devnet faucet` runs.
func RemoteFaucet(ctx context.Context, rpcURL string, chainID uint64, key *ecdsa.PrivateKey, to, token common.Address, amount *big.Int) (common.Hash, error) {
	client, err := Dial(ctx, rpcURL, chainID)
	if err != nil {
		return common.Hash{}, err
	}
	defer client.Close()
	dep := &Deployment{ChainID: chainID}
	if token == (common.Address{}) {
		if amount == nil {
			amount = new(big.Int).Mul(big.NewInt(100), big.NewInt(params.Ether))
		}
	} else {
		tt := testtoken.NewTestToken()
		inst := tt.Instance(client, token)
		opts := &bind.CallOpts{Context: ctx}
		decimals, err := bind.Call(inst, opts, tt.PackDecimals(), tt.UnpackDecimals)
		if err != nil {
			return common.Hash{}, fmt.Errorf("devchain: decimals of %s: %w", token.Hex(), err)
		}
		symbol, err := bind.Call(inst, opts, tt.PackSymbol(), tt.UnpackSymbol)
		if err != nil {
			return common.Hash{}, fmt.Errorf("devchain: symbol of %s: %w", token.Hex(), err)
		}
		if amount == nil {
			amount = new(big.Int).Mul(big.NewInt(1000), pow10(decimals))
		}
		dep.Tokens = []Token{{Symbol: symbol, Address: token, Decimals: decimals, WrappedNative: symbol == "WETH"}}
	}
	s := newSender(client, key, new(big.Int).SetUint64(chainID))
	defer s.close()
	f := newFaucet(client, s, dep)
	hash, err := f.send(ctx, to, token, amount)
	if err != nil {
		return common.Hash{}, err
	}
	if _, err := WaitReceipt(ctx, client, hash, 250*time.Millisecond); err != nil {
		return hash, err
	}
	return hash, nil
}
