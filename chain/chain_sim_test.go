package chain

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/contracts"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/smartwallet"
)

const simChainID = 4663

// simChain is a simulated chain (chain id 4663) with the router v7.1 and an
// EIP-1271 SmartWallet from contracts/ deployed.
type simChain struct {
	sim         *simulated.Backend
	client      simulated.Client
	router      common.Address
	wallet      common.Address
	owner       *ecdsaKey
	beforeBlock *big.Int // a block before the wallet existed
	block       *big.Int // the block both contracts exist in
}

type ecdsaKey struct {
	addr common.Address
	sign func(digest common.Hash) []byte
}

func newKey(t testing.TB, label string) *ecdsaKey {
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("orderengine chain test " + label)))
	if err != nil {
		t.Fatal(err)
	}
	return &ecdsaKey{
		addr: crypto.PubkeyToAddress(key.PublicKey),
		sign: func(d common.Hash) []byte {
			sig, err := crypto.Sign(d[:], key)
			if err != nil {
				t.Fatal(err)
			}
			sig[64] += 27
			return sig
		},
	}
}

func newSimChain(t *testing.T) *simChain {
	t.Helper()
	deployerKey, err := crypto.ToECDSA(crypto.Keccak256([]byte("orderengine chain test deployer")))
	if err != nil {
		t.Fatal(err)
	}
	deployer := crypto.PubkeyToAddress(deployerKey.PublicKey)
	alloc := types.GenesisAlloc{deployer: {Balance: new(big.Int).Lsh(big.NewInt(1), 100)}}
	sim := simulated.NewBackend(alloc, contracts.WithChainID(simChainID))
	t.Cleanup(func() { _ = sim.Close() })
	c := &simChain{sim: sim, client: sim.Client(), owner: newKey(t, "wallet owner")}
	ctx := context.Background()
	if id, err := c.client.ChainID(ctx); err != nil || id.Int64() != simChainID {
		t.Fatalf("chain id %v, %v", id, err)
	}
	sim.Commit()
	c.beforeBlock = big.NewInt(1)

	auth := bind.NewKeyedTransactor(deployerKey, big.NewInt(simChainID))
	deploy := func(bin string, input []byte) common.Address {
		addr, tx, err := bind.DeployContract(auth, common.FromHex(bin), c.client, input)
		if err != nil {
			t.Fatal(err)
		}
		sim.Commit()
		if r, err := c.client.TransactionReceipt(ctx, tx.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("deploy failed: %v %v", r, err)
		}
		return addr
	}
	sw := smartwallet.NewSmartWallet()
	c.wallet = deploy(smartwallet.SmartWalletMetaData.Bin, sw.PackConstructor(c.owner.addr))
	sr := servicerouter.NewServiceRouter()
	c.router = deploy(servicerouter.ServiceRouterMetaData.Bin,
		sr.PackConstructor(deployer, deployer, common.Address{0x0a}, common.Address{0x0b}))
	head, err := c.client.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.block = new(big.Int).SetUint64(head)
	return c
}

