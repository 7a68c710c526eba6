// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package constantproductpool

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

// ConstantProductPoolMetaData contains all meta data concerning the ConstantProductPool contract.
var ConstantProductPoolMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token0_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token1_\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"feePpm_\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"BadFee\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Locked\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"}],\"name\":\"OutputTooLow\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenTransferFailed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"UnknownToken\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroInput\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"Swap\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"reserve0\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"reserve1\",\"type\":\"uint256\"}],\"name\":\"Sync\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount0\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amount1\",\"type\":\"uint256\"}],\"name\":\"addLiquidity\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"feePpm\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"}],\"name\":\"getAmountOut\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getReserves\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getState\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"token0_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token1_\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"reserve0_\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"reserve1_\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"feePpm_\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"reserve0\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"reserve1\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"swap\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"token0\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"token1\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "ConstantProductPool",
	Bin: "0x60e06040526001600255348015610014575f5ffd5b50604051610c64380380610c648339810160408190526100339161008f565b6001600160a01b03808416608052821660a052620f424081106100695760405163917f1a5360e01b815260040160405180910390fd5b60c052506100c89050565b80516001600160a01b038116811461008a575f5ffd5b919050565b5f5f5f606084860312156100a1575f5ffd5b6100aa84610074565b92506100b860208501610074565b9150604084015190509250925092565b60805160a05160c051610b2d6101375f395f8181610168015281816101cd01526107df01525f8181610135015281816102070152818161029601528181610513015261077601525f818160c301528181610110015281816102690152818161055301526107350152610b2d5ff3fe608060405234801561000f575f5ffd5b506004361061009b575f3560e01c80639cd441da116100635780639cd441da146101b3578063a534150c146101c8578063ca706bcf146101ef578063d21220a714610202578063f3e6ea8a14610229575f5ffd5b80630902f1ac1461009f5780630dfe1681146100be5780631865c57d146100fd578063443cb4bc146101945780635a76f25e146101aa575b5f5ffd5b5f54600154604080519283526020830191909152015b60405180910390f35b6100e57f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b0390911681526020016100b5565b5f54600154604080516001600160a01b037f0000000000000000000000000000000000000000000000000000000000000000811682527f00000000000000000000000000000000000000000000000000000000000000001660208201529081019290925260608201527f0000000000000000000000000000000000000000000000000000000000000000608082015260a0016100b5565b61019c5f5481565b6040519081526020016100b5565b61019c60015481565b6101c66101c13660046109c4565b61023c565b005b61019c7f000000000000000000000000000000000000000000000000000000000000000081565b61019c6101fd3660046109ff565b610339565b6100e57f000000000000000000000000000000000000000000000000000000000000000081565b61019c610237366004610a27565b6103a5565b60025460011461025f576040516303cb96db60e21b815260040160405180910390fd5b600280555f61028e7f00000000000000000000000000000000000000000000000000000000000000008461062a565b90505f6102bb7f00000000000000000000000000000000000000000000000000000000000000008461062a565b9050815f5f8282546102cd9190610a7e565b925050819055508060015f8282546102e59190610a7e565b90915550505f546001546040517fcf2aa50876cdfbb541206f89af0ee78d44a2abf8d328e37fa4917f982149848a9261032692908252602082015260400190565b60405180910390a1505060016002555050565b5f5f61034484610732565b9050825f03610356575f91505061039f565b5f5f82610367576001545f5461036d565b5f546001545b91509150815f148061037d575080155b1561038d575f935050505061039f565b610399838383886107d8565b93505050505b92915050565b5f6002546001146103c9576040516303cb96db60e21b815260040160405180910390fd5b600280555f6103d786610732565b90505f19850361044a576040516370a0823160e01b81523360048201526001600160a01b038716906370a0823190602401602060405180830381865afa158015610423573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906104479190610a91565b94505b845f0361046a5760405163af458c0760e01b815260040160405180910390fd5b5f610475878761062a565b90505f5f83610488576001545f5461048e565b5f546001545b91509150815f148061049e575080155b6104b3576104ae848383866107d8565b6104b5565b5f5b94508415806104c357508685105b156104f0576040516345d94eed60e11b815260048101869052602481018890526044015b60405180910390fd5b5f8415610537576105018484610a7e565b5f5561050d8683610aa8565b600155507f0000000000000000000000000000000000000000000000000000000000000000610573565b6105418484610a7e565b60015561054e8683610aa8565b5f55507f00000000000000000000000000000000000000000000000000000000000000005b6105876001600160a01b0382168888610849565b60408051858152602081018890526001600160a01b03808a1692908d169133917fb39c9bc43f811e1a7ce159c5f147458fdb80266bf23c17322013316e27e086d0910160405180910390a47fcf2aa50876cdfbb541206f89af0ee78d44a2abf8d328e37fa4917f982149848a5f5460015460405161060f929190918252602082015260400190565b60405180910390a15050600160025550919695505050505050565b5f815f0361063957505f61039f565b6040516370a0823160e01b81523060048201525f906001600160a01b038516906370a0823190602401602060405180830381865afa15801561067d573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906106a19190610a91565b90506106b86001600160a01b03851633308661089f565b6040516370a0823160e01b815230600482015281906001600160a01b038616906370a0823190602401602060405180830381865afa1580156106fc573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906107209190610a91565b61072a9190610aa8565b949350505050565b5f7f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316826001600160a01b03160361077457506001919050565b7f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316826001600160a01b0316036107b457505f919050565b6040516340d1d8df60e11b81526001600160a01b03831660048201526024016104e7565b5f806108077f0000000000000000000000000000000000000000000000000000000000000000620f4240610aa8565b6108119084610abb565b90508061082186620f4240610abb565b61082b9190610a7e565b6108358583610abb565b61083f9190610ad2565b9695505050505050565b6040516001600160a01b03831660248201526044810182905261089a90849060640160408051601f198184030181529190526020810180516001600160e01b031663a9059cbb60e01b1790526108fe565b505050565b6040516001600160a01b03808516602483015283166044820152606481018290526108f890859060840160408051601f198184030181529190526020810180516001600160e01b03166323b872dd60e01b1790526108fe565b50505050565b5f5f836001600160a01b0316836040516109189190610af1565b5f604051808303815f865af19150503d805f8114610951576040519150601f19603f3d011682016040523d82523d5f602084013e610956565b606091505b50915091508161096857805160208201fd5b6001600160a01b0384163b158061099b575080511580159061099b5750808060200190518101906109999190610b07565b155b156108f857604051632b596cb760e01b81526001600160a01b03851660048201526024016104e7565b5f5f604083850312156109d5575f5ffd5b50508035926020909101359150565b80356001600160a01b03811681146109fa575f5ffd5b919050565b5f5f60408385031215610a10575f5ffd5b610a19836109e4565b946020939093013593505050565b5f5f5f5f60808587031215610a3a575f5ffd5b610a43856109e4565b93506020850135925060408501359150610a5f606086016109e4565b905092959194509250565b634e487b7160e01b5f52601160045260245ffd5b8082018082111561039f5761039f610a6a565b5f60208284031215610aa1575f5ffd5b5051919050565b8181038181111561039f5761039f610a6a565b808202811582820484141761039f5761039f610a6a565b5f82610aec57634e487b7160e01b5f52601260045260245ffd5b500490565b5f82518060208501845e5f920191825250919050565b5f60208284031215610b17575f5ffd5b81518015158114610b26575f5ffd5b939250505056",
}

