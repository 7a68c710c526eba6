// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package wrappednative

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

// WrappedNativeMetaData contains all meta data concerning the WrappedNative contract.
var WrappedNativeMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"allowance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"InsufficientAllowance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NativeSendFailed\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Deposit\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Withdrawal\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"deposit\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "WrappedNative",
	Bin: "0x60a060405234801561000f575f5ffd5b506040518060400160405280600d81526020016c2bb930b83832b21022ba3432b960991b815250604051806040016040528060048152602001630ae8aa8960e31b8152506012825f90816100639190610122565b5060016100708382610122565b5060ff16608052506101e09050565b634e487b7160e01b5f52604160045260245ffd5b600181811c908216806100a757607f821691505b6020821081036100c557634e487b7160e01b5f52602260045260245ffd5b50919050565b601f82111561011d578282111561011d57805f5260205f20601f840160051c60208510156100f657505f5b90810190601f840160051c035f5b81811015610119575f83820155600101610104565b5050505b505050565b81516001600160401b0381111561013b5761013b61007f565b61014f816101498454610093565b846100cb565b6020601f821160018114610181575f831561016a5750848201515b5f19600385901b1c1916600184901b1784556101d9565b5f84815260208120601f198516915b828110156101b05787850151825560209485019460019092019101610190565b50848210156101cd57868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b6080516107a46101f85f395f61017d01526107a45ff3fe60806040526004361061009d575f3560e01c8063313ce56711610062578063313ce5671461016a57806370a08231146101a757806395d89b41146101d2578063a9059cbb146101e6578063d0e30db014610205578063dd62ed3e1461020d575f5ffd5b806306fdde03146100b0578063095ea7b3146100da57806318160ddd1461010957806323b872dd1461012c5780632e1a7d4d1461014b575f5ffd5b366100ac576100aa610243565b005b5f5ffd5b3480156100bb575f5ffd5b506100c4610285565b6040516100d19190610633565b60405180910390f35b3480156100e5575f5ffd5b506100f96100f4366004610683565b610310565b60405190151581526020016100d1565b348015610114575f5ffd5b5061011e60025481565b6040519081526020016100d1565b348015610137575f5ffd5b506100f96101463660046106ab565b61037c565b348015610156575f5ffd5b506100aa6101653660046106e5565b61039d565b348015610175575f5ffd5b5060405160ff7f00000000000000000000000000000000000000000000000000000000000000001681526020016100d1565b3480156101b2575f5ffd5b5061011e6101c13660046106fc565b60036020525f908152604090205481565b3480156101dd575f5ffd5b506100c4610447565b3480156101f1575f5ffd5b506100f9610200366004610683565b610454565b6100aa610243565b348015610218575f5ffd5b5061011e61022736600461071c565b600460209081525f928352604080842090915290825290205481565b61024e5f3334610469565b60405134815233907fe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c9060200160405180910390a2565b5f80546102919061074d565b80601f01602080910402602001604051908101604052809291908181526020018280546102bd9061074d565b80156103085780601f106102df57610100808354040283529160200191610308565b820191905f5260205f20905b8154815290600101906020018083116102eb57829003601f168201915b505050505081565b335f8181526004602090815260408083206001600160a01b038716808552925280832085905551919290917f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b9259061036a9086815260200190565b60405180910390a35060015b92915050565b5f610388843384610594565b610393848484610469565b5060019392505050565b6103a8335f83610469565b60405181815233907f7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b659060200160405180910390a26040515f90339083908381818185875af1925050503d805f811461041c576040519150601f19603f3d011682016040523d82523d5f602084013e610421565b606091505b50509050806104435760405163a0c968e760e01b815260040160405180910390fd5b5050565b600180546102919061074d565b5f610460338484610469565b50600192915050565b6001600160a01b038316610493578060025f8282546104889190610785565b909155506105089050565b6001600160a01b0383165f90815260036020526040902054818110156104ea5760405163db42144d60e01b81526001600160a01b038516600482015260248101829052604481018390526064015b60405180910390fd5b6001600160a01b0384165f9081526003602052604090209082900390555b6001600160a01b03821661052457600280548290039055610542565b6001600160a01b0382165f9081526003602052604090208054820190555b816001600160a01b0316836001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef8360405161058791815260200190565b60405180910390a3505050565b6001600160a01b038084165f908152600460209081526040808320938616835292905220545f19811461062d57818110156106035760405163246fb68960e21b81526001600160a01b0380861660048301528416602482015260448101829052606481018390526084016104e1565b6001600160a01b038085165f90815260046020908152604080832093871683529290522082820390555b50505050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b80356001600160a01b038116811461067e575f5ffd5b919050565b5f5f60408385031215610694575f5ffd5b61069d83610668565b946020939093013593505050565b5f5f5f606084860312156106bd575f5ffd5b6106c684610668565b92506106d460208501610668565b929592945050506040919091013590565b5f602082840312156106f5575f5ffd5b5035919050565b5f6020828403121561070c575f5ffd5b61071582610668565b9392505050565b5f5f6040838503121561072d575f5ffd5b61073683610668565b915061074460208401610668565b90509250929050565b600181811c9082168061076157607f821691505b60208210810361077f57634e487b7160e01b5f52602260045260245ffd5b50919050565b8082018082111561037657634e487b7160e01b5f52601160045260245ffd",
}

