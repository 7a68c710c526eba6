// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package smartwallet

import (
	"bytes"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = bytes.Equal
	_ = errors.New
	_ = big.NewInt
	_ = common.Big1
	_ = types.BloomLookup
	_ = abi.ConvertType
)

// SmartWalletMetaData contains all meta data concerning the SmartWallet contract.
var SmartWalletMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"bytes\",\"name\":\"reason\",\"type\":\"bytes\"}],\"name\":\"ExecuteFailed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"target\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"data\",\"type\":\"bytes\"}],\"name\":\"execute\",\"outputs\":[{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"hash\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"isValidSignature\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "SmartWallet",
	Bin: "0x60a0604052348015600e575f5ffd5b506040516105a53803806105a5833981016040819052602b91603b565b6001600160a01b03166080526066565b5f60208284031215604a575f5ffd5b81516001600160a01b0381168114605f575f5ffd5b9392505050565b60805161051a61008b5f395f8181608f015281816102250152610296015261051a5ff3fe608060405260043610610036575f3560e01c80631626ba7e146100415780638da5cb5b1461007e578063b61d27f6146100c9575f5ffd5b3661003d57005b5f5ffd5b34801561004c575f5ffd5b5061006061005b3660046103ad565b6100f5565b6040516001600160e01b031990911681526020015b60405180910390f35b348015610089575f5ffd5b506100b17f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610075565b3480156100d4575f5ffd5b506100e86100e33660046103f5565b610289565b6040516100759190610458565b5f6041821461010d57506001600160e01b0319610282565b5f61011b602082858761048d565b610124916104b4565b90505f61013560406020868861048d565b61013e916104b4565b90505f85856040818110610154576101546104d2565b919091013560f81c915050601b81101561017657610173601b826104e6565b90505b7f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a08211156101b257506001600160e01b03199250610282915050565b604080515f808252602082018084528a905260ff841692820192909252606081018590526080810184905260019060a0016020604051602081039080840390855afa158015610203573d5f5f3e3d5ffd5b5050604051601f1901519150506001600160a01b0381161580159061025957507f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316816001600160a01b0316145b156102725750630b135d3f60e11b935061028292505050565b506001600160e01b031993505050505b9392505050565b6060336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146102d4576040516330cd747160e01b815260040160405180910390fd5b5f5f866001600160a01b03168686866040516102f192919061050b565b5f6040518083038185875af1925050503d805f811461032b576040519150601f19603f3d011682016040523d82523d5f602084013e610330565b606091505b50915091508161035e578060405163d4a7b93f60e01b81526004016103559190610458565b60405180910390fd5b9695505050505050565b5f5f83601f840112610378575f5ffd5b50813567ffffffffffffffff81111561038f575f5ffd5b6020830191508360208285010111156103a6575f5ffd5b9250929050565b5f5f5f604084860312156103bf575f5ffd5b83359250602084013567ffffffffffffffff8111156103dc575f5ffd5b6103e886828701610368565b9497909650939450505050565b5f5f5f5f60608587031215610408575f5ffd5b84356001600160a01b038116811461041e575f5ffd5b935060208501359250604085013567ffffffffffffffff811115610440575f5ffd5b61044c87828801610368565b95989497509550505050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b5f5f8585111561049b575f5ffd5b838611156104a7575f5ffd5b5050820193919092039150565b803560208310156104cc575f19602084900360031b1b165b92915050565b634e487b7160e01b5f52603260045260245ffd5b60ff81811683821601908111156104cc57634e487b7160e01b5f52601160045260245ffd5b818382375f910190815291905056",
}

// SmartWallet is an auto generated Go binding around an Ethereum contract.
type SmartWallet struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *SmartWallet) GetABI() abi.ABI {
	return c.abi
}

// NewSmartWallet creates a new instance of SmartWallet.
func NewSmartWallet() *SmartWallet {
	parsed, err := SmartWalletMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &SmartWallet{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *SmartWallet) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address owner_) returns()
func (smartWallet *SmartWallet) PackConstructor(owner_ common.Address) []byte {
	enc, err := smartWallet.abi.Pack("", owner_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackExecute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb61d27f6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function execute(address target, uint256 value, bytes data) returns(bytes)
func (smartWallet *SmartWallet) PackExecute(target common.Address, value *big.Int, data []byte) []byte {
	enc, err := smartWallet.abi.Pack("execute", target, value, data)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackExecute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb61d27f6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function execute(address target, uint256 value, bytes data) returns(bytes)
func (smartWallet *SmartWallet) TryPackExecute(target common.Address, value *big.Int, data []byte) ([]byte, error) {
	return smartWallet.abi.Pack("execute", target, value, data)
}

// UnpackExecute is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb61d27f6.
//
// Solidity: function execute(address target, uint256 value, bytes data) returns(bytes)
func (smartWallet *SmartWallet) UnpackExecute(data []byte) ([]byte, error) {
	out, err := smartWallet.abi.Unpack("execute", data)
	if err != nil {
		return *new([]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([]byte)).(*[]byte)
	return out0, nil
}

// PackIsValidSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1626ba7e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (smartWallet *SmartWallet) PackIsValidSignature(hash [32]byte, signature []byte) []byte {
	enc, err := smartWallet.abi.Pack("isValidSignature", hash, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsValidSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1626ba7e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (smartWallet *SmartWallet) TryPackIsValidSignature(hash [32]byte, signature []byte) ([]byte, error) {
	return smartWallet.abi.Pack("isValidSignature", hash, signature)
}

// UnpackIsValidSignature is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1626ba7e.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (smartWallet *SmartWallet) UnpackIsValidSignature(data []byte) ([4]byte, error) {
	out, err := smartWallet.abi.Unpack("isValidSignature", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (smartWallet *SmartWallet) PackOwner() []byte {
	enc, err := smartWallet.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (smartWallet *SmartWallet) TryPackOwner() ([]byte, error) {
	return smartWallet.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (smartWallet *SmartWallet) UnpackOwner(data []byte) (common.Address, error) {
	out, err := smartWallet.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (smartWallet *SmartWallet) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], smartWallet.abi.Errors["ExecuteFailed"].ID.Bytes()[:4]) {
		return smartWallet.UnpackExecuteFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], smartWallet.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return smartWallet.UnpackNotOwnerError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// SmartWalletExecuteFailed represents a ExecuteFailed error raised by the SmartWallet contract.
type SmartWalletExecuteFailed struct {
	Reason []byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ExecuteFailed(bytes reason)
func SmartWalletExecuteFailedErrorID() common.Hash {
	return common.HexToHash("0xd4a7b93ff826351d6208e3e45633082767c91a010617ea34af3affc46f1d1d55")
}

// UnpackExecuteFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ExecuteFailed(bytes reason)
func (smartWallet *SmartWallet) UnpackExecuteFailedError(raw []byte) (*SmartWalletExecuteFailed, error) {
	out := new(SmartWalletExecuteFailed)
	if err := smartWallet.abi.UnpackIntoInterface(out, "ExecuteFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SmartWalletNotOwner represents a NotOwner error raised by the SmartWallet contract.
type SmartWalletNotOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner()
func SmartWalletNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x30cd74712f59d478562d48e2d35de830db72c60a63dd08ae59199eec990b5bc4")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner()
func (smartWallet *SmartWallet) UnpackNotOwnerError(raw []byte) (*SmartWalletNotOwner, error) {
	out := new(SmartWalletNotOwner)
	if err := smartWallet.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}
