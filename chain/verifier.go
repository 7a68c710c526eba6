package chain

import (
	"context"
	"errors"
	"math/big"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	orderengine "github.com/orderengine/orderengine"
)

// eip1271Magic is what isValidSignature(bytes32,bytes) returns for a valid
// signature: its own selector, 0x1626ba7e.
const eip1271Magic = "\x16\x26\xba\x7e"

// CodeAndCaller is the part of a node client the verifier needs for contract
// wallets. *ethclient.Client and the simulated backend's client satisfy it.
type CodeAndCaller interface {
	CodeAt(ctx context.Context, account common.Address, blockNumber *big.Int) ([]byte, error)
	CallContract(ctx context.Context, call ethereum.CallMsg, blockNumber *big.Int) ([]byte, error)
}

// Verifier checks order and cancel signatures under one domain. It is safe
// for concurrent use.
//
// Default order of checks, as OpenZeppelin's SignatureChecker: an ECDSA
// signature that recovers to the maker is accepted without touching the
// chain (the hot path: one recovery, no RPC). Otherwise, when the maker has
// code at the pinned block, EIP-1271 isValidSignature decides. A signature
// that recovers to the maker under the v7.0 type (ECDSA or EIP-1271) is
// refused with ReasonSignedV70 and V70Message.
//
// The router checks code first (a maker with code is only ever asked through
// EIP-1271). The two orders differ only for a maker that has code and whose
// own key made an ECDSA signature, that is an EIP-7702-delegated account;
// WithCodeFirst makes the verifier follow the router exactly, at the price
// of one eth_getCode per signature.
type Verifier struct {
	domain    *Domain
	backend   CodeAndCaller
	codeFirst bool
	hashers   sync.Pool
}

// VerifierOption configures a Verifier.
type VerifierOption func(*Verifier)

// WithCodeFirst makes the verifier look up the maker's code before any
// ECDSA recovery, as the router does. It needs a backend.
func WithCodeFirst() VerifierOption {
	return func(v *Verifier) { v.codeFirst = true }
}

// NewVerifier returns a Verifier for domain. backend may be nil, in which
// case contract wallets cannot be verified (their signatures are refused).
func NewVerifier(domain *Domain, backend CodeAndCaller, opts ...VerifierOption) *Verifier {
	v := &Verifier{domain: domain, backend: backend}
	for _, o := range opts {
		o(v)
	}
	v.hashers.New = func() any { return NewHasher() }
	return v
}

// Domain returns the verifier's signing domain.
func (v *Verifier) Domain() *Domain { return v.domain }

// VerifyOrder computes the v7.1 order hash of o and checks that sig is the
// maker's signature of it. block pins the EIP-1271 eth_call (nil = latest).
// It returns the order hash; errors are *SignatureError (BAD_SIGNATURE) or,
// when the node fails, CHAIN_UNAVAILABLE.
func (v *Verifier) VerifyOrder(ctx context.Context, o *Order, sig []byte, block *big.Int) (common.Hash, error) {
	h := v.hashers.Get().(*Hasher)
	digest := h.OrderHash(v.domain, o)
	v.hashers.Put(h)
	return digest, v.verify(ctx, o.Maker, digest, o, sig, block)
}

// VerifyCancel checks that sig is maker's OrderCancel signature of orderHash.
func (v *Verifier) VerifyCancel(ctx context.Context, maker common.Address, orderHash common.Hash, sig []byte, block *big.Int) error {
	h := v.hashers.Get().(*Hasher)
	digest := h.CancelHash(v.domain, orderHash)
	v.hashers.Put(h)
	return v.verify(ctx, maker, digest, nil, sig, block)
}

// VerifyDigest checks that sig is signer's signature of digest: ECDSA, or
// EIP-1271 isValidSignature when signer has code (sign-in messages are
// verified this way, over their EIP-191 hash). Errors are as
// VerifyOrder's.
func (v *Verifier) VerifyDigest(ctx context.Context, signer common.Address, digest common.Hash, sig []byte, block *big.Int) error {
	return v.verify(ctx, signer, digest, nil, sig, block)
}

// verify checks sig over digest for maker. o, when not nil, is the order,
// for the v7.0 diagnosis.
func (v *Verifier) verify(ctx context.Context, maker common.Address, digest common.Hash, o *Order, raw []byte, block *big.Int) error {
	if v.codeFirst && v.backend != nil {
		code, err := v.backend.CodeAt(ctx, maker, block)
		if err != nil {
			return chainErr("eth_getCode of the maker", err)
		}
		if len(code) > 0 {
			return v.verify1271(ctx, maker, digest, o, raw, block)
		}
		return v.verifyECDSA(maker, digest, o, raw)
	}
	err := v.verifyECDSA(maker, digest, o, raw)
	if err == nil || v.backend == nil {
		return err
	}
	if reason, _ := SignatureReasonOf(err); reason == ReasonSignedV70 {
		return err
	}
	code, cerr := v.backend.CodeAt(ctx, maker, block)
	if cerr != nil {
		return chainErr("eth_getCode of the maker", cerr)
	}
	if len(code) == 0 {
		return err
	}
	return v.verify1271(ctx, maker, digest, o, raw, block)
}

