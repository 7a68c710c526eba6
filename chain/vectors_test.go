package chain

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// The golden vectors are written by testdata/ethers/gen.js (make vectors)
// with ethers v6, an implementation independent of this package.

type vectorFile struct {
	Generator string `json:"generator"`
	Types     struct {
		Order    string `json:"order"`
		OrderV70 string `json:"orderV70"`
		Cancel   string `json:"cancel"`
	} `json:"types"`
	Domains []struct {
		Name              string         `json:"name"`
		Version           string         `json:"version"`
		ChainID           uint64         `json:"chainId"`
		VerifyingContract common.Address `json:"verifyingContract"`
		Separator         common.Hash    `json:"separator"`
	} `json:"domains"`
	Orders []orderVector `json:"orders"`
}

type orderVector struct {
	Name                    string      `json:"name"`
	Domain                  int         `json:"domain"`
	PrivateKey              string      `json:"privateKey"`
	DecimalsIn              uint8       `json:"decimalsIn"`
	DerivedTriggerAmountOut *string     `json:"derivedTriggerAmountOut"`
	Order                   wireOrder   `json:"order"`
	StructHash              common.Hash `json:"structHash"`
	Hash                    common.Hash `json:"hash"`
	HashV70                 common.Hash `json:"hashV70"`
	CancelHash              common.Hash `json:"cancelHash"`
	Signature               string      `json:"signature"`
	SignatureCompact        string      `json:"signatureCompact"`
	SignatureV70            string      `json:"signatureV70"`
	CancelSignature         string      `json:"cancelSignature"`
}

// wireOrder is the order as the submit payload carries it (strings).
type wireOrder struct {
	Salt             string `json:"salt"`
	Maker            string `json:"maker"`
	Receiver         string `json:"receiver"`
	TokenIn          string `json:"tokenIn"`
	TokenOut         string `json:"tokenOut"`
	AmountIn         string `json:"amountIn"`
	TriggerPrice     string `json:"triggerPrice"`
	TriggerAmountOut string `json:"triggerAmountOut"`
	MakerTraits      string `json:"makerTraits"`
	Referrer         string `json:"referrer"`
	ReferralFeePpm   uint32 `json:"referralFeePpm"`
}

// parse turns the wire order into an Order with the package's strict parsers.
func (w wireOrder) parse(t testing.TB) Order {
	t.Helper()
	var o Order
	var err error
	must := func(e error) {
		t.Helper()
		if e != nil {
			t.Fatal(e)
		}
	}
	o.Salt, err = ParseHexUint256("order.salt", w.Salt)
	must(err)
	o.Maker, err = ParseAddress("order.maker", w.Maker)
	must(err)
	o.Receiver, err = ParseAddress("order.receiver", w.Receiver)
	must(err)
	o.TokenIn, err = ParseAddress("order.tokenIn", w.TokenIn)
	must(err)
	o.TokenOut, err = ParseAddress("order.tokenOut", w.TokenOut)
	must(err)
	o.AmountIn, err = ParseDecimalUint256("order.amountIn", w.AmountIn)
	must(err)
	o.TriggerPrice, err = ParseDecimalUint256("order.triggerPrice", w.TriggerPrice)
	must(err)
	o.TriggerAmountOut, err = ParseDecimalUint256("order.triggerAmountOut", w.TriggerAmountOut)
	must(err)
	o.MakerTraits, err = ParseDecimalUint256("order.makerTraits", w.MakerTraits)
	must(err)
	o.Referrer, err = ParseAddress("order.referrer", w.Referrer)
	must(err)
	o.ReferralFeePpm = w.ReferralFeePpm
	return o
}

func loadVectors(t testing.TB) vectorFile {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "eip712_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f vectorFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Orders) == 0 || len(f.Domains) == 0 {
		t.Fatal("eip712_vectors.json has no vectors")
	}
	return f
}

type traitsVector struct {
	Name            string   `json:"name"`
	AllowedSender   string   `json:"allowedSender"`
	Deadline        uint64   `json:"deadline"`
	Nonce           uint64   `json:"nonce"`
	SlippagePpm     uint32   `json:"slippagePpm"`
	KindParamPpm    uint32   `json:"kindParamPpm"`
	IntervalSeconds uint32   `json:"intervalSeconds"`
	TotalExecutions uint16   `json:"totalExecutions"`
	Flags           []string `json:"flags"`
	Encoded         string   `json:"encoded"`
}

func loadTraitsVectors(t testing.TB) []traitsVector {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "traits_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []traitsVector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatal("traits_vectors.json is empty")
	}
	return vs
}

func mustDec(t testing.TB, s string) uint256.Int {
	t.Helper()
	u, err := ParseDecimalUint256("test", s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