func (c *simChain) call(t *testing.T, to common.Address, data []byte) []byte {
	t.Helper()
	out, err := c.client.CallContract(context.Background(), ethereumCall(to, data), c.block)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRouterAgreesWithGo checks the Solidity router's domainSeparator(),
// hashOrder() and hashCancel() against this package for every golden order.
func TestRouterAgreesWithGo(t *testing.T) {
	c := newSimChain(t)
	sr := servicerouter.NewServiceRouter()
	d := NewRouterDomain(simChainID, c.router)
	sep, err := sr.UnpackDomainSeparator(c.call(t, c.router, sr.PackDomainSeparator()))
	if err != nil || common.Hash(sep) != d.Separator() {
		t.Fatalf("router domainSeparator %x, Go %s (%v)", sep, d.Separator().Hex(), err)
	}
	for _, v := range loadVectors(t).Orders {
		o := v.Order.parse(t)
		bo := servicerouter.Order{
			Salt: o.Salt.ToBig(), Maker: o.Maker, Receiver: o.Receiver, TokenIn: o.TokenIn, TokenOut: o.TokenOut,
			AmountIn: o.AmountIn.ToBig(), TriggerPrice: o.TriggerPrice.ToBig(), TriggerAmountOut: o.TriggerAmountOut.ToBig(),
			MakerTraits: o.MakerTraits.ToBig(), Referrer: o.Referrer, ReferralFeePpm: o.ReferralFeePpm,
		}
		got, err := sr.UnpackHashOrder(c.call(t, c.router, sr.PackHashOrder(bo)))
		if err != nil || common.Hash(got) != OrderHash(d, &o) {
			t.Errorf("%s: router hashOrder %x, Go %s (%v)", v.Name, got, OrderHash(d, &o).Hex(), err)
		}
		hash := OrderHash(d, &o)
		cancel, err := sr.UnpackHashCancel(c.call(t, c.router, sr.PackHashCancel(hash)))
		if err != nil || common.Hash(cancel) != CancelHash(d, hash) {
			t.Errorf("%s: router hashCancel %x, Go %s (%v)", v.Name, cancel, CancelHash(d, hash).Hex(), err)
		}
	}
}

// TestVerifyEIP1271SmartWallet verifies orders and cancels of a maker that is
// the SmartWallet contract, through eth_call on the simulated chain.
func TestVerifyEIP1271SmartWallet(t *testing.T) {
	c := newSimChain(t)
	ctx := context.Background()
	d := NewRouterDomain(simChainID, c.router)
	ver := NewVerifier(d, c.client)
	v := loadVectors(t).Orders[0]
	o := v.Order.parse(t)
	o.Maker = c.wallet
	hash := OrderHash(d, &o)

	got, err := ver.VerifyOrder(ctx, &o, c.owner.sign(hash), c.block)
	if err != nil || got != hash {
		t.Fatalf("owner's signature through the wallet: %s, %v", got.Hex(), err)
	}
	// Latest block works too.
	if _, err := ver.VerifyOrder(ctx, &o, c.owner.sign(hash), nil); err != nil {
		t.Fatalf("at latest block: %v", err)
	}
	if err := ver.VerifyCancel(ctx, c.wallet, hash, c.owner.sign(CancelHash(d, hash)), c.block); err != nil {
		t.Fatalf("wallet cancel: %v", err)
	}

	_, err = ver.VerifyOrder(ctx, &o, c.owner.sign(OrderHashV70(d, &o)), c.block)
	wantSigReason(t, err, ReasonSignedV70, "BAD_SIGNATURE")

	_, err = ver.VerifyOrder(ctx, &o, newKey(t, "stranger").sign(hash), c.block)
	wantSigReason(t, err, ReasonEIP1271Rejected, "BAD_SIGNATURE")

	_, err = ver.VerifyOrder(ctx, &o, hexutil.MustDecode("0x1234"), c.block)
	wantSigReason(t, err, ReasonEIP1271Rejected, "BAD_SIGNATURE")

	// Pinned to a block before the wallet existed, the maker has no code, so
	// the owner's ECDSA signature is just a signature by someone else.
	_, err = ver.VerifyOrder(ctx, &o, c.owner.sign(hash), c.beforeBlock)
	wantSigReason(t, err, ReasonWrongSigner, "BAD_SIGNATURE")
}

func ethereumCall(to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: data}
}