// ConstantProductPool is an auto generated Go binding around an Ethereum contract.
type ConstantProductPool struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *ConstantProductPool) GetABI() abi.ABI {
	return c.abi
}

// NewConstantProductPool creates a new instance of ConstantProductPool.
func NewConstantProductPool() *ConstantProductPool {
	parsed, err := ConstantProductPoolMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &ConstantProductPool{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *ConstantProductPool) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address token0_, address token1_, uint256 feePpm_) returns()
func (constantProductPool *ConstantProductPool) PackConstructor(token0_ common.Address, token1_ common.Address, feePpm_ *big.Int) []byte {
	enc, err := constantProductPool.abi.Pack("", token0_, token1_, feePpm_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackAddLiquidity is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9cd441da.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function addLiquidity(uint256 amount0, uint256 amount1) returns()
func (constantProductPool *ConstantProductPool) PackAddLiquidity(amount0 *big.Int, amount1 *big.Int) []byte {
	enc, err := constantProductPool.abi.Pack("addLiquidity", amount0, amount1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAddLiquidity is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9cd441da.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function addLiquidity(uint256 amount0, uint256 amount1) returns()
func (constantProductPool *ConstantProductPool) TryPackAddLiquidity(amount0 *big.Int, amount1 *big.Int) ([]byte, error) {
	return constantProductPool.abi.Pack("addLiquidity", amount0, amount1)
}

// PackFeePpm is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa534150c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function feePpm() view returns(uint256)
func (constantProductPool *ConstantProductPool) PackFeePpm() []byte {
	enc, err := constantProductPool.abi.Pack("feePpm")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFeePpm is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa534150c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function feePpm() view returns(uint256)
func (constantProductPool *ConstantProductPool) TryPackFeePpm() ([]byte, error) {
	return constantProductPool.abi.Pack("feePpm")
}

// UnpackFeePpm is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa534150c.
//
// Solidity: function feePpm() view returns(uint256)
func (constantProductPool *ConstantProductPool) UnpackFeePpm(data []byte) (*big.Int, error) {
	out, err := constantProductPool.abi.Unpack("feePpm", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackGetAmountOut is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xca706bcf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getAmountOut(address tokenIn, uint256 amountIn) view returns(uint256)
func (constantProductPool *ConstantProductPool) PackGetAmountOut(tokenIn common.Address, amountIn *big.Int) []byte {
	enc, err := constantProductPool.abi.Pack("getAmountOut", tokenIn, amountIn)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetAmountOut is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xca706bcf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getAmountOut(address tokenIn, uint256 amountIn) view returns(uint256)
func (constantProductPool *ConstantProductPool) TryPackGetAmountOut(tokenIn common.Address, amountIn *big.Int) ([]byte, error) {
	return constantProductPool.abi.Pack("getAmountOut", tokenIn, amountIn)
}

// UnpackGetAmountOut is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xca706bcf.
//
// Solidity: function getAmountOut(address tokenIn, uint256 amountIn) view returns(uint256)
func (constantProductPool *ConstantProductPool) UnpackGetAmountOut(data []byte) (*big.Int, error) {
	out, err := constantProductPool.abi.Unpack("getAmountOut", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackGetReserves is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0902f1ac.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getReserves() view returns(uint256, uint256)
func (constantProductPool *ConstantProductPool) PackGetReserves() []byte {
	enc, err := constantProductPool.abi.Pack("getReserves")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetReserves is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0902f1ac.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getReserves() view returns(uint256, uint256)
func (constantProductPool *ConstantProductPool) TryPackGetReserves() ([]byte, error) {
	return constantProductPool.abi.Pack("getReserves")
}

// GetReservesOutput serves as a container for the return parameters of contract
// method GetReserves.
type GetReservesOutput struct {
	Arg0 *big.Int
	Arg1 *big.Int
}

// UnpackGetReserves is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x0902f1ac.
//
// Solidity: function getReserves() view returns(uint256, uint256)
func (constantProductPool *ConstantProductPool) UnpackGetReserves(data []byte) (GetReservesOutput, error) {
	out, err := constantProductPool.abi.Unpack("getReserves", data)
	outstruct := new(GetReservesOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Arg0 = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Arg1 = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackGetState is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1865c57d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getState() view returns(address token0_, address token1_, uint256 reserve0_, uint256 reserve1_, uint256 feePpm_)
func (constantProductPool *ConstantProductPool) PackGetState() []byte {
	enc, err := constantProductPool.abi.Pack("getState")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetState is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1865c57d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getState() view returns(address token0_, address token1_, uint256 reserve0_, uint256 reserve1_, uint256 feePpm_)
func (constantProductPool *ConstantProductPool) TryPackGetState() ([]byte, error) {
	return constantProductPool.abi.Pack("getState")
}

// GetStateOutput serves as a container for the return parameters of contract
// method GetState.
type GetStateOutput struct {
	Token0   common.Address
	Token1   common.Address
	Reserve0 *big.Int
	Reserve1 *big.Int
	FeePpm   *big.Int
}

// UnpackGetState is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1865c57d.
//
// Solidity: function getState() view returns(address token0_, address token1_, uint256 reserve0_, uint256 reserve1_, uint256 feePpm_)
func (constantProductPool *ConstantProductPool) UnpackGetState(data []byte) (GetStateOutput, error) {
	out, err := constantProductPool.abi.Unpack("getState", data)
	outstruct := new(GetStateOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Token0 = *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	outstruct.Token1 = *abi.ConvertType(out[1], new(common.Address)).(*common.Address)
	outstruct.Reserve0 = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	outstruct.Reserve1 = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	outstruct.FeePpm = abi.ConvertType(out[4], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackReserve0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x443cb4bc.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function reserve0() view returns(uint256)
func (constantProductPool *ConstantProductPool) PackReserve0() []byte {
	enc, err := constantProductPool.abi.Pack("reserve0")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackReserve0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x443cb4bc.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function reserve0() view returns(uint256)
func (constantProductPool *ConstantProductPool) TryPackReserve0() ([]byte, error) {
	return constantProductPool.abi.Pack("reserve0")
}

// UnpackReserve0 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x443cb4bc.
//
// Solidity: function reserve0() view returns(uint256)
func (constantProductPool *ConstantProductPool) UnpackReserve0(data []byte) (*big.Int, error) {
	out, err := constantProductPool.abi.Unpack("reserve0", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackReserve1 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5a76f25e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function reserve1() view returns(uint256)
func (constantProductPool *ConstantProductPool) PackReserve1() []byte {
	enc, err := constantProductPool.abi.Pack("reserve1")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackReserve1 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5a76f25e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function reserve1() view returns(uint256)
func (constantProductPool *ConstantProductPool) TryPackReserve1() ([]byte, error) {
	return constantProductPool.abi.Pack("reserve1")
}

// UnpackReserve1 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5a76f25e.
//
// Solidity: function reserve1() view returns(uint256)
func (constantProductPool *ConstantProductPool) UnpackReserve1(data []byte) (*big.Int, error) {
	out, err := constantProductPool.abi.Unpack("reserve1", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackSwap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf3e6ea8a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function swap(address tokenIn, uint256 amountIn, uint256 minAmountOut, address to) returns(uint256 amountOut)
func (constantProductPool *ConstantProductPool) PackSwap(tokenIn common.Address, amountIn *big.Int, minAmountOut *big.Int, to common.Address) []byte {
	enc, err := constantProductPool.abi.Pack("swap", tokenIn, amountIn, minAmountOut, to)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSwap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf3e6ea8a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function swap(address tokenIn, uint256 amountIn, uint256 minAmountOut, address to) returns(uint256 amountOut)
func (constantProductPool *ConstantProductPool) TryPackSwap(tokenIn common.Address, amountIn *big.Int, minAmountOut *big.Int, to common.Address) ([]byte, error) {
	return constantProductPool.abi.Pack("swap", tokenIn, amountIn, minAmountOut, to)
}

// UnpackSwap is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf3e6ea8a.
//
// Solidity: function swap(address tokenIn, uint256 amountIn, uint256 minAmountOut, address to) returns(uint256 amountOut)
func (constantProductPool *ConstantProductPool) UnpackSwap(data []byte) (*big.Int, error) {
	out, err := constantProductPool.abi.Unpack("swap", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackToken0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0dfe1681.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function token0() view returns(address)
func (constantProductPool *ConstantProductPool) PackToken0() []byte {
	enc, err := constantProductPool.abi.Pack("token0")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackToken0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0dfe1681.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function token0() view returns(address)
func (constantProductPool *ConstantProductPool) TryPackToken0() ([]byte, error) {
	return constantProductPool.abi.Pack("token0")
}

// UnpackToken0 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x0dfe1681.
//
// Solidity: function token0() view returns(address)
func (constantProductPool *ConstantProductPool) UnpackToken0(data []byte) (common.Address, error) {
	out, err := constantProductPool.abi.Unpack("token0", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackToken1 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd21220a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function token1() view returns(address)
func (constantProductPool *ConstantProductPool) PackToken1() []byte {
	enc, err := constantProductPool.abi.Pack("token1")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackToken1 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd21220a7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function token1() view returns(address)
func (constantProductPool *ConstantProductPool) TryPackToken1() ([]byte, error) {
	return constantProductPool.abi.Pack("token1")
}

// UnpackToken1 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd21220a7.
//
// Solidity: function token1() view returns(address)
func (constantProductPool *ConstantProductPool) UnpackToken1(data []byte) (common.Address, error) {
	out, err := constantProductPool.abi.Unpack("token1", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// ConstantProductPoolSwap represents a Swap event raised by the ConstantProductPool contract.
type ConstantProductPoolSwap struct {
	Sender    common.Address
	TokenIn   common.Address
	AmountIn  *big.Int
	AmountOut *big.Int
	To        common.Address
	Raw       *types.Log // Blockchain specific contextual infos
}

const ConstantProductPoolSwapEventName = "Swap"

// ContractEventName returns the user-defined event name.
func (ConstantProductPoolSwap) ContractEventName() string {
	return ConstantProductPoolSwapEventName
}

// UnpackSwapEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Swap(address indexed sender, address indexed tokenIn, uint256 amountIn, uint256 amountOut, address indexed to)
func (constantProductPool *ConstantProductPool) UnpackSwapEvent(log *types.Log) (*ConstantProductPoolSwap, error) {
	event := "Swap"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != constantProductPool.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ConstantProductPoolSwap)
	if len(log.Data) > 0 {
		if err := constantProductPool.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range constantProductPool.abi.Events[event].Inputs {
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

// ConstantProductPoolSync represents a Sync event raised by the ConstantProductPool contract.
type ConstantProductPoolSync struct {
	Reserve0 *big.Int
	Reserve1 *big.Int
	Raw      *types.Log // Blockchain specific contextual infos
}

const ConstantProductPoolSyncEventName = "Sync"

// ContractEventName returns the user-defined event name.
func (ConstantProductPoolSync) ContractEventName() string {
	return ConstantProductPoolSyncEventName
}

// UnpackSyncEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Sync(uint256 reserve0, uint256 reserve1)
func (constantProductPool *ConstantProductPool) UnpackSyncEvent(log *types.Log) (*ConstantProductPoolSync, error) {
	event := "Sync"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != constantProductPool.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ConstantProductPoolSync)
	if len(log.Data) > 0 {
		if err := constantProductPool.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range constantProductPool.abi.Events[event].Inputs {
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
func (constantProductPool *ConstantProductPool) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], constantProductPool.abi.Errors["BadFee"].ID.Bytes()[:4]) {
		return constantProductPool.UnpackBadFeeError(raw[4:])
	}
	if bytes.Equal(raw[:4], constantProductPool.abi.Errors["Locked"].ID.Bytes()[:4]) {
		return constantProductPool.UnpackLockedError(raw[4:])
	}
	if bytes.Equal(raw[:4], constantProductPool.abi.Errors["OutputTooLow"].ID.Bytes()[:4]) {
		return constantProductPool.UnpackOutputTooLowError(raw[4:])
	}
	if bytes.Equal(raw[:4], constantProductPool.abi.Errors["TokenTransferFailed"].ID.Bytes()[:4]) {
		return constantProductPool.UnpackTokenTransferFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], constantProductPool.abi.Errors["UnknownToken"].ID.Bytes()[:4]) {
		return constantProductPool.UnpackUnknownTokenError(raw[4:])
	}
	if bytes.Equal(raw[:4], constantProductPool.abi.Errors["ZeroInput"].ID.Bytes()[:4]) {
		return constantProductPool.UnpackZeroInputError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// ConstantProductPoolBadFee represents a BadFee error raised by the ConstantProductPool contract.
type ConstantProductPoolBadFee struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error BadFee()
func ConstantProductPoolBadFeeErrorID() common.Hash {
	return common.HexToHash("0x917f1a53ab0995667e0a524011bf6b894f5faa124860eefa69a4604d77cf263f")
}

// UnpackBadFeeError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error BadFee()
func (constantProductPool *ConstantProductPool) UnpackBadFeeError(raw []byte) (*ConstantProductPoolBadFee, error) {
	out := new(ConstantProductPoolBadFee)
	if err := constantProductPool.abi.UnpackIntoInterface(out, "BadFee", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ConstantProductPoolLocked represents a Locked error raised by the ConstantProductPool contract.
type ConstantProductPoolLocked struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Locked()
func ConstantProductPoolLockedErrorID() common.Hash {
	return common.HexToHash("0x0f2e5b6c72c6a4491efd919a9f9a409f324ef0708c11ee57d410c2cb06c0992b")
}

// UnpackLockedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Locked()
func (constantProductPool *ConstantProductPool) UnpackLockedError(raw []byte) (*ConstantProductPoolLocked, error) {
	out := new(ConstantProductPoolLocked)
	if err := constantProductPool.abi.UnpackIntoInterface(out, "Locked", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ConstantProductPoolOutputTooLow represents a OutputTooLow error raised by the ConstantProductPool contract.
type ConstantProductPoolOutputTooLow struct {
	AmountOut    *big.Int
	MinAmountOut *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error OutputTooLow(uint256 amountOut, uint256 minAmountOut)
func ConstantProductPoolOutputTooLowErrorID() common.Hash {
	return common.HexToHash("0x8bb29dda4518c728e88b7b841226c06262034f45b2b6b53c2c813a9ee381d7e7")
}

// UnpackOutputTooLowError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error OutputTooLow(uint256 amountOut, uint256 minAmountOut)
func (constantProductPool *ConstantProductPool) UnpackOutputTooLowError(raw []byte) (*ConstantProductPoolOutputTooLow, error) {
	out := new(ConstantProductPoolOutputTooLow)
	if err := constantProductPool.abi.UnpackIntoInterface(out, "OutputTooLow", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ConstantProductPoolTokenTransferFailed represents a TokenTransferFailed error raised by the ConstantProductPool contract.
type ConstantProductPoolTokenTransferFailed struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TokenTransferFailed(address token)
func ConstantProductPoolTokenTransferFailedErrorID() common.Hash {
	return common.HexToHash("0x2b596cb7e9804a5202312682f04514d7f31332b7e5ffeaad4ba2ee9969d1d7d0")
}

// UnpackTokenTransferFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TokenTransferFailed(address token)
func (constantProductPool *ConstantProductPool) UnpackTokenTransferFailedError(raw []byte) (*ConstantProductPoolTokenTransferFailed, error) {
	out := new(ConstantProductPoolTokenTransferFailed)
	if err := constantProductPool.abi.UnpackIntoInterface(out, "TokenTransferFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ConstantProductPoolUnknownToken represents a UnknownToken error raised by the ConstantProductPool contract.
type ConstantProductPoolUnknownToken struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error UnknownToken(address token)
func ConstantProductPoolUnknownTokenErrorID() common.Hash {
	return common.HexToHash("0x81a3b1be793a33711a37ddbe59cab61462924094bee93f89ee4f8da7f0005496")
}

// UnpackUnknownTokenError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error UnknownToken(address token)
func (constantProductPool *ConstantProductPool) UnpackUnknownTokenError(raw []byte) (*ConstantProductPoolUnknownToken, error) {
	out := new(ConstantProductPoolUnknownToken)
	if err := constantProductPool.abi.UnpackIntoInterface(out, "UnknownToken", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ConstantProductPoolZeroInput represents a ZeroInput error raised by the ConstantProductPool contract.
type ConstantProductPoolZeroInput struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroInput()
func ConstantProductPoolZeroInputErrorID() common.Hash {
	return common.HexToHash("0xaf458c07509b7228f8ecdf4f602f15e50539ac2d60c414c6d841dcdaca1d44d2")
}

// UnpackZeroInputError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroInput()
func (constantProductPool *ConstantProductPool) UnpackZeroInputError(raw []byte) (*ConstantProductPoolZeroInput, error) {
	out := new(ConstantProductPoolZeroInput)
	if err := constantProductPool.abi.UnpackIntoInterface(out, "ZeroInput", raw); err != nil {
		return nil, err
	}
	return out, nil
}