// verifyECDSA checks raw as the maker's ECDSA signature of digest, and of
// the order's v7.0 digest for the diagnosis.
func (v *Verifier) verifyECDSA(maker common.Address, digest common.Hash, o *Order, raw []byte) error {
	sig, parseErr := ParseSignature(raw)
	var ecdsaErr error = parseErr
	if parseErr == nil {
		signer, err := RecoverSigner(digest, sig)
		if err == nil && signer == maker {
			return nil
		}
		if o != nil && v.recoversV70(o, sig) {
			return sigErr(ReasonSignedV70, V70Message)
		}
		ecdsaErr = err
		if err == nil {
			ecdsaErr = sigErr(ReasonWrongSigner, "signature recovers to %s, not to the maker %s", signer.Hex(), maker.Hex())
		}
	}
	return ecdsaErr
}

// verify1271 asks the maker contract through isValidSignature at block, and
// again with the v7.0 digest for the diagnosis.
func (v *Verifier) verify1271(ctx context.Context, maker common.Address, digest common.Hash, o *Order, raw []byte, block *big.Int) error {
	ok, err := v.isValidSignature(ctx, maker, digest, raw, block)
	if err != nil || ok {
		return err
	}
	if o != nil {
		h := v.hashers.Get().(*Hasher)
		d70 := h.OrderHashV70(v.domain, o)
		v.hashers.Put(h)
		if ok, err := v.isValidSignature(ctx, maker, d70, raw, block); err != nil || ok {
			if err != nil {
				return err
			}
			return sigErr(ReasonSignedV70, V70Message)
		}
	}
	return sigErr(ReasonEIP1271Rejected, "maker %s is a contract wallet and its isValidSignature (EIP-1271) rejected the signature", maker.Hex())
}

func (v *Verifier) recoversV70(o *Order, sig Signature) bool {
	h := v.hashers.Get().(*Hasher)
	d70 := h.OrderHashV70(v.domain, o)
	v.hashers.Put(h)
	signer, err := RecoverSigner(d70, sig)
	return err == nil && signer == o.Maker
}

// isValidSignature calls maker.isValidSignature(digest, sig) at block. A
// revert or any answer other than the magic value is false; a node failure
// is a CHAIN_UNAVAILABLE error.
func (v *Verifier) isValidSignature(ctx context.Context, maker common.Address, digest common.Hash, sig []byte, block *big.Int) (bool, error) {
	padded := (len(sig) + 31) / 32 * 32
	data := make([]byte, 4+32+32+32+padded)
	copy(data, eip1271Magic)
	copy(data[4:36], digest[:])
	data[4+63] = 0x40 // offset of the bytes argument
	big.NewInt(int64(len(sig))).FillBytes(data[68:100])
	copy(data[100:], sig)
	out, err := v.backend.CallContract(ctx, ethereum.CallMsg{To: &maker, Data: data}, block)
	if err != nil {
		if isRevert(err) {
			return false, nil
		}
		return false, chainErr("eth_call isValidSignature", err)
	}
	if len(out) < 32 || string(out[:4]) != eip1271Magic {
		return false, nil
	}
	for _, b := range out[4:32] {
		if b != 0 {
			return false, nil
		}
	}
	return true, nil
}

// isRevert tells an execution revert (the wallet said no) from a transport
// or node failure.
func isRevert(err error) bool {
	var coded interface{ ErrorCode() int }
	if errors.As(err, &coded) && coded.ErrorCode() == 3 {
		return true
	}
	return strings.Contains(err.Error(), "execution reverted")
}

// chainErr is CHAIN_UNAVAILABLE for the API, with the cause kept for logs.
func chainErr(what string, cause error) error {
	return errors.Join(orderengine.Errorf(orderengine.CodeChainUnavailable, "chain node failed during %s", what), cause)
}

// BatchItem is one order to verify in VerifyBatch.
type BatchItem struct {
	Order     *Order
	Signature []byte
}

// BatchResult is the outcome of one BatchItem: the v7.1 order hash and the
// error VerifyOrder would have returned.
type BatchResult struct {
	Hash common.Hash
	Err  error
}

// VerifyBatch verifies many orders on GOMAXPROCS workers and returns the
// results in the order of items. A cancelled context stops the remaining
// items with the context's error.
func (v *Verifier) VerifyBatch(ctx context.Context, items []BatchItem, block *big.Int) []BatchResult {
	results := make([]BatchResult, len(items))
	workers := min(runtime.GOMAXPROCS(0), len(items))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(items) {
					return
				}
				if err := ctx.Err(); err != nil {
					results[i].Err = err
					continue
				}
				results[i].Hash, results[i].Err = v.VerifyOrder(ctx, items[i].Order, items[i].Signature, block)
			}
		})
	}
	wg.Wait()
	return results
}