// TestRouterTraitsRulesAgree is a differential test of the class rules: for
// many traits around every boundary, the router's activate (eth_call, a
// correctly signed order) succeeds exactly when ValidateOrder accepts the
// order for its own class, and otherwise reverts InvalidTraits.
func TestRouterTraitsRulesAgree(t *testing.T) {
	c := newSimChain(t)
	ctx := context.Background()
	sr := servicerouter.NewServiceRouter()
	d := NewRouterDomain(simChainID, c.router)
	maker := newKey(t, "differential maker")
	invalidTraits := servicerouter.ServiceRouterInvalidTraitsErrorID().Bytes()[:4]
	r := rand.New(rand.NewPCG(7, 11))
	pick := func(vals ...uint64) uint64 { return vals[r.IntN(len(vals))] }
	accepted, rejected := 0, 0
	for i := 0; i < 400; i++ {
		// A valid order of a random class, then (half the time) one random
		// mutation, most of them at a boundary.
		price, amount := uint64(7), pick(10, 1000)
		var tr Traits
		switch r.IntN(5) {
		case 0:
			tr = Traits{Flags: Flags(pick(0, uint64(FlagAllowPartialFill)))}
		case 1:
			tr = Traits{Flags: FlagStopLoss}
		case 2:
			tr = Traits{Flags: FlagTakeProfit}
		case 3:
			tr = Traits{Flags: FlagDCA | Flags(pick(0, uint64(FlagShortCircuit))), IntervalSeconds: 3600, TotalExecutions: 10,
				KindParamPpm: uint32(pick(0, PpmOne))}
			if r.IntN(2) == 0 {
				tr.Flags |= FlagPriceGated
			} else {
				price = 0
			}
		default:
			tr = Traits{Flags: FlagTrailing, KindParamPpm: uint32(pick(1, PpmOne-1))}
			price = 0
		}
		tr.Flags |= Flags(pick(0, uint64(FlagUnwrapNative)))
		tr.SlippagePpm = uint32(pick(0, PpmOne))
		tr.Nonce, tr.Deadline = uint64(i), pick(0, maxUint40)
		if r.IntN(2) == 0 {
			switch r.IntN(9) {
			case 0:
				tr.Flags ^= 1 << r.IntN(8)
			case 1:
				tr.SlippagePpm = PpmOne + 1
			case 2:
				tr.KindParamPpm = uint32(pick(0, 1, PpmOne-1, PpmOne, PpmOne+1))
			case 3:
				tr.IntervalSeconds = uint32(pick(0, 1))
			case 4:
				tr.TotalExecutions = uint16(pick(0, 1, 11, 2000))
			case 5:
				price = pick(0, 7)
			case 6:
				amount = pick(1, 9)
			case 7:
				tr.Flags |= Flags(pick(uint64(FlagStopLoss), uint64(FlagTakeProfit), uint64(FlagTrailing), uint64(FlagDCA)))
			default:
				tr.Flags |= Flags(pick(uint64(FlagAllowPartialFill), uint64(FlagPriceGated), uint64(FlagShortCircuit)))
			}
		}
		word, err := EncodeTraits(tr)
		if err != nil {
			t.Fatal(err)
		}
		o := Order{
			Salt: *uint256.NewInt(uint64(i)), Maker: maker.addr, Receiver: maker.addr,
			TokenIn: common.Address{0x11}, TokenOut: common.Address{0x22},
			AmountIn: *uint256.NewInt(amount), TriggerPrice: *uint256.NewInt(price),
			MakerTraits: word, Referrer: common.Address{0x33},
		}
		o.TriggerAmountOut, err = DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, 0)
		if err != nil {
			t.Fatal(err)
		}
		goErr := error(nil)
		if class, err := tr.Class(); err != nil {
			goErr = err
		} else {
			_, goErr = ValidateOrder(class, &o, 1_800_000_000)
		}
		hash := OrderHash(d, &o)
		bo := servicerouter.Order{
			Salt: o.Salt.ToBig(), Maker: o.Maker, Receiver: o.Receiver, TokenIn: o.TokenIn, TokenOut: o.TokenOut,
			AmountIn: o.AmountIn.ToBig(), TriggerPrice: o.TriggerPrice.ToBig(), TriggerAmountOut: o.TriggerAmountOut.ToBig(),
			MakerTraits: o.MakerTraits.ToBig(), Referrer: o.Referrer, ReferralFeePpm: o.ReferralFeePpm,
		}
		_, callErr := c.client.CallContract(ctx, ethereumCall(c.router, sr.PackActivate(bo, maker.sign(hash))), nil)
		switch {
		case goErr == nil && callErr != nil:
			t.Errorf("case %d %v price %s amount %s: Go accepts, router reverts %v %x", i, tr, o.TriggerPrice.Dec(), o.AmountIn.Dec(), callErr, revertData(callErr))
		case goErr != nil && callErr == nil:
			t.Errorf("case %d %v price %s amount %s: router accepts, Go refuses: %v", i, tr, o.TriggerPrice.Dec(), o.AmountIn.Dec(), goErr)
		case goErr != nil && !bytes.HasPrefix(revertData(callErr), invalidTraits):
			t.Errorf("case %d %v: router reverts %x, not InvalidTraits (Go: %v)", i, tr, revertData(callErr), goErr)
		case goErr == nil:
			accepted++
		default:
			rejected++
		}
	}
	t.Logf("%d orders accepted by both, %d refused by both", accepted, rejected)
	if accepted < 40 || rejected < 40 {
		t.Fatalf("the generator is too one-sided: %d accepted, %d rejected", accepted, rejected)
	}
}

