package chain

import (
	"encoding/json"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	orderengine "github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/internal/jsonw"
)

// The EIP-712 type strings of router generation v7.1 (contract.md section 1).
// They are part of the wire contract: GET /v1/config serves them verbatim and
// clients sign with them. Do not change them without a router upgrade.
const (
	// DomainTypeString is the EIP-712 domain type.
	DomainTypeString = "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
	// OrderTypeString is the v7.1 Order type, with triggerAmountOut.
	OrderTypeString = "Order(uint256 salt,address maker,address receiver,address tokenIn,address tokenOut,uint256 amountIn,uint256 triggerPrice,uint256 triggerAmountOut,uint256 makerTraits,address referrer,uint32 referralFeePpm)"
	// OrderTypeStringV70 is the v7.0 Order type without triggerAmountOut. The
	// server never accepts it; it only recognises signatures made with it to
	// explain the rejection.
	OrderTypeStringV70 = "Order(uint256 salt,address maker,address receiver,address tokenIn,address tokenOut,uint256 amountIn,uint256 triggerPrice,uint256 makerTraits,address referrer,uint32 referralFeePpm)"
	// CancelTypeString is the off-chain cancel type, signed under the same
	// domain as orders.
	CancelTypeString = "OrderCancel(bytes32 orderHash)"

	// DomainName and DomainVersion are the router's signing domain name and
	// version.
	DomainName    = "ServiceRouter"
	DomainVersion = "7"
)

// The type hashes are keccak256 of the type strings. They are fixed arrays,
// so they are immutable.
var (
	domainTypeHash   = crypto.Keccak256Hash([]byte(DomainTypeString))
	orderTypeHash    = crypto.Keccak256Hash([]byte(OrderTypeString))
	orderTypeHashV70 = crypto.Keccak256Hash([]byte(OrderTypeStringV70))
	cancelTypeHash   = crypto.Keccak256Hash([]byte(CancelTypeString))
)

// Order is the signed order struct of router v7.1, field for field.
//
// Amounts are uint256.Int values rather than *big.Int: they are fixed-size
// arrays, copy without allocation, and write their 32-byte ABI word directly,
// which keeps hashing allocation-free. Convert with ToBig/MustFromBig where a
// big.Int is needed.
type Order struct {
	Salt             uint256.Int
	Maker            common.Address
	Receiver         common.Address
	TokenIn          common.Address
	TokenOut         common.Address
	AmountIn         uint256.Int
	TriggerPrice     uint256.Int
	TriggerAmountOut uint256.Int
	MakerTraits      uint256.Int
	Referrer         common.Address
	ReferralFeePpm   uint32
}

// Domain is an EIP-712 signing domain with its separator computed once at
// construction. A Domain is immutable and safe for concurrent use.
type Domain struct {
	name              string
	version           string
	chainID           uint64
	verifyingContract common.Address
	separator         common.Hash
}

// NewRouterDomain returns the router's signing domain: name ServiceRouter,
// version 7, the given chain id and router address.
func NewRouterDomain(chainID uint64, router common.Address) *Domain {
	return NewDomain(DomainName, DomainVersion, chainID, router)
}

// NewDomain returns a signing domain with arbitrary name and version. The
// engine uses NewRouterDomain; this exists for tests and diagnostics.
func NewDomain(name, version string, chainID uint64, verifyingContract common.Address) *Domain {
	d := &Domain{name: name, version: version, chainID: chainID, verifyingContract: verifyingContract}
	var buf [5 * 32]byte
	copy(buf[0:32], domainTypeHash[:])
	nameHash := crypto.Keccak256Hash([]byte(name))
	copy(buf[32:64], nameHash[:])
	versionHash := crypto.Keccak256Hash([]byte(version))
	copy(buf[64:96], versionHash[:])
	new(uint256.Int).SetUint64(chainID).WriteToSlice(buf[96:128])
	copy(buf[128+12:160], verifyingContract[:])
	d.separator = crypto.Keccak256Hash(buf[:])
	return d
}

// Name is the domain's name.
func (d *Domain) Name() string { return d.name }

// Version is the domain's version.
func (d *Domain) Version() string { return d.version }

// ChainID is the domain's chain id.
func (d *Domain) ChainID() uint64 { return d.chainID }

