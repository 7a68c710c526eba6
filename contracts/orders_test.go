package contracts

import (
	"crypto/ecdsa"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/oracle"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// traits is contract.md section 2's makerTraits, field by field.
type traits struct {
	allowedSender common.Address // low 80 bits are used
	deadline      uint64
	nonce         uint64
	slippagePpm   uint64
	kindParamPpm  uint64
	interval      uint64
	total         uint64
	flags         []uint // flag bit numbers
}

// makerTraits flag bits.
const (
	flagStopLoss     = 255
	flagTakeProfit   = 254
	flagTrailing     = 253
	flagDCA          = 252
	flagPriceGated   = 251
	flagAllowPartial = 250
	flagShortCircuit = 249
	flagUnwrapNative = 248
)

func (tr traits) encode() *big.Int {
	v := new(big.Int).SetBytes(tr.allowedSender.Bytes()[10:]) // low 80 bits
	put := func(x uint64, shift uint) { v.Or(v, new(big.Int).Lsh(new(big.Int).SetUint64(x), shift)) }
	put(tr.deadline, 80)
	put(tr.nonce, 120)
	put(tr.slippagePpm, 160)
	put(tr.kindParamPpm, 184)
	put(tr.interval, 208)
	put(tr.total, 232)
	for _, f := range tr.flags {
		v.SetBit(v, int(f), 1)
	}
	return v
}

var orderTypes = apitypes.Types{
	"EIP712Domain": {
		{Name: "name", Type: "string"},
		{Name: "version", Type: "string"},
		{Name: "chainId", Type: "uint256"},
		{Name: "verifyingContract", Type: "address"},
	},
	"Order": {
		{Name: "salt", Type: "uint256"},
		{Name: "maker", Type: "address"},
		{Name: "receiver", Type: "address"},
		{Name: "tokenIn", Type: "address"},
		{Name: "tokenOut", Type: "address"},
		{Name: "amountIn", Type: "uint256"},
		{Name: "triggerPrice", Type: "uint256"},
		{Name: "triggerAmountOut", Type: "uint256"},
		{Name: "makerTraits", Type: "uint256"},
		{Name: "referrer", Type: "address"},
		{Name: "referralFeePpm", Type: "uint32"},
	},
}

// orderDigest is the EIP-712 digest per go-ethereum's apitypes (the
// reference implementation the router must agree with).
func (e *env) orderDigest(o servicerouter.Order) []byte {
	e.t.Helper()
	td := apitypes.TypedData{
		Types:       orderTypes,
		PrimaryType: "Order",
		Domain: apitypes.TypedDataDomain{
			Name: "ServiceRouter", Version: "7",
			ChainId:           math.NewHexOrDecimal256(testChainID),
			VerifyingContract: e.d.Router.Hex(),
		},
		Message: apitypes.TypedDataMessage{
			"salt":             o.Salt.String(),
			"maker":            o.Maker.Hex(),
			"receiver":         o.Receiver.Hex(),
			"tokenIn":          o.TokenIn.Hex(),
			"tokenOut":         o.TokenOut.Hex(),
			"amountIn":         o.AmountIn.String(),
			"triggerPrice":     o.TriggerPrice.String(),
			"triggerAmountOut": o.TriggerAmountOut.String(),
			"makerTraits":      o.MakerTraits.String(),
			"referrer":         o.Referrer.Hex(),
			"referralFeePpm":   new(big.Int).SetUint64(uint64(o.ReferralFeePpm)).String(),
		},
	}
	h, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		e.t.Fatalf("typed data: %v", err)
	}
	return h
}

// sign returns the 65-byte r||s||v (v 27/28) signature of the order by key.
func (e *env) sign(key *ecdsa.PrivateKey, o servicerouter.Order) []byte {
	e.t.Helper()
	return signDigest(e.t, key, e.orderDigest(o))
}

