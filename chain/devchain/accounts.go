package devchain

import (
	"crypto/ecdsa"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// DevSeed is the public seed every dev account's key derives from. Anyone
// can derive these keys: they are for the dev chain and test nodes only.
const DevSeed = "orderengine dev chain: public test keys, DO NOT USE ON A REAL NETWORK"

// Account is a dev account: a name, its address and its private key.
type Account struct {
	// Name says what the account is for: deployer, market-maker, keeper,
	// maker-1 ... maker-N.
	Name    string
	Address common.Address
	Key     *ecdsa.PrivateKey
}

// KeyHex is the account's private key as 0x-prefixed hex, the form wallets
// import.
func (a Account) KeyHex() string {
	return "0x" + hex.EncodeToString(crypto.FromECDSA(a.Key))
}

// Accounts are the dev chain's prefunded accounts. Deployer owns the
// contracts, writes the oracle and pays the faucet; MarketMaker swaps for
// the market maker; Keeper is free for a dev keeper; FeeVault receives the
// protocol fee leg (its own account, so fee tests read untouched balances);
// Makers are for people and tests signing orders.
type Accounts struct {
	Deployer    Account
	MarketMaker Account
	Keeper      Account
	FeeVault    Account
	Makers      []Account
}

// All lists every account, the deployer first.
func (a Accounts) All() []Account {
	out := []Account{a.Deployer, a.MarketMaker, a.Keeper, a.FeeVault}
	return append(out, a.Makers...)
}

// DevKey is the i-th dev key: keccak256(DevSeed || uint32 i || uint32 n),
// with n the first counter that yields a valid secp256k1 scalar (in
// practice always 0). Index 0 is the deployer, 1 the market maker, 2 the
// keeper, 3 and up the makers, 1000 the fee vault.
func DevKey(i int) *ecdsa.PrivateKey {
	var buf [8]byte
	binary.BigEndian.PutUint32(buf[:4], uint32(i))
	for n := uint32(0); ; n++ {
		binary.BigEndian.PutUint32(buf[4:], n)
		key, err := crypto.ToECDSA(crypto.Keccak256([]byte(DevSeed), buf[:]))
		if err == nil {
			return key
		}
	}
}

// feeVaultIndex is the fee vault's key index, apart from the makers'.
const feeVaultIndex = 1000

// DevAccounts derives the deployer, market maker, keeper and the given
// number of maker accounts from DevSeed.
func DevAccounts(makers int) Accounts {
	account := func(name string, i int) Account {
		key := DevKey(i)
		return Account{Name: name, Address: crypto.PubkeyToAddress(key.PublicKey), Key: key}
	}
	acc := Accounts{
		Deployer:    account("deployer", 0),
		MarketMaker: account("market-maker", 1),
		Keeper:      account("keeper", 2),
		FeeVault:    account("fee-vault", feeVaultIndex),
	}
	for m := 0; m < makers; m++ {
		acc.Makers = append(acc.Makers, account(fmt.Sprintf("maker-%d", m+1), 3+m))
	}
	return acc
}

// WriteBanner prints the accounts with their keys, labelled dev only.
func (a Accounts) WriteBanner(w io.Writer) error {
	_, err := fmt.Fprintln(w, "==== DEV ONLY: prefunded dev chain accounts (public keys from a public seed; never use on a real network) ====")
	if err != nil {
		return err
	}
	for _, acc := range a.All() {
		if _, err := fmt.Fprintf(w, "  %-13s %s  key %s\n", acc.Name, acc.Address.Hex(), acc.KeyHex()); err != nil {
			return err
		}
	}
	_, err = fmt.Fprintln(w, "==== DEV ONLY ====")
	return err
}
