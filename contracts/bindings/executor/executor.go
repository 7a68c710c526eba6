// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package executor

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

// Call is an auto generated low-level Go binding around an user-defined struct.
type Call struct {
	Target common.Address
	Data   []byte
}

// ExecutorMetaData contains all meta data concerning the Executor contract.
var ExecutorMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"index\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"reason\",\"type\":\"bytes\"}],\"name\":\"CallFailed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotRouter\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenTransferFailed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"refundTo\",\"type\":\"address\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"target\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"data\",\"type\":\"bytes\"}],\"internalType\":\"structCall[]\",\"name\":\"calls\",\"type\":\"tuple[]\"}],\"name\":\"execute\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"router\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "Executor",
	Bin: "0x60a0604052348015600e575f5ffd5b50336080526080516106256100375f395f818160620152818160a8015261026301526106255ff3fe608060405234801561000f575f5ffd5b5060043610610033575f3560e01c8062d4c6f714610037578063f887ea401461005d575b5f5ffd5b61004a610045366004610453565b61009c565b6040519081526020015b60405180910390f35b6100847f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610054565b5f336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146100e657604051639165520160e01b815260040160405180910390fd5b5f5b828110156101e5575f5f858584818110610104576101046104f2565b90506020028101906101169190610506565b610124906020810190610524565b6001600160a01b031686868581811061013f5761013f6104f2565b90506020028101906101519190610506565b61015f906020810190610544565b60405161016d92919061058e565b5f604051808303815f865af19150503d805f81146101a6576040519150601f19603f3d011682016040523d82523d5f602084013e6101ab565b606091505b5091509150816101db578281604051635c0dee5d60e01b81526004016101d292919061059d565b60405180910390fd5b50506001016100e8565b506040516370a0823160e01b81523060048201526001600160a01b038616906370a0823190602401602060405180830381865afa158015610228573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061024c91906105d9565b90508015610288576102886001600160a01b0386167f000000000000000000000000000000000000000000000000000000000000000083610316565b6040516370a0823160e01b81523060048201525f906001600160a01b038816906370a0823190602401602060405180830381865afa1580156102cc573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906102f091906105d9565b9050801561030c5761030c6001600160a01b0388168683610316565b5095945050505050565b6040516001600160a01b03831660248201526044810182905261036790849060640160408051601f198184030181529190526020810180516001600160e01b031663a9059cbb60e01b17905261036c565b505050565b5f5f836001600160a01b03168360405161038691906105f0565b5f604051808303815f865af19150503d805f81146103bf576040519150601f19603f3d011682016040523d82523d5f602084013e6103c4565b606091505b5091509150816103d657805160208201fd5b6001600160a01b0384163b158061040957508051158015906104095750808060200190518101906104079190610606565b155b1561043257604051632b596cb760e01b81526001600160a01b03851660048201526024016101d2565b50505050565b80356001600160a01b038116811461044e575f5ffd5b919050565b5f5f5f5f5f60808688031215610467575f5ffd5b61047086610438565b945061047e60208701610438565b935061048c60408701610438565b9250606086013567ffffffffffffffff8111156104a7575f5ffd5b8601601f810188136104b7575f5ffd5b803567ffffffffffffffff8111156104cd575f5ffd5b8860208260051b84010111156104e1575f5ffd5b959894975092955050506020019190565b634e487b7160e01b5f52603260045260245ffd5b5f8235603e1983360301811261051a575f5ffd5b9190910192915050565b5f60208284031215610534575f5ffd5b61053d82610438565b9392505050565b5f5f8335601e19843603018112610559575f5ffd5b83018035915067ffffffffffffffff821115610573575f5ffd5b602001915036819003821315610587575f5ffd5b9250929050565b818382375f9101908152919050565b828152604060208201525f82518060408401528060208501606085015e5f606082850101526060601f19601f8301168401019150509392505050565b5f602082840312156105e9575f5ffd5b5051919050565b5f82518060208501845e5f920191825250919050565b5f60208284031215610616575f5ffd5b8151801515811461053d575f5ffd",
}

// Executor is an auto generated Go binding around an Ethereum contract.
type Executor struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Executor) GetABI() abi.ABI {
	return c.abi
}