// VerifyingContract is the domain's verifying contract (the router).
func (d *Domain) VerifyingContract() common.Address { return d.verifyingContract }

// Separator is the EIP-712 domain separator (hashStruct of the domain).
func (d *Domain) Separator() common.Hash { return d.separator }

// orderWords is the size of the largest struct encoding: the type hash and
// eleven fields of the v7.1 Order.
const orderWords = 12

// Hasher computes order and cancel hashes without allocating. It holds a
// keccak state and an encoding buffer, so it is not safe for concurrent use;
// give each goroutine its own (Verifier pools them).
type Hasher struct {
	k   crypto.KeccakState
	buf [orderWords * 32]byte
	pre [2 + 32 + 32]byte
	out common.Hash
}

// NewHasher returns a Hasher.
func NewHasher() *Hasher {
	return &Hasher{k: crypto.NewKeccakState()}
}

// sum returns keccak256(data). The output goes through h.out because a
// local array passed to the interface method would escape to the heap.
func (h *Hasher) sum(data []byte) common.Hash {
	h.k.Reset()
	h.k.Write(data)
	h.k.Read(h.out[:])
	return h.out
}

// digest returns keccak256(0x19 0x01 || separator || structHash).
func (h *Hasher) digest(d *Domain, structHash common.Hash) common.Hash {
	h.pre[0], h.pre[1] = 0x19, 0x01
	copy(h.pre[2:34], d.separator[:])
	copy(h.pre[34:66], structHash[:])
	return h.sum(h.pre[:])
}

// putAddress writes a as a left-padded ABI word at word index i.
func (h *Hasher) putAddress(i int, a common.Address) {
	w := h.buf[i*32 : i*32+32]
	clear(w[:12])
	copy(w[12:], a[:])
}

func (h *Hasher) putUint(i int, v *uint256.Int) {
	v.WriteToSlice(h.buf[i*32 : i*32+32])
}

// encodeOrder writes typeHash and the order's fields as ABI words and returns
// the encoded length. withTrigger selects v7.1 (true) or v7.0 (false).
func (h *Hasher) encodeOrder(o *Order, withTrigger bool) int {
	i := 0
	if withTrigger {
		copy(h.buf[0:32], orderTypeHash[:])
	} else {
		copy(h.buf[0:32], orderTypeHashV70[:])
	}
	i++
	h.putUint(i, &o.Salt)
	i++
	h.putAddress(i, o.Maker)
	i++
	h.putAddress(i, o.Receiver)
	i++
	h.putAddress(i, o.TokenIn)
	i++
	h.putAddress(i, o.TokenOut)
	i++
	h.putUint(i, &o.AmountIn)
	i++
	h.putUint(i, &o.TriggerPrice)
	i++
	if withTrigger {
		h.putUint(i, &o.TriggerAmountOut)
		i++
	}
	h.putUint(i, &o.MakerTraits)
	i++
	h.putAddress(i, o.Referrer)
	i++
	w := h.buf[i*32 : i*32+32]
	clear(w[:28])
	w[28], w[29], w[30], w[31] = byte(o.ReferralFeePpm>>24), byte(o.ReferralFeePpm>>16), byte(o.ReferralFeePpm>>8), byte(o.ReferralFeePpm)
	i++
	return i * 32
}

// OrderStructHash returns hashStruct(order) under the v7.1 type.
func (h *Hasher) OrderStructHash(o *Order) common.Hash {
	n := h.encodeOrder(o, true)
	return h.sum(h.buf[:n])
}

// OrderHash returns the v7.1 EIP-712 digest of o under d: the order hash the
// API serves and the router computes.
func (h *Hasher) OrderHash(d *Domain, o *Order) common.Hash {
	return h.digest(d, h.OrderStructHash(o))
}

// OrderHashV70 returns the EIP-712 digest of o under the v7.0 Order type
// (without triggerAmountOut). It is used only to diagnose stale signatures.
func (h *Hasher) OrderHashV70(d *Domain, o *Order) common.Hash {
	n := h.encodeOrder(o, false)
	return h.digest(d, h.sum(h.buf[:n]))
}

// CancelHash returns the EIP-712 digest of OrderCancel(orderHash) under d.
func (h *Hasher) CancelHash(d *Domain, orderHash common.Hash) common.Hash {
	copy(h.buf[0:32], cancelTypeHash[:])
	copy(h.buf[32:64], orderHash[:])
	return h.digest(d, h.sum(h.buf[:64]))
}

