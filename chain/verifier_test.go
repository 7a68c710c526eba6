package chain

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	orderengine "github.com/orderengine/orderengine"
)

func vectorVerifier(t testing.TB, f vectorFile, v orderVector, backend CodeAndCaller) (*Verifier, Order) {
	t.Helper()
	return NewVerifier(vectorDomain(f, v), backend), v.Order.parse(t)
}

func wantSigReason(t *testing.T, err error, reason SignatureReason, code orderengine.Code) {
	t.Helper()
	got, ok := SignatureReasonOf(err)
	if !ok || got != reason || orderengine.AsError(err).Code != code {
		t.Fatalf("err %v (reason %v); want %s with reason %v", err, got, code, reason)
	}
}

func TestVerifyOrderVectors(t *testing.T) {
	f := loadVectors(t)
	for _, v := range f.Orders {
		ver, o := vectorVerifier(t, f, v, nil)
		for _, form := range []string{v.Signature, v.SignatureCompact} {
			h, err := ver.VerifyOrder(context.Background(), &o, hexutil.MustDecode(form), nil)
			if err != nil || h != v.Hash {
				t.Errorf("%s: hash %s, %v; want %s, nil", v.Name, h.Hex(), err, v.Hash.Hex())
			}
		}
		if err := ver.VerifyCancel(context.Background(), o.Maker, v.Hash, hexutil.MustDecode(v.CancelSignature), nil); err != nil {
			t.Errorf("%s: cancel: %v", v.Name, err)
		}
	}
}

func TestVerifyOrderRejections(t *testing.T) {
	f := loadVectors(t)
	v := f.Orders[0]
	ctx := context.Background()
	ver, o := vectorVerifier(t, f, v, nil)
	sig := hexutil.MustDecode(v.Signature)

	t.Run("v7.0 signature", func(t *testing.T) {
		_, err := ver.VerifyOrder(ctx, &o, hexutil.MustDecode(v.SignatureV70), nil)
		wantSigReason(t, err, ReasonSignedV70, orderengine.CodeBadSignature)
		if msg := orderengine.AsError(err).Message; msg != V70Message {
			t.Fatalf("message %q, want %q", msg, V70Message)
		}
	})
	t.Run("tampered order", func(t *testing.T) {
		tampered := o
		tampered.AmountIn.AddUint64(&tampered.AmountIn, 1)
		_, err := ver.VerifyOrder(ctx, &tampered, sig, nil)
		wantSigReason(t, err, ReasonWrongSigner, orderengine.CodeBadSignature)
		if !strings.Contains(orderengine.AsError(err).Message, o.Maker.Hex()) {
			t.Fatalf("message does not name the maker: %v", err)
		}
	})
	t.Run("other maker", func(t *testing.T) {
		other := o
		other.Maker = common.HexToAddress(f.Orders[1].Order.Maker)
		_, err := ver.VerifyOrder(ctx, &other, sig, nil)
		wantSigReason(t, err, ReasonWrongSigner, orderengine.CodeBadSignature)
	})
	t.Run("other domain", func(t *testing.T) {
		d := NewRouterDomain(4663, common.Address{0xde, 0xad})
		_, err := NewVerifier(d, nil).VerifyOrder(ctx, &o, sig, nil)
		wantSigReason(t, err, ReasonWrongSigner, orderengine.CodeBadSignature)
	})
	t.Run("malformed", func(t *testing.T) {
		_, err := ver.VerifyOrder(ctx, &o, sig[:10], nil)
		wantSigReason(t, err, ReasonMalformed, orderengine.CodeBadSignature)
	})
	t.Run("order signature as cancel", func(t *testing.T) {
		err := ver.VerifyCancel(ctx, o.Maker, v.Hash, sig, nil)
		wantSigReason(t, err, ReasonWrongSigner, orderengine.CodeBadSignature)
	})
}

// fakeChain is a CodeAndCaller with one contract wallet that approves the
// digests in valid. It records the block numbers it was asked for.
type fakeChain struct {
	mu      sync.Mutex
	wallet  common.Address
	valid   map[common.Hash]bool
	revert  bool
	codeErr error
	blocks  []*big.Int
}

