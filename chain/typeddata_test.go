package chain

import (
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/holiman/uint256"

	orderengine "github.com/orderengine/orderengine"
)

func TestTypeStringsMatchEthers(t *testing.T) {
	f := loadVectors(t)
	if f.Types.Order != OrderTypeString {
		t.Errorf("OrderTypeString differs from ethers' encodeType:\n got %s\nwant %s", OrderTypeString, f.Types.Order)
	}
	if f.Types.OrderV70 != OrderTypeStringV70 {
		t.Errorf("OrderTypeStringV70 differs from ethers' encodeType:\n got %s\nwant %s", OrderTypeStringV70, f.Types.OrderV70)
	}
	if f.Types.Cancel != CancelTypeString {
		t.Errorf("CancelTypeString differs from ethers' encodeType:\n got %s\nwant %s", CancelTypeString, f.Types.Cancel)
	}
}

func TestDomainSeparatorMatchesEthers(t *testing.T) {
	f := loadVectors(t)
	for _, d := range f.Domains {
		got := NewDomain(d.Name, d.Version, d.ChainID, d.VerifyingContract)
		if got.Separator() != d.Separator {
			t.Errorf("chain %d: separator %s, ethers %s", d.ChainID, got.Separator().Hex(), d.Separator.Hex())
		}
		if d.Name == DomainName && d.Version == DomainVersion {
			if r := NewRouterDomain(d.ChainID, d.VerifyingContract); r.Separator() != d.Separator {
				t.Errorf("NewRouterDomain(%d) separator %s, ethers %s", d.ChainID, r.Separator().Hex(), d.Separator.Hex())
			}
		}
	}
}

func vectorDomain(f vectorFile, v orderVector) *Domain {
	d := f.Domains[v.Domain]
	return NewDomain(d.Name, d.Version, d.ChainID, d.VerifyingContract)
}

func TestOrderHashesMatchEthers(t *testing.T) {
	f := loadVectors(t)
	h := NewHasher()
	for _, v := range f.Orders {
		t.Run(v.Name, func(t *testing.T) {
			d := vectorDomain(f, v)
			o := v.Order.parse(t)
			if got := h.OrderStructHash(&o); got != v.StructHash {
				t.Errorf("struct hash %s, ethers %s", got.Hex(), v.StructHash.Hex())
			}
			if got := OrderHash(d, &o); got != v.Hash {
				t.Errorf("OrderHash %s, ethers %s", got.Hex(), v.Hash.Hex())
			}
			if got := h.OrderHash(d, &o); got != v.Hash {
				t.Errorf("reused Hasher OrderHash %s, ethers %s", got.Hex(), v.Hash.Hex())
			}
			if got := OrderHashV70(d, &o); got != v.HashV70 {
				t.Errorf("OrderHashV70 %s, ethers %s", got.Hex(), v.HashV70.Hex())
			}
			if got := CancelHash(d, v.Hash); got != v.CancelHash {
				t.Errorf("CancelHash %s, ethers %s", got.Hex(), v.CancelHash.Hex())
			}
			if v.Hash == v.HashV70 {
				t.Error("v7.1 and v7.0 digests are equal")
			}
		})
	}
}