// OrderHash returns the v7.1 EIP-712 digest of o under d. It allocates a
// Hasher; hot paths keep their own Hasher.
func OrderHash(d *Domain, o *Order) common.Hash {
	return NewHasher().OrderHash(d, o)
}

// OrderHashV70 returns the v7.0 EIP-712 digest of o under d (diagnostics only).
func OrderHashV70(d *Domain, o *Order) common.Hash {
	return NewHasher().OrderHashV70(d, o)
}

// CancelHash returns the EIP-712 digest of OrderCancel(orderHash) under d.
func CancelHash(d *Domain, orderHash common.Hash) common.Hash {
	return NewHasher().CancelHash(d, orderHash)
}

// maxDecimals is the largest token decimals for which 10^decimals fits in a
// uint256 (10^77 < 2^256 < 10^78).
const maxDecimals = 77

// DeriveTriggerAmountOut returns floor(amountIn * triggerPrice /
// 10^decimalsIn), the value the v7.1 struct signs as triggerAmountOut (0 when
// triggerPrice is 0). The product is computed in 512 bits; a result that does
// not fit 256 bits, or decimals above 77, is an INVALID_ORDER error.
func DeriveTriggerAmountOut(amountIn, triggerPrice *uint256.Int, decimalsIn uint8) (uint256.Int, error) {
	var out uint256.Int
	if triggerPrice.IsZero() || amountIn.IsZero() {
		return out, nil
	}
	if decimalsIn > maxDecimals {
		return out, orderengine.Errorf(orderengine.CodeInvalidOrder, "tokenIn decimals %d are out of range (at most %d)", decimalsIn, maxDecimals)
	}
	var scale, step uint256.Int
	p := uint64(1)
	for range min(decimalsIn, 19) { // 10^19 < 2^64
		p *= 10
	}
	scale.SetUint64(p)
	if decimalsIn > 19 {
		step.SetUint64(10)
		for range decimalsIn - 19 {
			scale.Mul(&scale, &step)
		}
	}
	// The common case: the product fits 256 bits and one division does.
	if _, overflow := out.MulOverflow(amountIn, triggerPrice); !overflow {
		return *out.Div(&out, &scale), nil
	}
	if _, overflow := out.MulDivOverflow(amountIn, triggerPrice, &scale); overflow {
		return uint256.Int{}, orderengine.Errorf(orderengine.CodeInvalidOrder, "order.triggerAmountOut: amountIn * triggerPrice / 10^%d overflows uint256", decimalsIn)
	}
	return out, nil
}

// ResolveTriggerAmountOut derives triggerAmountOut for o and checks it
// against the client's value when one was supplied (nil when the payload
// omitted it). A differing value is an INVALID_ORDER error naming the field
// and both values. It returns the derived value, which is the one to hash.
func ResolveTriggerAmountOut(amountIn, triggerPrice *uint256.Int, decimalsIn uint8, supplied *uint256.Int) (uint256.Int, error) {
	derived, err := DeriveTriggerAmountOut(amountIn, triggerPrice, decimalsIn)
	if err != nil {
		return derived, err
	}
	if supplied != nil && !supplied.Eq(&derived) {
		return derived, orderengine.Errorf(orderengine.CodeInvalidOrder,
			"order.triggerAmountOut is %s but floor(amountIn * triggerPrice / 10^%d) is %s",
			supplied.Dec(), decimalsIn, derived.Dec())
	}
	return derived, nil
}

// TypedField is one member of an EIP-712 struct type, in the form wallets
// and ethers take it ({name, type}).
type TypedField struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// DomainFields returns the EIP712Domain members, in order.
func DomainFields() []TypedField {
	return []TypedField{
		{"name", "string"}, {"version", "string"},
		{"chainId", "uint256"}, {"verifyingContract", "address"},
	}
}

// OrderFields returns the v7.1 Order members, in signing order. GET
// /v1/config serves them so clients sign with exactly this type.
func OrderFields() []TypedField {
	return []TypedField{
		{"salt", "uint256"}, {"maker", "address"}, {"receiver", "address"},
		{"tokenIn", "address"}, {"tokenOut", "address"}, {"amountIn", "uint256"},
		{"triggerPrice", "uint256"}, {"triggerAmountOut", "uint256"},
		{"makerTraits", "uint256"}, {"referrer", "address"}, {"referralFeePpm", "uint32"},
	}
}

