package devchain

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/params"

	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/contracts/bindings/wrappednative"
)

// gasWrappedTransfer is the fixed gas limit of the WETH transfer that
// follows the faucet's wrap in the same block (it cannot be estimated
// before the wrap is mined). Mints and wraps are estimated.
const gasWrappedTransfer = 300_000

// ErrUnknownToken is returned by the faucet for an address that is not one
// of the deployment's tokens.
var ErrUnknownToken = errors.New("devchain: not a dev chain token")

// maxUint256 is 2^256 − 1, the "unlimited" allowance.
func maxUint256() *big.Int {
	return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
}

// faucet sends test funds from a funding account.
type faucet struct {
	client Client
	from   *sender
	dep    *Deployment
	token  *testtoken.TestToken
	weth   *wrappednative.WrappedNative
}

func newFaucet(client Client, from *sender, dep *Deployment) *faucet {
	return &faucet{client: client, from: from, dep: dep, token: testtoken.NewTestToken(), weth: wrappednative.NewWrappedNative()}
}

// send gives to amount of token: native coin for the zero address, the
// wrapped native token by wrapping the funder's coin and transferring it,
// any other deployed token by minting. It returns the last transaction's
// hash; nothing waits for mining.
func (f *faucet) send(ctx context.Context, to, token common.Address, amount *big.Int) (common.Hash, error) {
	if amount == nil || amount.Sign() <= 0 {
		return common.Hash{}, errors.New("devchain: faucet amount must be positive")
	}
	if token == (common.Address{}) {
		tx, err := f.from.send(ctx, to, nil, amount, 0)
		if err != nil {
			return common.Hash{}, err
		}
		return tx.Hash(), nil
	}
	t, ok := f.dep.TokenAt(token)
	if !ok {
		return common.Hash{}, fmt.Errorf("%w: %s", ErrUnknownToken, token.Hex())
	}
	if t.WrappedNative {
		wrap, err := f.from.send(ctx, token, f.weth.PackDeposit(), amount, 0)
		if err != nil {
			return common.Hash{}, fmt.Errorf("devchain: faucet wrap %s: %w", t.Symbol, err)
		}
		if to == f.from.from {
			return wrap.Hash(), nil
		}
		tx, err := f.from.send(ctx, token, f.weth.PackTransfer(to, amount), nil, gasWrappedTransfer)
		if err != nil {
			return common.Hash{}, fmt.Errorf("devchain: faucet transfer %s: %w", t.Symbol, err)
		}
		return tx.Hash(), nil
	}
	tx, err := f.from.send(ctx, token, f.token.PackMint(to, amount), nil, 0)
	if err != nil {
		return common.Hash{}, fmt.Errorf("devchain: faucet mint %s: %w", t.Symbol, err)
	}
	return tx.Hash(), nil
}

// Wallet funding of FundWallet: native coin and each token's worth in USD.
const (
	walletNativeEth = 100
	walletTokenUSD  = 1_000_000
)

// fundWallet sends to 100 native coins and, of every priced token except
// the fee-on-transfer one, about $1,000,000 worth at its seeded price.
func (f *faucet) fundWallet(ctx context.Context, to common.Address) ([]common.Hash, error) {
	native := new(big.Int).Mul(big.NewInt(walletNativeEth), big.NewInt(params.Ether))
	h, err := f.send(ctx, to, common.Address{}, native)
	if err != nil {
		return nil, err
	}
	hashes := []common.Hash{h}
	for _, t := range f.dep.Tokens {
		if t.FeeOnTransfer || t.PriceUSD == nil || t.PriceUSD.Sign() <= 0 {
			continue
		}
		// USD × 10^decimals × 1e8 / answer
		amount := new(big.Int).Mul(big.NewInt(walletTokenUSD), pow10(t.Decimals))
		amount = mulDiv(amount, big.NewInt(1e8), t.PriceUSD)
		h, err := f.send(ctx, to, t.Address, amount)
		if err != nil {
			return nil, err
		}
		hashes = append(hashes, h)
	}
	return hashes, nil
}

// Faucet sends amount (raw units) of token to to, from the deployer: native
// coin when token is the zero address, WETH by wrapping, any other dev
// token by minting. The transaction is mined with the next block; wait for
// it with Mine(ctx, hash), which commits blocks itself with ManualMining.
func (d *DevChain) Faucet(ctx context.Context, to, token common.Address, amount *big.Int) (common.Hash, error) {
	return d.faucet().send(ctx, to, token, amount)
}

// FundWallet sends to a starter balance: 100 native coins and about
// $1,000,000 worth of every token (except the fee-on-transfer one). It
// returns the transactions, mined with the next block (wait with Mine).
func (d *DevChain) FundWallet(ctx context.Context, to common.Address) ([]common.Hash, error) {
	return d.faucet().fundWallet(ctx, to)
}

func (d *DevChain) faucet() *faucet { return newFaucet(d.client, d.deployer, d.deploy) }