// NewExecutor creates a new instance of Executor.
func NewExecutor() *Executor {
	parsed, err := ExecutorMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Executor{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Executor) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackExecute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x00d4c6f7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function execute(address tokenIn, address tokenOut, address refundTo, (address,bytes)[] calls) returns(uint256 amountOut)
func (executor *Executor) PackExecute(tokenIn common.Address, tokenOut common.Address, refundTo common.Address, calls []Call) []byte {
	enc, err := executor.abi.Pack("execute", tokenIn, tokenOut, refundTo, calls)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackExecute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x00d4c6f7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function execute(address tokenIn, address tokenOut, address refundTo, (address,bytes)[] calls) returns(uint256 amountOut)
func (executor *Executor) TryPackExecute(tokenIn common.Address, tokenOut common.Address, refundTo common.Address, calls []Call) ([]byte, error) {
	return executor.abi.Pack("execute", tokenIn, tokenOut, refundTo, calls)
}

// UnpackExecute is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x00d4c6f7.
//
// Solidity: function execute(address tokenIn, address tokenOut, address refundTo, (address,bytes)[] calls) returns(uint256 amountOut)
func (executor *Executor) UnpackExecute(data []byte) (*big.Int, error) {
	out, err := executor.abi.Unpack("execute", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackRouter is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf887ea40.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function router() view returns(address)
func (executor *Executor) PackRouter() []byte {
	enc, err := executor.abi.Pack("router")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRouter is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf887ea40.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function router() view returns(address)
func (executor *Executor) TryPackRouter() ([]byte, error) {
	return executor.abi.Pack("router")
}

// UnpackRouter is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf887ea40.
//
// Solidity: function router() view returns(address)
func (executor *Executor) UnpackRouter(data []byte) (common.Address, error) {
	out, err := executor.abi.Unpack("router", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (executor *Executor) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], executor.abi.Errors["CallFailed"].ID.Bytes()[:4]) {
		return executor.UnpackCallFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], executor.abi.Errors["NotRouter"].ID.Bytes()[:4]) {
		return executor.UnpackNotRouterError(raw[4:])
	}
	if bytes.Equal(raw[:4], executor.abi.Errors["TokenTransferFailed"].ID.Bytes()[:4]) {
		return executor.UnpackTokenTransferFailedError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// ExecutorCallFailed represents a CallFailed error raised by the Executor contract.
type ExecutorCallFailed struct {
	Index  *big.Int
	Reason []byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error CallFailed(uint256 index, bytes reason)
func ExecutorCallFailedErrorID() common.Hash {
	return common.HexToHash("0x5c0dee5d32a1e145396705da49c1e64a2b1d63387f78c2697100f655567f5de9")
}

// UnpackCallFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error CallFailed(uint256 index, bytes reason)
func (executor *Executor) UnpackCallFailedError(raw []byte) (*ExecutorCallFailed, error) {
	out := new(ExecutorCallFailed)
	if err := executor.abi.UnpackIntoInterface(out, "CallFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ExecutorNotRouter represents a NotRouter error raised by the Executor contract.
type ExecutorNotRouter struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotRouter()
func ExecutorNotRouterErrorID() common.Hash {
	return common.HexToHash("0x916552015af97b2e264c1c61b9e2e7e73847ee95b4ce4a110f5ae4ea7ae660cf")
}

// UnpackNotRouterError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotRouter()
func (executor *Executor) UnpackNotRouterError(raw []byte) (*ExecutorNotRouter, error) {
	out := new(ExecutorNotRouter)
	if err := executor.abi.UnpackIntoInterface(out, "NotRouter", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ExecutorTokenTransferFailed represents a TokenTransferFailed error raised by the Executor contract.
type ExecutorTokenTransferFailed struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TokenTransferFailed(address token)
func ExecutorTokenTransferFailedErrorID() common.Hash {
	return common.HexToHash("0x2b596cb7e9804a5202312682f04514d7f31332b7e5ffeaad4ba2ee9969d1d7d0")
}

// UnpackTokenTransferFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TokenTransferFailed(address token)
func (executor *Executor) UnpackTokenTransferFailedError(raw []byte) (*ExecutorTokenTransferFailed, error) {
	out := new(ExecutorTokenTransferFailed)
	if err := executor.abi.UnpackIntoInterface(out, "TokenTransferFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}