func TestDeriveTriggerAmountOutMatchesVectors(t *testing.T) {
	f := loadVectors(t)
	for _, v := range f.Orders {
		o := v.Order.parse(t)
		got, err := DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, v.DecimalsIn)
		if v.DerivedTriggerAmountOut == nil {
			if e := orderengine.AsError(err); err == nil || e.Code != orderengine.CodeInvalidOrder {
				t.Errorf("%s: derivation overflows uint256 in JS, Go returned %s, %v", v.Name, got.Dec(), err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if got.Dec() != *v.DerivedTriggerAmountOut {
			t.Errorf("%s: derived %s, JS BigInt %s", v.Name, got.Dec(), *v.DerivedTriggerAmountOut)
		}
	}
}

func TestDeriveTriggerAmountOut(t *testing.T) {
	max := new(uint256.Int).SetAllOne()
	cases := []struct {
		amountIn, price string
		decimals        uint8
		want            string
		wantCode        orderengine.Code
	}{
		{"1500000000000000000", "2000123456", 18, "3000185184", ""},
		{"1", "999999", 6, "0", ""}, // floors to zero
		{"3", "1", 0, "3", ""},
		{"123", "0", 18, "0", ""},
		{max.Dec(), "1", 0, max.Dec(), ""},
		{max.Dec(), "10", 1, max.Dec(), ""}, // needs 512-bit intermediate
		{max.Dec(), "2", 0, "", orderengine.CodeInvalidOrder},
		{"1", "1", 78, "", orderengine.CodeInvalidOrder},
	}
	for _, c := range cases {
		a, p := mustDec(t, c.amountIn), mustDec(t, c.price)
		got, err := DeriveTriggerAmountOut(&a, &p, c.decimals)
		if c.wantCode != "" {
			if orderengine.AsError(err).Code != c.wantCode {
				t.Errorf("%s*%s/10^%d: err %v, want %s", c.amountIn, c.price, c.decimals, err, c.wantCode)
			}
			continue
		}
		if err != nil || got.Dec() != c.want {
			t.Errorf("%s*%s/10^%d = %s, %v; want %s", c.amountIn, c.price, c.decimals, got.Dec(), err, c.want)
		}
	}
}

func TestResolveTriggerAmountOut(t *testing.T) {
	a, p := mustDec(t, "1500000000000000000"), mustDec(t, "2000123456")
	got, err := ResolveTriggerAmountOut(&a, &p, 18, nil)
	if err != nil || got.Dec() != "3000185184" {
		t.Fatalf("absent: %s, %v", got.Dec(), err)
	}
	same := mustDec(t, "3000185184")
	if _, err := ResolveTriggerAmountOut(&a, &p, 18, &same); err != nil {
		t.Fatalf("equal supplied value refused: %v", err)
	}
	off := mustDec(t, "3000185185")
	_, err = ResolveTriggerAmountOut(&a, &p, 18, &off)
	e := orderengine.AsError(err)
	if e.Code != orderengine.CodeInvalidOrder || !strings.Contains(e.Message, "order.triggerAmountOut") {
		t.Fatalf("mismatch: %v, want INVALID_ORDER naming order.triggerAmountOut", err)
	}
}

// apitypesHash hashes o with go-ethereum's generic EIP-712 encoder.
func apitypesHash(t testing.TB, d *Domain, o *Order) common.Hash {
	t.Helper()
	td := apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"},
			},
			"Order": {
				{Name: "salt", Type: "uint256"}, {Name: "maker", Type: "address"},
				{Name: "receiver", Type: "address"}, {Name: "tokenIn", Type: "address"},
				{Name: "tokenOut", Type: "address"}, {Name: "amountIn", Type: "uint256"},
				{Name: "triggerPrice", Type: "uint256"}, {Name: "triggerAmountOut", Type: "uint256"},
				{Name: "makerTraits", Type: "uint256"}, {Name: "referrer", Type: "address"},
				{Name: "referralFeePpm", Type: "uint32"},
			},
		},
		PrimaryType: "Order",
		Domain: apitypes.TypedDataDomain{
			Name: d.Name(), Version: d.Version(),
			ChainId:           (*math.HexOrDecimal256)(new(big.Int).SetUint64(d.ChainID())),
			VerifyingContract: d.VerifyingContract().Hex(),
		},
		Message: apitypes.TypedDataMessage{
			"salt": o.Salt.ToBig(), "maker": o.Maker.Hex(), "receiver": o.Receiver.Hex(),
			"tokenIn": o.TokenIn.Hex(), "tokenOut": o.TokenOut.Hex(),
			"amountIn": o.AmountIn.ToBig(), "triggerPrice": o.TriggerPrice.ToBig(),
			"triggerAmountOut": o.TriggerAmountOut.ToBig(), "makerTraits": o.MakerTraits.ToBig(),
			"referrer": o.Referrer.Hex(), "referralFeePpm": new(big.Int).SetUint64(uint64(o.ReferralFeePpm)),
		},
	}
	h, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		t.Fatal(err)
	}
	return common.BytesToHash(h)
}

func randomOrder(r *rand.Rand) Order {
	word := func() uint256.Int {
		var u uint256.Int
		for i := range u {
			// Mix full words with small values and zero.
			switch r.IntN(3) {
			case 0:
				u[i] = r.Uint64()
			case 1:
				u[i] = 0
			default:
				if i == 0 {
					u[i] = r.Uint64N(1000)
				}
			}
		}
		return u
	}
	addr := func() common.Address {
		var a common.Address
		for i := range a {
			a[i] = byte(r.UintN(256))
		}
		return a
	}
	return Order{
		Salt: word(), Maker: addr(), Receiver: addr(), TokenIn: addr(), TokenOut: addr(),
		AmountIn: word(), TriggerPrice: word(), TriggerAmountOut: word(), MakerTraits: word(),
		Referrer: addr(), ReferralFeePpm: r.Uint32(),
	}
}