func (c *fakeChain) CodeAt(_ context.Context, a common.Address, block *big.Int) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.blocks = append(c.blocks, block)
	if c.codeErr != nil {
		return nil, c.codeErr
	}
	if a == c.wallet {
		return []byte{0x60, 0x00}, nil
	}
	return nil, nil
}

type revertErr struct{}

func (revertErr) Error() string  { return "execution reverted" }
func (revertErr) ErrorCode() int { return 3 }

func (c *fakeChain) CallContract(_ context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.blocks = append(c.blocks, block)
	if c.revert {
		return nil, revertErr{}
	}
	if *msg.To != c.wallet || len(msg.Data) < 100 || !bytes.Equal(msg.Data[:4], []byte{0x16, 0x26, 0xba, 0x7e}) {
		return nil, errors.New("fake: unexpected call")
	}
	// Check the ABI encoding of (bytes32, bytes).
	if new(big.Int).SetBytes(msg.Data[36:68]).Int64() != 0x40 {
		return nil, errors.New("fake: bad offset")
	}
	n := new(big.Int).SetBytes(msg.Data[68:100]).Int64()
	if int64(len(msg.Data)) != 100+(n+31)/32*32 {
		return nil, errors.New("fake: bad length")
	}
	out := make([]byte, 32)
	if c.valid[common.BytesToHash(msg.Data[4:36])] {
		copy(out, []byte{0x16, 0x26, 0xba, 0x7e})
	}
	return out, nil
}

func TestVerifyContractWallet(t *testing.T) {
	f := loadVectors(t)
	v := f.Orders[0]
	ctx := context.Background()
	wallet := common.HexToAddress("0x000000000000000000000000000000000000c0de")
	d := vectorDomain(f, v)
	o := v.Order.parse(t)
	o.Maker = wallet
	hash, hash70 := OrderHash(d, &o), OrderHashV70(d, &o)
	walletSig := []byte("any wallet-specific signature format, of any length")
	block := big.NewInt(1234)

	fc := &fakeChain{wallet: wallet, valid: map[common.Hash]bool{hash: true}}
	ver := NewVerifier(d, fc)
	got, err := ver.VerifyOrder(ctx, &o, walletSig, block)
	if err != nil || got != hash {
		t.Fatalf("valid EIP-1271 signature: %s, %v", got.Hex(), err)
	}
	for _, b := range fc.blocks {
		if b == nil || b.Cmp(block) != 0 {
			t.Fatalf("call not pinned to block %v: %v", block, fc.blocks)
		}
	}

	fc.valid = map[common.Hash]bool{hash70: true}
	_, err = ver.VerifyOrder(ctx, &o, walletSig, block)
	wantSigReason(t, err, ReasonSignedV70, orderengine.CodeBadSignature)

	fc.valid = nil
	_, err = ver.VerifyOrder(ctx, &o, walletSig, block)
	wantSigReason(t, err, ReasonEIP1271Rejected, orderengine.CodeBadSignature)

	fc.revert = true
	_, err = ver.VerifyOrder(ctx, &o, walletSig, block)
	wantSigReason(t, err, ReasonEIP1271Rejected, orderengine.CodeBadSignature)

	fc.revert = false
	fc.valid = map[common.Hash]bool{CancelHash(d, hash): true}
	if err := ver.VerifyCancel(ctx, wallet, hash, walletSig, block); err != nil {
		t.Fatalf("EIP-1271 cancel: %v", err)
	}

	// An EOA maker with a wrong signature: code is looked up, none found.
	eoa := v.Order.parse(t)
	_, err = ver.VerifyOrder(ctx, &eoa, walletSig, block)
	wantSigReason(t, err, ReasonMalformed, orderengine.CodeBadSignature)

	// A node failure is not a signature verdict.
	fc.codeErr = errors.New("dial tcp: connection refused")
	_, err = ver.VerifyOrder(ctx, &o, walletSig, block)
	if orderengine.AsError(err).Code != orderengine.CodeChainUnavailable || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("node failure: %v, want CHAIN_UNAVAILABLE keeping the cause", err)
	}
	// An EOA whose signature is right never touches the chain.
	calls := len(fc.blocks)
	if _, err := ver.VerifyOrder(ctx, &eoa, hexutil.MustDecode(v.Signature), block); err != nil {
		t.Fatalf("EOA with a failing node: %v", err)
	}
	if len(fc.blocks) != calls {
		t.Fatal("a valid EOA signature made a chain call")
	}
}