// revertData extracts the revert data of an eth_call error.
func revertData(err error) []byte {
	var de rpc.DataError
	if errors.As(err, &de) {
		if s, ok := de.ErrorData().(string); ok {
			return common.FromHex(s)
		}
	}
	return nil
}

// TestRouterSignatureFormsAgree: for each signature form (65-byte v 27/28
// and 0/1, EIP-2098 compact, the high-s twin, a wrong v, another signer),
// the router's activate accepts exactly when VerifyOrder does.
func TestRouterSignatureFormsAgree(t *testing.T) {
	c := newSimChain(t)
	ctx := context.Background()
	sr := servicerouter.NewServiceRouter()
	d := NewRouterDomain(simChainID, c.router)
	maker := newKey(t, "forms maker")
	tr, _ := EncodeTraits(Traits{SlippagePpm: 5000})
	o := Order{
		Salt: *uint256.NewInt(42), Maker: maker.addr, Receiver: maker.addr,
		TokenIn: common.Address{0x11}, TokenOut: common.Address{0x22},
		AmountIn: *uint256.NewInt(1000), TriggerPrice: *uint256.NewInt(3), MakerTraits: tr,
	}
	o.TriggerAmountOut, _ = DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, 0)
	hash := OrderHash(d, &o)
	good := maker.sign(hash)
	parsed, err := ParseSignature(good)
	if err != nil {
		t.Fatal(err)
	}
	zeroOne := bytes.Clone(good)
	zeroOne[64] -= 27
	high := bytes.Clone(good)
	new(big.Int).Sub(secpNBig(), new(big.Int).SetBytes(good[32:64])).FillBytes(high[32:64])
	high[64] = 55 - high[64]
	badV := bytes.Clone(good)
	badV[64] = 29
	forms := []struct {
		name string
		sig  []byte
		ok   bool
	}{
		{"65-byte v 27/28", good, true},
		{"65-byte v 0/1", zeroOne, true},
		{"EIP-2098 compact", parsed.Compact(), true},
		{"high-s twin", high, false},
		{"v 29", badV, false},
		{"another signer", newKey(t, "someone else").sign(hash), false},
		{"v7.0 digest", maker.sign(OrderHashV70(d, &o)), false},
	}
	ver := NewVerifier(d, c.client, WithCodeFirst())
	bo := servicerouter.Order{
		Salt: o.Salt.ToBig(), Maker: o.Maker, Receiver: o.Receiver, TokenIn: o.TokenIn, TokenOut: o.TokenOut,
		AmountIn: o.AmountIn.ToBig(), TriggerPrice: o.TriggerPrice.ToBig(), TriggerAmountOut: o.TriggerAmountOut.ToBig(),
		MakerTraits: o.MakerTraits.ToBig(), Referrer: o.Referrer, ReferralFeePpm: o.ReferralFeePpm,
	}
	badSig := servicerouter.ServiceRouterBadSignatureErrorID().Bytes()[:4]
	for _, f := range forms {
		_, goErr := ver.VerifyOrder(ctx, &o, f.sig, c.block)
		_, callErr := c.client.CallContract(ctx, ethereumCall(c.router, sr.PackActivate(bo, f.sig)), c.block)
		if (goErr == nil) != f.ok || (callErr == nil) != f.ok {
			t.Errorf("%s: Go %v, router %v %x; want accepted=%t", f.name, goErr, callErr, revertData(callErr), f.ok)
		}
		if callErr != nil && !bytes.HasPrefix(revertData(callErr), badSig) {
			t.Errorf("%s: router reverts %x, not BadSignature", f.name, revertData(callErr))
		}
	}
}