func signDigest(t *testing.T, key *ecdsa.PrivateKey, digest []byte) []byte {
	t.Helper()
	sig, err := crypto.Sign(digest, key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return sig
}

// newOrder is a maker's order of amountIn tokenIn for tokenOut with the
// given traits; the referral leg goes to e.referrer at 300 ppm.
func (e *env) newOrder(tokenIn, tokenOut string, amountIn, triggerPrice *big.Int, tr traits) servicerouter.Order {
	e.t.Helper()
	tin, _ := e.d.Token(tokenIn)
	tao := new(big.Int)
	if triggerPrice.Sign() > 0 {
		tao.Mul(amountIn, triggerPrice).Quo(tao, pow10(tin.Decimals))
	}
	return servicerouter.Order{
		Salt:             new(big.Int).SetBytes(crypto.Keccak256([]byte(e.t.Name()), amountIn.Bytes(), tr.encode().Bytes())),
		Maker:            e.maker.addr,
		Receiver:         e.receiver.addr,
		TokenIn:          tin.Address,
		TokenOut:         e.tok(tokenOut),
		AmountIn:         amountIn,
		TriggerPrice:     triggerPrice,
		TriggerAmountOut: tao,
		MakerTraits:      tr.encode(),
		Referrer:         e.referrer.addr,
		ReferralFeePpm:   300,
	}
}

// route is the executor's calls for one pool: approve, then swap the
// executor's whole balance of tokenIn with the output to the executor.
func (e *env) route(pool, tokenIn common.Address, amount *big.Int) []servicerouter.Call {
	return routeCalls(e.d.Executor, pool, tokenIn, amount)
}

// routeCalls is a one-pool route run by the executor `exec`.
func routeCalls(exec, pool, tokenIn common.Address, amount *big.Int) []servicerouter.Call {
	cp := constantproductpool.NewConstantProductPool()
	tt := testtoken.NewTestToken()
	return []servicerouter.Call{
		{Target: tokenIn, Data: tt.PackApprove(pool, amount)},
		{Target: pool, Data: cp.PackSwap(tokenIn, maxUint256(), big.NewInt(0), exec)},
	}
}

// fillData is the calldata of fillOrder.
func (e *env) fillData(o servicerouter.Order, sig []byte, fillIn *big.Int, calls []servicerouter.Call, minOut *big.Int) []byte {
	return e.router.PackFillOrder(o, sig, fillIn, calls, minOut)
}

// feeCell returns the test fee table's cell.
func feeCell(kind, class uint8) FeeCell {
	for _, f := range testFees {
		if f.Kind == kind && f.Class == class {
			return f
		}
	}
	panic("no fee cell")
}

// legs splits gross by the fee cell and the referral ppm (floor per leg).
type legs struct{ gross, protocol, referral, keeper, net *big.Int }

func splitFees(gross *big.Int, cell FeeCell, referralPpm uint32, withKeeper bool) legs {
	leg := func(ppm uint32) *big.Int {
		v := new(big.Int).Mul(gross, big.NewInt(int64(ppm)))
		return v.Quo(v, big.NewInt(1_000_000))
	}
	l := legs{gross: gross, protocol: leg(cell.ProtocolPpm), referral: leg(referralPpm), keeper: new(big.Int)}
	if withKeeper {
		l.keeper = leg(cell.KeeperPpm)
	}
	l.net = new(big.Int).Sub(gross, l.protocol)
	l.net.Sub(l.net, l.referral).Sub(l.net, l.keeper)
	return l
}

// filledEvent returns the OrderFilled event of a receipt.
func (e *env) filledEvent(r *types.Receipt) *servicerouter.ServiceRouterOrderFilled {
	e.t.Helper()
	for _, l := range r.Logs {
		if ev, err := e.router.UnpackOrderFilledEvent(l); err == nil {
			return ev
		}
	}
	e.t.Fatalf("no OrderFilled event")
	return nil
}

// countEvents counts the router's logs with the given event name.
func (e *env) countEvents(r *types.Receipt, name string) int {
	id := e.routerABI.Events[name].ID
	n := 0
	for _, l := range r.Logs {
		if l.Address == e.d.Router && len(l.Topics) > 0 && l.Topics[0] == id {
			n++
		}
	}
	return n
}

// fillState reads the router's progress of an order.
func (e *env) fillState(hash [32]byte) servicerouter.FilledOutput {
	e.t.Helper()
	out, err := e.call(e.deployer.addr, e.d.Router, e.router.PackFilled(hash))
	if err != nil {
		e.t.Fatal(err)
	}
	st, err := e.router.UnpackFilled(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}

// setPrice writes an oracle answer (USD, 8 decimals) as the deployer.
func (e *env) setPrice(symbol string, usd8 *big.Int) {
	e.t.Helper()
	o := oracle.NewOracle()
	e.send(e.deployer, e.d.Oracle, o.PackSetPrice(e.tok(symbol), usd8), nil)
}