func TestOrderHashMatchesAPITypes(t *testing.T) {
	f := loadVectors(t)
	for _, v := range f.Orders {
		d := vectorDomain(f, v)
		o := v.Order.parse(t)
		if got, want := OrderHash(d, &o), apitypesHash(t, d, &o); got != want {
			t.Errorf("%s: hand-rolled %s, apitypes %s", v.Name, got.Hex(), want.Hex())
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	h := NewHasher()
	for i := 0; i < 300; i++ {
		d := NewRouterDomain(r.Uint64(), randomOrder(r).Maker)
		o := randomOrder(r)
		if got, want := h.OrderHash(d, &o), apitypesHash(t, d, &o); got != want {
			t.Fatalf("random order %d: hand-rolled %s, apitypes %s (order %+v)", i, got.Hex(), want.Hex(), o)
		}
	}
}

func TestCancelHashMatchesAPITypes(t *testing.T) {
	d := NewRouterDomain(4663, common.HexToAddress("0x496830238cF95451B895034d3c5946f0985Ef252"))
	orderHash := crypto.Keccak256Hash([]byte("some order"))
	td := apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"},
			},
			"OrderCancel": {{Name: "orderHash", Type: "bytes32"}},
		},
		PrimaryType: "OrderCancel",
		Domain: apitypes.TypedDataDomain{Name: DomainName, Version: DomainVersion,
			ChainId: math.NewHexOrDecimal256(4663), VerifyingContract: d.VerifyingContract().Hex()},
		Message: apitypes.TypedDataMessage{"orderHash": orderHash.Hex()},
	}
	want, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		t.Fatal(err)
	}
	if got := CancelHash(d, orderHash); got != common.BytesToHash(want) {
		t.Fatalf("CancelHash %s, apitypes %x", got.Hex(), want)
	}
}

func TestOrderHashDoesNotAllocate(t *testing.T) {
	f := loadVectors(t)
	v := f.Orders[0]
	d := vectorDomain(f, v)
	o := v.Order.parse(t)
	h := NewHasher()
	if n := testing.AllocsPerRun(100, func() { _ = h.OrderHash(d, &o) }); n != 0 {
		t.Fatalf("Hasher.OrderHash allocates %.0f times per call, want 0", n)
	}
}

func TestTypedFieldsMatchTypeStrings(t *testing.T) {
	if got := EncodeType("EIP712Domain", DomainFields()); got != DomainTypeString {
		t.Errorf("domain fields encode to %s", got)
	}
	if got := EncodeType("Order", OrderFields()); got != OrderTypeString {
		t.Errorf("order fields encode to %s", got)
	}
	if got := EncodeType("OrderCancel", CancelFields()); got != CancelTypeString {
		t.Errorf("cancel fields encode to %s", got)
	}
	v70 := OrderFields()
	v70 = append(v70[:7], v70[8:]...) // without triggerAmountOut
	if got := EncodeType("Order", v70); got != OrderTypeStringV70 {
		t.Errorf("v7.0 fields encode to %s", got)
	}
}

// The API's form of the signed struct round-trips through AppendJSON and
// UnmarshalJSON, and a missing field is an error naming it.
func TestOrderJSONRoundTrips(t *testing.T) {
	o := Order{Maker: common.HexToAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"), Receiver: common.Address{9},
		TokenIn: common.Address{1}, TokenOut: common.Address{2}, Referrer: common.Address{3}, ReferralFeePpm: 250}
	o.Salt.SetUint64(0xfeed)
	o.AmountIn.SetUint64(1_000_000)
	o.TriggerPrice.SetUint64(42)
	o.TriggerAmountOut.SetUint64(7)
	o.MakerTraits.Lsh(uint256.NewInt(1), 255)
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"salt":"0x000000000000000000000000000000000000000000000000000000000000feed","maker":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",` +
		`"receiver":"0x0900000000000000000000000000000000000000","tokenIn":"0x0100000000000000000000000000000000000000",` +
		`"tokenOut":"0x0200000000000000000000000000000000000000","amountIn":"1000000","triggerPrice":"42","triggerAmountOut":"7",` +
		`"makerTraits":"57896044618658097711785492504343953926634992332820282019728792003956564819968",` +
		`"referrer":"0x0300000000000000000000000000000000000000","referralFeePpm":250}`
	if string(b) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", b, want)
	}
	var back Order
	if err := json.Unmarshal(b, &back); err != nil || back != o {
		t.Fatalf("decoded %+v, %v; want %+v", back, err, o)
	}
	if err := json.Unmarshal([]byte(`{"salt":"0x01"}`), &back); err == nil || !strings.Contains(err.Error(), "order.maker") {
		t.Fatalf("missing fields: %v", err)
	}
}