func TestVerifyBatch(t *testing.T) {
	f := loadVectors(t)
	var items []BatchItem
	var want []error
	var hashes []common.Hash
	// Every vector signed by its own key under one domain, some tampered.
	d := NewRouterDomain(4663, common.HexToAddress("0x496830238cF95451B895034d3c5946f0985Ef252"))
	for i := 0; i < 200; i++ {
		v := f.Orders[i%len(f.Orders)]
		o := v.Order.parse(t)
		o.Salt.SetUint64(uint64(i))
		key, _ := crypto.ToECDSA(hexutil.MustDecode(v.PrivateKey))
		h := OrderHash(d, &o)
		sig, err := crypto.Sign(h[:], key)
		if err != nil {
			t.Fatal(err)
		}
		var wantErr error
		if i%7 == 3 {
			o.ReferralFeePpm++
			h = OrderHash(d, &o)
			wantErr = errors.New("bad")
		}
		items = append(items, BatchItem{Order: &o, Signature: sig})
		want = append(want, wantErr)
		hashes = append(hashes, h)
	}
	ver := NewVerifier(d, nil)
	res := ver.VerifyBatch(context.Background(), items, nil)
	if len(res) != len(items) {
		t.Fatalf("%d results for %d items", len(res), len(items))
	}
	for i, r := range res {
		if r.Hash != hashes[i] {
			t.Errorf("item %d: hash %s, want %s", i, r.Hash.Hex(), hashes[i].Hex())
		}
		if (r.Err != nil) != (want[i] != nil) {
			t.Errorf("item %d: err %v, want error %v", i, r.Err, want[i] != nil)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i, r := range ver.VerifyBatch(ctx, items, nil) {
		if !errors.Is(r.Err, context.Canceled) {
			t.Fatalf("cancelled batch item %d: %v", i, r.Err)
		}
	}
	if len(ver.VerifyBatch(context.Background(), nil, nil)) != 0 {
		t.Fatal("empty batch returned results")
	}
	if runtime.GOMAXPROCS(0) < 2 {
		t.Log("GOMAXPROCS < 2: the batch ran on one worker")
	}
}

// TestVerifyCodeFirst covers a maker that has code and whose key also signs
// ECDSA (an EIP-7702-delegated account): by default the ECDSA signature is
// enough; WithCodeFirst asks the code, as the router does.
func TestVerifyCodeFirst(t *testing.T) {
	f := loadVectors(t)
	v := f.Orders[0]
	ctx := context.Background()
	o := v.Order.parse(t)
	sig := hexutil.MustDecode(v.Signature)
	fc := &fakeChain{wallet: o.Maker}

	if _, err := NewVerifier(vectorDomain(f, v), fc).VerifyOrder(ctx, &o, sig, nil); err != nil {
		t.Fatalf("default order of checks: %v", err)
	}
	if len(fc.blocks) != 0 {
		t.Fatalf("default order of checks made %d chain calls for a valid ECDSA signature", len(fc.blocks))
	}
	strict := NewVerifier(vectorDomain(f, v), fc, WithCodeFirst())
	_, err := strict.VerifyOrder(ctx, &o, sig, nil)
	wantSigReason(t, err, ReasonEIP1271Rejected, orderengine.CodeBadSignature)

	fc.valid = map[common.Hash]bool{v.Hash: true}
	if _, err := strict.VerifyOrder(ctx, &o, sig, nil); err != nil {
		t.Fatalf("code first, wallet approves: %v", err)
	}
	// A maker without code falls back to ECDSA under WithCodeFirst too.
	fc.wallet = common.Address{}
	if _, err := strict.VerifyOrder(ctx, &o, sig, nil); err != nil {
		t.Fatalf("code first, EOA: %v", err)
	}
}