// CancelFields returns the OrderCancel members.
func CancelFields() []TypedField {
	return []TypedField{{"orderHash", "bytes32"}}
}

// EncodeType renders a struct type string from its name and members, as
// EIP-712 encodeType does for a type without nested structs.
func EncodeType(name string, fields []TypedField) string {
	b := []byte(name + "(")
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, f.Type+" "+f.Name...)
	}
	return string(append(b, ')'))
}

// AppendJSON appends o as the API shows the signed struct (the "order"
// object of the submit body and of an order's detail): addresses EIP-55,
// amounts decimal strings, the salt as 0x and 64 hex digits.
func (o *Order) AppendJSON(b []byte) []byte {
	salt := o.Salt.Bytes32()
	b = append(b, `{"salt":`...)
	b = jsonw.Hex(b, salt[:])
	for _, f := range [...]struct {
		key  string
		addr *common.Address
		num  *uint256.Int
	}{
		{`,"maker":`, &o.Maker, nil}, {`,"receiver":`, &o.Receiver, nil}, {`,"tokenIn":`, &o.TokenIn, nil},
		{`,"tokenOut":`, &o.TokenOut, nil}, {`,"amountIn":`, nil, &o.AmountIn}, {`,"triggerPrice":`, nil, &o.TriggerPrice},
		{`,"triggerAmountOut":`, nil, &o.TriggerAmountOut}, {`,"makerTraits":`, nil, &o.MakerTraits}, {`,"referrer":`, &o.Referrer, nil},
	} {
		b = append(b, f.key...)
		if f.addr != nil {
			b = append(b, '"')
			b = append(b, Checksum(*f.addr)...)
			b = append(b, '"')
		} else {
			b = jsonw.Dec(b, f.num)
		}
	}
	b = append(b, `,"referralFeePpm":`...)
	b = jsonw.Uint(b, uint64(o.ReferralFeePpm))
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler with AppendJSON.
func (o Order) MarshalJSON() ([]byte, error) { return o.AppendJSON(nil), nil }

// UnmarshalJSON implements json.Unmarshaler for the API's form of the
// signed struct (what AppendJSON writes): every field is required.
func (o *Order) UnmarshalJSON(data []byte) error {
	var w struct {
		Salt, Maker, Receiver, TokenIn, TokenOut, AmountIn    *string
		TriggerPrice, TriggerAmountOut, MakerTraits, Referrer *string
		ReferralFeePpm                                        *uint32
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	var err error
	req := func(field string, v *string) string {
		if v == nil && err == nil {
			err = fieldErr("order."+field, "is required")
		}
		if v == nil {
			return ""
		}
		return *v
	}
	addr := func(field string, v *string, dst *common.Address) {
		s := req(field, v)
		if err == nil {
			*dst, err = ParseAddress("order."+field, s)
		}
	}
	num := func(field string, v *string, dst *uint256.Int, parse func(string, string) (uint256.Int, error)) {
		s := req(field, v)
		if err == nil {
			*dst, err = parse("order."+field, s)
		}
	}
	num("salt", w.Salt, &o.Salt, ParseUint256)
	addr("maker", w.Maker, &o.Maker)
	addr("receiver", w.Receiver, &o.Receiver)
	addr("tokenIn", w.TokenIn, &o.TokenIn)
	addr("tokenOut", w.TokenOut, &o.TokenOut)
	num("amountIn", w.AmountIn, &o.AmountIn, ParseDecimalUint256)
	num("triggerPrice", w.TriggerPrice, &o.TriggerPrice, ParseDecimalUint256)
	num("triggerAmountOut", w.TriggerAmountOut, &o.TriggerAmountOut, ParseDecimalUint256)
	num("makerTraits", w.MakerTraits, &o.MakerTraits, ParseDecimalUint256)
	addr("referrer", w.Referrer, &o.Referrer)
	if w.ReferralFeePpm == nil && err == nil {
		err = fieldErr("order.referralFeePpm", "is required")
	}
	if err == nil {
		o.ReferralFeePpm = *w.ReferralFeePpm
	}
	return err
}
