package keeper_test

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
)

// TestE2EConfigServesTheLiveContracts: keyless GET /v1/config on the dev
// chain serves chain id 4663, the signing domain ServiceRouter / 7, and the
// addresses of the deployed contracts: the router's own domainSeparator,
// ORDER_TYPEHASH and CANCEL_TYPEHASH equal what a client computes from the
// served domain and type strings, and the router and oracle hold code.
func TestE2EConfigServesTheLiveContracts(t *testing.T) {
	e := newE2E(t, false)
	r := e.srv.Do("GET", "/v1/config", nil, nil)
	if r.Status != 200 {
		t.Fatalf("GET /v1/config: %d %s", r.Status, r.Body)
	}
	var cfg struct {
		ChainID  uint64 `json:"chainId"`
		Router   string `json:"router"`
		FeeVault string `json:"feeVault"`
		Oracle   string `json:"oracle"`
		Domain   struct {
			Name, Version     string
			ChainID           uint64 `json:"chainId"`
			VerifyingContract string `json:"verifyingContract"`
		} `json:"domain"`
		EIP712 struct {
			DomainType  string `json:"domainType"`
			Order       string `json:"order"`
			OrderCancel string `json:"orderCancel"`
		} `json:"eip712"`
	}
	if err := json.Unmarshal(r.Body, &cfg); err != nil {
		t.Fatal(err)
	}
	d := e.dev.Deployment()
	if cfg.ChainID != 4663 || cfg.Domain.ChainID != 4663 || cfg.Domain.Name != "ServiceRouter" || cfg.Domain.Version != "7" ||
		cfg.Router != d.Router.Hex() || cfg.Domain.VerifyingContract != cfg.Router || cfg.Oracle != d.Oracle.Hex() || cfg.FeeVault != d.FeeVault.Hex() {
		t.Fatalf("config %s, deployment router %s oracle %s vault %s", r.Body, d.Router.Hex(), d.Oracle.Hex(), d.FeeVault.Hex())
	}
	router := common.HexToAddress(cfg.Router)
	for _, a := range []common.Address{router, common.HexToAddress(cfg.Oracle)} {
		code, err := e.dev.Client().CodeAt(e.ctx, a, nil)
		if err != nil || len(code) == 0 {
			t.Fatalf("no contract at served address %s (%v)", a.Hex(), err)
		}
	}
	sr := servicerouter.NewServiceRouter()
	call := func(data []byte) []byte {
		t.Helper()
		out, err := e.dev.Client().CallContract(e.ctx, ethereum.CallMsg{To: &router, Data: data}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	sep, err := sr.UnpackDomainSeparator(call(sr.PackDomainSeparator()))
	if err != nil {
		t.Fatal(err)
	}
	b32, _ := abi.NewType("bytes32", "", nil)
	u256, _ := abi.NewType("uint256", "", nil)
	addr, _ := abi.NewType("address", "", nil)
	enc, err := abi.Arguments{{Type: b32}, {Type: b32}, {Type: b32}, {Type: u256}, {Type: addr}}.Pack(
		crypto.Keccak256Hash([]byte(cfg.EIP712.DomainType)), crypto.Keccak256Hash([]byte(cfg.Domain.Name)),
		crypto.Keccak256Hash([]byte(cfg.Domain.Version)), new(big.Int).SetUint64(cfg.Domain.ChainID), common.HexToAddress(cfg.Domain.VerifyingContract))
	if err != nil {
		t.Fatal(err)
	}
	if want := crypto.Keccak256Hash(enc); common.Hash(sep) != want {
		t.Fatalf("router domainSeparator %x, the served domain gives %x", sep, want)
	}
	if h, err := sr.UnpackORDERTYPEHASH(call(sr.PackORDERTYPEHASH())); err != nil || common.Hash(h) != crypto.Keccak256Hash([]byte(cfg.EIP712.Order)) {
		t.Fatalf("ORDER_TYPEHASH %x differs from the served %q (%v)", h, cfg.EIP712.Order, err)
	}
	if h, err := sr.UnpackCANCELTYPEHASH(call(sr.PackCANCELTYPEHASH())); err != nil || common.Hash(h) != crypto.Keccak256Hash([]byte(cfg.EIP712.OrderCancel)) {
		t.Fatalf("CANCEL_TYPEHASH %x differs from the served %q (%v)", h, cfg.EIP712.OrderCancel, err)
	}
}