// WrappedNative is an auto generated Go binding around an Ethereum contract.
type WrappedNative struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *WrappedNative) GetABI() abi.ABI {
	return c.abi
}

// NewWrappedNative creates a new instance of WrappedNative.
func NewWrappedNative() *WrappedNative {
	parsed, err := WrappedNativeMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &WrappedNative{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *WrappedNative) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (wrappedNative *WrappedNative) PackAllowance(arg0 common.Address, arg1 common.Address) []byte {
	enc, err := wrappedNative.abi.Pack("allowance", arg0, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (wrappedNative *WrappedNative) TryPackAllowance(arg0 common.Address, arg1 common.Address) ([]byte, error) {
	return wrappedNative.abi.Pack("allowance", arg0, arg1)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (wrappedNative *WrappedNative) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := wrappedNative.abi.Unpack("allowance", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (wrappedNative *WrappedNative) PackApprove(spender common.Address, amount *big.Int) []byte {
	enc, err := wrappedNative.abi.Pack("approve", spender, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (wrappedNative *WrappedNative) TryPackApprove(spender common.Address, amount *big.Int) ([]byte, error) {
	return wrappedNative.abi.Pack("approve", spender, amount)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (wrappedNative *WrappedNative) UnpackApprove(data []byte) (bool, error) {
	out, err := wrappedNative.abi.Unpack("approve", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (wrappedNative *WrappedNative) PackBalanceOf(arg0 common.Address) []byte {
	enc, err := wrappedNative.abi.Pack("balanceOf", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (wrappedNative *WrappedNative) TryPackBalanceOf(arg0 common.Address) ([]byte, error) {
	return wrappedNative.abi.Pack("balanceOf", arg0)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (wrappedNative *WrappedNative) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := wrappedNative.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() view returns(uint8)
func (wrappedNative *WrappedNative) PackDecimals() []byte {
	enc, err := wrappedNative.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() view returns(uint8)
func (wrappedNative *WrappedNative) TryPackDecimals() ([]byte, error) {
	return wrappedNative.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (wrappedNative *WrappedNative) UnpackDecimals(data []byte) (uint8, error) {
	out, err := wrappedNative.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd0e30db0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function deposit() payable returns()
func (wrappedNative *WrappedNative) PackDeposit() []byte {
	enc, err := wrappedNative.abi.Pack("deposit")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd0e30db0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function deposit() payable returns()
func (wrappedNative *WrappedNative) TryPackDeposit() ([]byte, error) {
	return wrappedNative.abi.Pack("deposit")
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (wrappedNative *WrappedNative) PackName() []byte {
	enc, err := wrappedNative.abi.Pack("name")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function name() view returns(string)
func (wrappedNative *WrappedNative) TryPackName() ([]byte, error) {
	return wrappedNative.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (wrappedNative *WrappedNative) UnpackName(data []byte) (string, error) {
	out, err := wrappedNative.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(string)
func (wrappedNative *WrappedNative) PackSymbol() []byte {
	enc, err := wrappedNative.abi.Pack("symbol")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function symbol() view returns(string)
func (wrappedNative *WrappedNative) TryPackSymbol() ([]byte, error) {
	return wrappedNative.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (wrappedNative *WrappedNative) UnpackSymbol(data []byte) (string, error) {
	out, err := wrappedNative.abi.Unpack("symbol", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalSupply() view returns(uint256)
func (wrappedNative *WrappedNative) PackTotalSupply() []byte {
	enc, err := wrappedNative.abi.Pack("totalSupply")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalSupply() view returns(uint256)
func (wrappedNative *WrappedNative) TryPackTotalSupply() ([]byte, error) {
	return wrappedNative.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (wrappedNative *WrappedNative) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := wrappedNative.abi.Unpack("totalSupply", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (wrappedNative *WrappedNative) PackTransfer(to common.Address, amount *big.Int) []byte {
	enc, err := wrappedNative.abi.Pack("transfer", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (wrappedNative *WrappedNative) TryPackTransfer(to common.Address, amount *big.Int) ([]byte, error) {
	return wrappedNative.abi.Pack("transfer", to, amount)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (wrappedNative *WrappedNative) UnpackTransfer(data []byte) (bool, error) {
	out, err := wrappedNative.abi.Unpack("transfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (wrappedNative *WrappedNative) PackTransferFrom(from common.Address, to common.Address, amount *big.Int) []byte {
	enc, err := wrappedNative.abi.Pack("transferFrom", from, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (wrappedNative *WrappedNative) TryPackTransferFrom(from common.Address, to common.Address, amount *big.Int) ([]byte, error) {
	return wrappedNative.abi.Pack("transferFrom", from, to, amount)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (wrappedNative *WrappedNative) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := wrappedNative.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2e1a7d4d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdraw(uint256 amount) returns()
func (wrappedNative *WrappedNative) PackWithdraw(amount *big.Int) []byte {
	enc, err := wrappedNative.abi.Pack("withdraw", amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2e1a7d4d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdraw(uint256 amount) returns()
func (wrappedNative *WrappedNative) TryPackWithdraw(amount *big.Int) ([]byte, error) {
	return wrappedNative.abi.Pack("withdraw", amount)
}

// WrappedNativeApproval represents a Approval event raised by the WrappedNative contract.
type WrappedNativeApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const WrappedNativeApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (WrappedNativeApproval) ContractEventName() string {
	return WrappedNativeApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (wrappedNative *WrappedNative) UnpackApprovalEvent(log *types.Log) (*WrappedNativeApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wrappedNative.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WrappedNativeApproval)
	if len(log.Data) > 0 {
		if err := wrappedNative.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wrappedNative.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// WrappedNativeDeposit represents a Deposit event raised by the WrappedNative contract.
type WrappedNativeDeposit struct {
	Account common.Address
	Amount  *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const WrappedNativeDepositEventName = "Deposit"

// ContractEventName returns the user-defined event name.
func (WrappedNativeDeposit) ContractEventName() string {
	return WrappedNativeDepositEventName
}

// UnpackDepositEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Deposit(address indexed account, uint256 amount)
func (wrappedNative *WrappedNative) UnpackDepositEvent(log *types.Log) (*WrappedNativeDeposit, error) {
	event := "Deposit"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wrappedNative.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WrappedNativeDeposit)
	if len(log.Data) > 0 {
		if err := wrappedNative.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wrappedNative.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// WrappedNativeTransfer represents a Transfer event raised by the WrappedNative contract.
type WrappedNativeTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const WrappedNativeTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (WrappedNativeTransfer) ContractEventName() string {
	return WrappedNativeTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (wrappedNative *WrappedNative) UnpackTransferEvent(log *types.Log) (*WrappedNativeTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wrappedNative.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WrappedNativeTransfer)
	if len(log.Data) > 0 {
		if err := wrappedNative.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wrappedNative.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// WrappedNativeWithdrawal represents a Withdrawal event raised by the WrappedNative contract.
type WrappedNativeWithdrawal struct {
	Account common.Address
	Amount  *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const WrappedNativeWithdrawalEventName = "Withdrawal"

// ContractEventName returns the user-defined event name.
func (WrappedNativeWithdrawal) ContractEventName() string {
	return WrappedNativeWithdrawalEventName
}

// UnpackWithdrawalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Withdrawal(address indexed account, uint256 amount)
func (wrappedNative *WrappedNative) UnpackWithdrawalEvent(log *types.Log) (*WrappedNativeWithdrawal, error) {
	event := "Withdrawal"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wrappedNative.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WrappedNativeWithdrawal)
	if len(log.Data) > 0 {
		if err := wrappedNative.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wrappedNative.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (wrappedNative *WrappedNative) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], wrappedNative.abi.Errors["InsufficientAllowance"].ID.Bytes()[:4]) {
		return wrappedNative.UnpackInsufficientAllowanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], wrappedNative.abi.Errors["InsufficientBalance"].ID.Bytes()[:4]) {
		return wrappedNative.UnpackInsufficientBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], wrappedNative.abi.Errors["NativeSendFailed"].ID.Bytes()[:4]) {
		return wrappedNative.UnpackNativeSendFailedError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// WrappedNativeInsufficientAllowance represents a InsufficientAllowance error raised by the WrappedNative contract.
type WrappedNativeInsufficientAllowance struct {
	Owner     common.Address
	Spender   common.Address
	Allowance *big.Int
	Needed    *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed)
func WrappedNativeInsufficientAllowanceErrorID() common.Hash {
	return common.HexToHash("0x91beda2419c8769f0c545a44607943b78700547e886f90b5189cc0e609a996c4")
}

// UnpackInsufficientAllowanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed)
func (wrappedNative *WrappedNative) UnpackInsufficientAllowanceError(raw []byte) (*WrappedNativeInsufficientAllowance, error) {
	out := new(WrappedNativeInsufficientAllowance)
	if err := wrappedNative.abi.UnpackIntoInterface(out, "InsufficientAllowance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// WrappedNativeInsufficientBalance represents a InsufficientBalance error raised by the WrappedNative contract.
type WrappedNativeInsufficientBalance struct {
	Account common.Address
	Balance *big.Int
	Needed  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientBalance(address account, uint256 balance, uint256 needed)
func WrappedNativeInsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0xdb42144d928cd19733b9dfeead8bc02ed403845c274e06a6eee0944fb25ca5c4")
}

// UnpackInsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientBalance(address account, uint256 balance, uint256 needed)
func (wrappedNative *WrappedNative) UnpackInsufficientBalanceError(raw []byte) (*WrappedNativeInsufficientBalance, error) {
	out := new(WrappedNativeInsufficientBalance)
	if err := wrappedNative.abi.UnpackIntoInterface(out, "InsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// WrappedNativeNativeSendFailed represents a NativeSendFailed error raised by the WrappedNative contract.
type WrappedNativeNativeSendFailed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NativeSendFailed()
func WrappedNativeNativeSendFailedErrorID() common.Hash {
	return common.HexToHash("0xa0c968e7fe5b15ca546ca247e5a50651cc382e4be141f7c792d1ea22b0defa32")
}

// UnpackNativeSendFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NativeSendFailed()
func (wrappedNative *WrappedNative) UnpackNativeSendFailedError(raw []byte) (*WrappedNativeNativeSendFailed, error) {
	out := new(WrappedNativeNativeSendFailed)
	if err := wrappedNative.abi.UnpackIntoInterface(out, "NativeSendFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}
