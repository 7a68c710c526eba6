// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package stableswappool

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

// StableSwapPoolMetaData contains all meta data concerning the StableSwapPool contract.
var StableSwapPoolMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token0_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token1_\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"A_\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"fee_\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"BadParameter\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Locked\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"}],\"name\":\"OutputTooLow\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenTransferFailed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"UnknownToken\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroInput\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"Swap\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"reserve0\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"reserve1\",\"type\":\"uint256\"}],\"name\":\"Sync\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"A\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"FEE_DENOMINATOR\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount0\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amount1\",\"type\":\"uint256\"}],\"name\":\"addLiquidity\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"fee\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"}],\"name\":\"getAmountOut\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getD\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getReserves\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getState\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"token0_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token1_\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"reserve0_\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"reserve1_\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"A_\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"fee_\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"mult0_\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"mult1_\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"mult0\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"mult1\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"reserve0\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"reserve1\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"swap\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"token0\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"token1\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "StableSwapPool",
	Bin: "0x6101406040526001600255348015610015575f5ffd5b506040516114a53803806114a5833981016040819052610034916101bf565b6001600160a01b03808516608081905290841660a0526040805163313ce56760e01b815290515f929163313ce5679160048083019260209291908290030181865afa158015610085573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906100a991906101ff565b90505f846001600160a01b031663313ce5676040518163ffffffff1660e01b8152600401602060405180830381865afa1580156100e8573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061010c91906101ff565b905083158061012057506402540be4008310155b8061012e575060128260ff16115b8061013c575060128160ff16115b1561015a57604051634762470b60e11b815260040160405180910390fd5b60c084905260e083905261016f82601261023a565b61017a90600a61033c565b6101005261018981601261023a565b61019490600a61033c565b610120525061034a945050505050565b80516001600160a01b03811681146101ba575f5ffd5b919050565b5f5f5f5f608085870312156101d2575f5ffd5b6101db856101a4565b93506101e9602086016101a4565b6040860151606090960151949790965092505050565b5f6020828403121561020f575f5ffd5b815160ff8116811461021f575f5ffd5b9392505050565b634e487b7160e01b5f52601160045260245ffd5b60ff828116828216039081111561025357610253610226565b92915050565b6001815b60018411156102945780850481111561027857610278610226565b600184161561028657908102905b60019390931c92800261025d565b935093915050565b5f826102aa57506001610253565b816102b657505f610253565b81600181146102cc57600281146102d6576102f2565b6001915050610253565b60ff8411156102e7576102e7610226565b50506001821b610253565b5060208310610133831016604e8410600b8410161715610315575081810a610253565b6103215f198484610259565b805f190482111561033457610334610226565b029392505050565b5f61021f60ff84168361029c565b60805160a05160c05160e05161010051610120516110816104245f395f818161022f0152818161027f015281816103c001528181610af70152610b5f01525f8181610209015281816102af0152818161039301528181610b180152610b3e01525f81816101e3015281816103310152610c2d01525f81816101bd0152818161036b0152818161080b0152610d3401525f818161018a015281816102fe01528181610450015281816106cd0152610a8b01525f818161011801528181610165015281816104230152818161070d0152610a4a01526110815ff3fe608060405234801561000f575f5ffd5b50600436106100f0575f3560e01c80638ca3a30211610093578063d73792a911610063578063d73792a914610320578063ddca3f431461032c578063f3e6ea8a14610353578063f446c1d014610366575f5ffd5b80638ca3a302146102aa5780639cd441da146102d1578063ca706bcf146102e6578063d21220a7146102f9575f5ffd5b80631a14ff7a116100ce5780631a14ff7a1461025c578063443cb4bc14610272578063534a80f71461027a5780635a76f25e146102a1575f5ffd5b80630902f1ac146100f45780630dfe1681146101135780631865c57d14610152575b5f5ffd5b5f54600154604080519283526020830191909152015b60405180910390f35b61013a7f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b03909116815260200161010a565b5f54600154604080516001600160a01b037f0000000000000000000000000000000000000000000000000000000000000000811682527f00000000000000000000000000000000000000000000000000000000000000001660208201529081019290925260608201527f000000000000000000000000000000000000000000000000000000000000000060808201527f000000000000000000000000000000000000000000000000000000000000000060a08201527f000000000000000000000000000000000000000000000000000000000000000060c08201527f000000000000000000000000000000000000000000000000000000000000000060e08201526101000161010a565b61026461038d565b60405190815260200161010a565b6102645f5481565b6102647f000000000000000000000000000000000000000000000000000000000000000081565b61026460015481565b6102647f000000000000000000000000000000000000000000000000000000000000000081565b6102e46102df366004610f18565b6103f6565b005b6102646102f4366004610f53565b6104f3565b61013a7f000000000000000000000000000000000000000000000000000000000000000081565b6102646402540be40081565b6102647f000000000000000000000000000000000000000000000000000000000000000081565b610264610361366004610f7b565b61055f565b6102647f000000000000000000000000000000000000000000000000000000000000000081565b5f6103f17f00000000000000000000000000000000000000000000000000000000000000005f546103be9190610fd2565b7f00000000000000000000000000000000000000000000000000000000000000006001546103ec9190610fd2565b6107e4565b905090565b600254600114610419576040516303cb96db60e21b815260040160405180910390fd5b600280555f6104487f00000000000000000000000000000000000000000000000000000000000000008461093f565b90505f6104757f00000000000000000000000000000000000000000000000000000000000000008461093f565b9050815f5f8282546104879190610fe9565b925050819055508060015f82825461049f9190610fe9565b90915550505f546001546040517fcf2aa50876cdfbb541206f89af0ee78d44a2abf8d328e37fa4917f982149848a926104e092908252602082015260400190565b60405180910390a1505060016002555050565b5f5f6104fe84610a47565b9050825f03610510575f915050610559565b5f5f82610521576001545f54610527565b5f546001545b91509150815f1480610537575080155b15610547575f9350505050610559565b61055383838388610aed565b93505050505b92915050565b5f600254600114610583576040516303cb96db60e21b815260040160405180910390fd5b600280555f61059186610a47565b90505f198503610604576040516370a0823160e01b81523360048201526001600160a01b038716906370a0823190602401602060405180830381865afa1580156105dd573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906106019190610ffc565b94505b845f036106245760405163af458c0760e01b815260040160405180910390fd5b5f61062f878761093f565b90505f5f83610642576001545f54610648565b5f546001545b91509150815f1480610658575080155b61066d5761066884838386610aed565b61066f565b5f5b945084158061067d57508685105b156106aa576040516345d94eed60e11b815260048101869052602481018890526044015b60405180910390fd5b5f84156106f1576106bb8484610fe9565b5f556106c78683611013565b600155507f000000000000000000000000000000000000000000000000000000000000000061072d565b6106fb8484610fe9565b6001556107088683611013565b5f55507f00000000000000000000000000000000000000000000000000000000000000005b6107416001600160a01b0382168888610c76565b60408051858152602081018890526001600160a01b03808a1692908d169133917fb39c9bc43f811e1a7ce159c5f147458fdb80266bf23c17322013316e27e086d0910160405180910390a47fcf2aa50876cdfbb541206f89af0ee78d44a2abf8d328e37fa4917f982149848a5f546001546040516107c9929190918252602082015260400190565b60405180910390a15050600160025550919695505050505050565b5f806107f08385610fe9565b9050805f03610802575f915050610559565b805f61082f60027f0000000000000000000000000000000000000000000000000000000000000000610fd2565b90505f5b60ff8110156109345782610848600289610fd2565b6108528583610fd2565b61085c9190611026565b9050610869600288610fd2565b6108738583610fd2565b61087d9190611026565b9050838161088d60026001610fe9565b6108979190610fd2565b856108a3600187611013565b6108ad9190610fd2565b6108b79190610fe9565b856108c3600285610fd2565b6108cd8988610fd2565b6108d79190610fe9565b6108e19190610fd2565b6108eb9190611026565b9450808511156109125760016109018287611013565b1161090d575050610934565b61092a565b600161091e8683611013565b1161092a575050610934565b5050600101610833565b509095945050505050565b5f815f0361094e57505f610559565b6040516370a0823160e01b81523060048201525f906001600160a01b038516906370a0823190602401602060405180830381865afa158015610992573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906109b69190610ffc565b90506109cd6001600160a01b038516333086610ccc565b6040516370a0823160e01b815230600482015281906001600160a01b038616906370a0823190602401602060405180830381865afa158015610a11573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610a359190610ffc565b610a3f9190611013565b949350505050565b5f7f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316826001600160a01b031603610a8957506001919050565b7f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316826001600160a01b031603610ac957505f919050565b6040516340d1d8df60e11b81526001600160a01b03831660048201526024016106a1565b5f5f5f86610b3c577f00000000000000000000000000000000000000000000000000000000000000007f0000000000000000000000000000000000000000000000000000000000000000610b7f565b7f00000000000000000000000000000000000000000000000000000000000000007f00000000000000000000000000000000000000000000000000000000000000005b90925090505f610b8f8388610fd2565b90505f610b9c8388610fd2565b90505f89610bb357610bae82846107e4565b610bbd565b610bbd83836107e4565b90505f610bdd610bcd878a610fd2565b610bd79086610fe9565b83610d2b565b9050610bea816001610fe9565b8311610bfe575f9650505050505050610a3f565b5f856001610c0c8487611013565b610c169190611013565b610c209190611026565b90506402540be400610c527f000000000000000000000000000000000000000000000000000000000000000083610fd2565b610c5c9190611026565b610c669082611013565b9c9b505050505050505050505050565b6040516001600160a01b038316602482015260448101829052610cc790849060640160408051601f198184030181529190526020810180516001600160e01b031663a9059cbb60e01b179052610e52565b505050565b6040516001600160a01b0380851660248301528316604482015260648101829052610d2590859060840160408051601f198184030181529190526020810180516001600160e01b03166323b872dd60e01b179052610e52565b50505050565b5f80610d5860027f0000000000000000000000000000000000000000000000000000000000000000610fd2565b905082610d66600286610fd2565b610d708583610fd2565b610d7a9190611026565b9050610d87600283610fd2565b610d918583610fd2565b610d9b9190611026565b90505f610da88386611026565b610db29087610fe9565b9050845f5b60ff811015610e4757818784610dce836002610fd2565b610dd89190610fe9565b610de29190611013565b85610ded8580610fd2565b610df79190610fe9565b610e019190611026565b925080831115610e27576001610e178285611013565b11610e225750610e47565b610e3e565b6001610e338483611013565b11610e3e5750610e47565b50600101610db7565b509695505050505050565b5f5f836001600160a01b031683604051610e6c9190611045565b5f604051808303815f865af19150503d805f8114610ea5576040519150601f19603f3d011682016040523d82523d5f602084013e610eaa565b606091505b509150915081610ebc57805160208201fd5b6001600160a01b0384163b1580610eef5750805115801590610eef575080806020019051810190610eed919061105b565b155b15610d2557604051632b596cb760e01b81526001600160a01b03851660048201526024016106a1565b5f5f60408385031215610f29575f5ffd5b50508035926020909101359150565b80356001600160a01b0381168114610f4e575f5ffd5b919050565b5f5f60408385031215610f64575f5ffd5b610f6d83610f38565b946020939093013593505050565b5f5f5f5f60808587031215610f8e575f5ffd5b610f9785610f38565b93506020850135925060408501359150610fb360608601610f38565b905092959194509250565b634e487b7160e01b5f52601160045260245ffd5b808202811582820484141761055957610559610fbe565b8082018082111561055957610559610fbe565b5f6020828403121561100c575f5ffd5b5051919050565b8181038181111561055957610559610fbe565b5f8261104057634e487b7160e01b5f52601260045260245ffd5b500490565b5f82518060208501845e5f920191825250919050565b5f6020828403121561106b575f5ffd5b8151801515811461107a575f5ffd5b939250505056",
}

// StableSwapPool is an auto generated Go binding around an Ethereum contract.
type StableSwapPool struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *StableSwapPool) GetABI() abi.ABI {
	return c.abi
}

// NewStableSwapPool creates a new instance of StableSwapPool.
func NewStableSwapPool() *StableSwapPool {
	parsed, err := StableSwapPoolMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &StableSwapPool{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *StableSwapPool) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address token0_, address token1_, uint256 A_, uint256 fee_) returns()
func (stableSwapPool *StableSwapPool) PackConstructor(token0_ common.Address, token1_ common.Address, A_ *big.Int, fee_ *big.Int) []byte {
	enc, err := stableSwapPool.abi.Pack("", token0_, token1_, A_, fee_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackA is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf446c1d0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function A() view returns(uint256)
func (stableSwapPool *StableSwapPool) PackA() []byte {
	enc, err := stableSwapPool.abi.Pack("A")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackA is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf446c1d0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function A() view returns(uint256)
func (stableSwapPool *StableSwapPool) TryPackA() ([]byte, error) {
	return stableSwapPool.abi.Pack("A")
}

// UnpackA is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf446c1d0.
//
// Solidity: function A() view returns(uint256)
func (stableSwapPool *StableSwapPool) UnpackA(data []byte) (*big.Int, error) {
	out, err := stableSwapPool.abi.Unpack("A", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackFEEDENOMINATOR is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd73792a9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function FEE_DENOMINATOR() view returns(uint256)
func (stableSwapPool *StableSwapPool) PackFEEDENOMINATOR() []byte {
	enc, err := stableSwapPool.abi.Pack("FEE_DENOMINATOR")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFEEDENOMINATOR is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd73792a9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function FEE_DENOMINATOR() view returns(uint256)
func (stableSwapPool *StableSwapPool) TryPackFEEDENOMINATOR() ([]byte, error) {
	return stableSwapPool.abi.Pack("FEE_DENOMINATOR")
}

// UnpackFEEDENOMINATOR is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd73792a9.
//
// Solidity: function FEE_DENOMINATOR() view returns(uint256)
func (stableSwapPool *StableSwapPool) UnpackFEEDENOMINATOR(data []byte) (*big.Int, error) {
	out, err := stableSwapPool.abi.Unpack("FEE_DENOMINATOR", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackAddLiquidity is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9cd441da.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function addLiquidity(uint256 amount0, uint256 amount1) returns()
func (stableSwapPool *StableSwapPool) PackAddLiquidity(amount0 *big.Int, amount1 *big.Int) []byte {
	enc, err := stableSwapPool.abi.Pack("addLiquidity", amount0, amount1)
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
func (stableSwapPool *StableSwapPool) TryPackAddLiquidity(amount0 *big.Int, amount1 *big.Int) ([]byte, error) {
	return stableSwapPool.abi.Pack("addLiquidity", amount0, amount1)
}

// PackFee is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xddca3f43.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function fee() view returns(uint256)
func (stableSwapPool *StableSwapPool) PackFee() []byte {
	enc, err := stableSwapPool.abi.Pack("fee")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFee is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xddca3f43.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function fee() view returns(uint256)
func (stableSwapPool *StableSwapPool) TryPackFee() ([]byte, error) {
	return stableSwapPool.abi.Pack("fee")
}

// UnpackFee is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xddca3f43.
//
// Solidity: function fee() view returns(uint256)
func (stableSwapPool *StableSwapPool) UnpackFee(data []byte) (*big.Int, error) {
	out, err := stableSwapPool.abi.Unpack("fee", data)
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
func (stableSwapPool *StableSwapPool) PackGetAmountOut(tokenIn common.Address, amountIn *big.Int) []byte {
	enc, err := stableSwapPool.abi.Pack("getAmountOut", tokenIn, amountIn)
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
func (stableSwapPool *StableSwapPool) TryPackGetAmountOut(tokenIn common.Address, amountIn *big.Int) ([]byte, error) {
	return stableSwapPool.abi.Pack("getAmountOut", tokenIn, amountIn)
}

// UnpackGetAmountOut is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xca706bcf.
//
// Solidity: function getAmountOut(address tokenIn, uint256 amountIn) view returns(uint256)
func (stableSwapPool *StableSwapPool) UnpackGetAmountOut(data []byte) (*big.Int, error) {
	out, err := stableSwapPool.abi.Unpack("getAmountOut", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackGetD is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1a14ff7a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getD() view returns(uint256)
func (stableSwapPool *StableSwapPool) PackGetD() []byte {
	enc, err := stableSwapPool.abi.Pack("getD")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetD is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1a14ff7a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getD() view returns(uint256)
func (stableSwapPool *StableSwapPool) TryPackGetD() ([]byte, error) {
	return stableSwapPool.abi.Pack("getD")
}

// UnpackGetD is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1a14ff7a.
//
// Solidity: function getD() view returns(uint256)
func (stableSwapPool *StableSwapPool) UnpackGetD(data []byte) (*big.Int, error) {
	out, err := stableSwapPool.abi.Unpack("getD", data)
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
func (stableSwapPool *StableSwapPool) PackGetReserves() []byte {
	enc, err := stableSwapPool.abi.Pack("getReserves")
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
func (stableSwapPool *StableSwapPool) TryPackGetReserves() ([]byte, error) {
	return stableSwapPool.abi.Pack("getReserves")
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
func (stableSwapPool *StableSwapPool) UnpackGetReserves(data []byte) (GetReservesOutput, error) {
	out, err := stableSwapPool.abi.Unpack("getReserves", data)
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
// Solidity: function getState() view returns(address token0_, address token1_, uint256 reserve0_, uint256 reserve1_, uint256 A_, uint256 fee_, uint256 mult0_, uint256 mult1_)
func (stableSwapPool *StableSwapPool) PackGetState() []byte {
	enc, err := stableSwapPool.abi.Pack("getState")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetState is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1865c57d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getState() view returns(address token0_, address token1_, uint256 reserve0_, uint256 reserve1_, uint256 A_, uint256 fee_, uint256 mult0_, uint256 mult1_)
func (stableSwapPool *StableSwapPool) TryPackGetState() ([]byte, error) {
	return stableSwapPool.abi.Pack("getState")
}

// GetStateOutput serves as a container for the return parameters of contract
// method GetState.
type GetStateOutput struct {
	Token0   common.Address
	Token1   common.Address
	Reserve0 *big.Int
	Reserve1 *big.Int
	A        *big.Int
	Fee      *big.Int
	Mult0    *big.Int
	Mult1    *big.Int
}

// UnpackGetState is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1865c57d.
//
// Solidity: function getState() view returns(address token0_, address token1_, uint256 reserve0_, uint256 reserve1_, uint256 A_, uint256 fee_, uint256 mult0_, uint256 mult1_)
func (stableSwapPool *StableSwapPool) UnpackGetState(data []byte) (GetStateOutput, error) {
	out, err := stableSwapPool.abi.Unpack("getState", data)
	outstruct := new(GetStateOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Token0 = *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	outstruct.Token1 = *abi.ConvertType(out[1], new(common.Address)).(*common.Address)
	outstruct.Reserve0 = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	outstruct.Reserve1 = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	outstruct.A = abi.ConvertType(out[4], new(big.Int)).(*big.Int)
	outstruct.Fee = abi.ConvertType(out[5], new(big.Int)).(*big.Int)
	outstruct.Mult0 = abi.ConvertType(out[6], new(big.Int)).(*big.Int)
	outstruct.Mult1 = abi.ConvertType(out[7], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackMult0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8ca3a302.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mult0() view returns(uint256)
func (stableSwapPool *StableSwapPool) PackMult0() []byte {
	enc, err := stableSwapPool.abi.Pack("mult0")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMult0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8ca3a302.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mult0() view returns(uint256)
func (stableSwapPool *StableSwapPool) TryPackMult0() ([]byte, error) {
	return stableSwapPool.abi.Pack("mult0")
}

// UnpackMult0 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8ca3a302.
//
// Solidity: function mult0() view returns(uint256)
func (stableSwapPool *StableSwapPool) UnpackMult0(data []byte) (*big.Int, error) {
	out, err := stableSwapPool.abi.Unpack("mult0", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMult1 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x534a80f7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mult1() view returns(uint256)
func (stableSwapPool *StableSwapPool) PackMult1() []byte {
	enc, err := stableSwapPool.abi.Pack("mult1")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMult1 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x534a80f7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mult1() view returns(uint256)
func (stableSwapPool *StableSwapPool) TryPackMult1() ([]byte, error) {
	return stableSwapPool.abi.Pack("mult1")
}

// UnpackMult1 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x534a80f7.
//
// Solidity: function mult1() view returns(uint256)
func (stableSwapPool *StableSwapPool) UnpackMult1(data []byte) (*big.Int, error) {
	out, err := stableSwapPool.abi.Unpack("mult1", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackReserve0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x443cb4bc.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function reserve0() view returns(uint256)
func (stableSwapPool *StableSwapPool) PackReserve0() []byte {
	enc, err := stableSwapPool.abi.Pack("reserve0")
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
func (stableSwapPool *StableSwapPool) TryPackReserve0() ([]byte, error) {
	return stableSwapPool.abi.Pack("reserve0")
}

// UnpackReserve0 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x443cb4bc.
//
// Solidity: function reserve0() view returns(uint256)
func (stableSwapPool *StableSwapPool) UnpackReserve0(data []byte) (*big.Int, error) {
	out, err := stableSwapPool.abi.Unpack("reserve0", data)
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
func (stableSwapPool *StableSwapPool) PackReserve1() []byte {
	enc, err := stableSwapPool.abi.Pack("reserve1")
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
func (stableSwapPool *StableSwapPool) TryPackReserve1() ([]byte, error) {
	return stableSwapPool.abi.Pack("reserve1")
}

// UnpackReserve1 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5a76f25e.
//
// Solidity: function reserve1() view returns(uint256)
func (stableSwapPool *StableSwapPool) UnpackReserve1(data []byte) (*big.Int, error) {
	out, err := stableSwapPool.abi.Unpack("reserve1", data)
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
func (stableSwapPool *StableSwapPool) PackSwap(tokenIn common.Address, amountIn *big.Int, minAmountOut *big.Int, to common.Address) []byte {
	enc, err := stableSwapPool.abi.Pack("swap", tokenIn, amountIn, minAmountOut, to)
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
func (stableSwapPool *StableSwapPool) TryPackSwap(tokenIn common.Address, amountIn *big.Int, minAmountOut *big.Int, to common.Address) ([]byte, error) {
	return stableSwapPool.abi.Pack("swap", tokenIn, amountIn, minAmountOut, to)
}

// UnpackSwap is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf3e6ea8a.
//
// Solidity: function swap(address tokenIn, uint256 amountIn, uint256 minAmountOut, address to) returns(uint256 amountOut)
func (stableSwapPool *StableSwapPool) UnpackSwap(data []byte) (*big.Int, error) {
	out, err := stableSwapPool.abi.Unpack("swap", data)
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
func (stableSwapPool *StableSwapPool) PackToken0() []byte {
	enc, err := stableSwapPool.abi.Pack("token0")
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
func (stableSwapPool *StableSwapPool) TryPackToken0() ([]byte, error) {
	return stableSwapPool.abi.Pack("token0")
}

// UnpackToken0 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x0dfe1681.
//
// Solidity: function token0() view returns(address)
func (stableSwapPool *StableSwapPool) UnpackToken0(data []byte) (common.Address, error) {
	out, err := stableSwapPool.abi.Unpack("token0", data)
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
func (stableSwapPool *StableSwapPool) PackToken1() []byte {
	enc, err := stableSwapPool.abi.Pack("token1")
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
func (stableSwapPool *StableSwapPool) TryPackToken1() ([]byte, error) {
	return stableSwapPool.abi.Pack("token1")
}

// UnpackToken1 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd21220a7.
//
// Solidity: function token1() view returns(address)
func (stableSwapPool *StableSwapPool) UnpackToken1(data []byte) (common.Address, error) {
	out, err := stableSwapPool.abi.Unpack("token1", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// StableSwapPoolSwap represents a Swap event raised by the StableSwapPool contract.
type StableSwapPoolSwap struct {
	Sender    common.Address
	TokenIn   common.Address
	AmountIn  *big.Int
	AmountOut *big.Int
	To        common.Address
	Raw       *types.Log // Blockchain specific contextual infos
}

const StableSwapPoolSwapEventName = "Swap"

// ContractEventName returns the user-defined event name.
func (StableSwapPoolSwap) ContractEventName() string {
	return StableSwapPoolSwapEventName
}

// UnpackSwapEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Swap(address indexed sender, address indexed tokenIn, uint256 amountIn, uint256 amountOut, address indexed to)
func (stableSwapPool *StableSwapPool) UnpackSwapEvent(log *types.Log) (*StableSwapPoolSwap, error) {
	event := "Swap"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != stableSwapPool.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(StableSwapPoolSwap)
	if len(log.Data) > 0 {
		if err := stableSwapPool.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range stableSwapPool.abi.Events[event].Inputs {
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

// StableSwapPoolSync represents a Sync event raised by the StableSwapPool contract.
type StableSwapPoolSync struct {
	Reserve0 *big.Int
	Reserve1 *big.Int
	Raw      *types.Log // Blockchain specific contextual infos
}

const StableSwapPoolSyncEventName = "Sync"

// ContractEventName returns the user-defined event name.
func (StableSwapPoolSync) ContractEventName() string {
	return StableSwapPoolSyncEventName
}

// UnpackSyncEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Sync(uint256 reserve0, uint256 reserve1)
func (stableSwapPool *StableSwapPool) UnpackSyncEvent(log *types.Log) (*StableSwapPoolSync, error) {
	event := "Sync"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != stableSwapPool.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(StableSwapPoolSync)
	if len(log.Data) > 0 {
		if err := stableSwapPool.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range stableSwapPool.abi.Events[event].Inputs {
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
func (stableSwapPool *StableSwapPool) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], stableSwapPool.abi.Errors["BadParameter"].ID.Bytes()[:4]) {
		return stableSwapPool.UnpackBadParameterError(raw[4:])
	}
	if bytes.Equal(raw[:4], stableSwapPool.abi.Errors["Locked"].ID.Bytes()[:4]) {
		return stableSwapPool.UnpackLockedError(raw[4:])
	}
	if bytes.Equal(raw[:4], stableSwapPool.abi.Errors["OutputTooLow"].ID.Bytes()[:4]) {
		return stableSwapPool.UnpackOutputTooLowError(raw[4:])
	}
	if bytes.Equal(raw[:4], stableSwapPool.abi.Errors["TokenTransferFailed"].ID.Bytes()[:4]) {
		return stableSwapPool.UnpackTokenTransferFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], stableSwapPool.abi.Errors["UnknownToken"].ID.Bytes()[:4]) {
		return stableSwapPool.UnpackUnknownTokenError(raw[4:])
	}
	if bytes.Equal(raw[:4], stableSwapPool.abi.Errors["ZeroInput"].ID.Bytes()[:4]) {
		return stableSwapPool.UnpackZeroInputError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// StableSwapPoolBadParameter represents a BadParameter error raised by the StableSwapPool contract.
type StableSwapPoolBadParameter struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error BadParameter()
func StableSwapPoolBadParameterErrorID() common.Hash {
	return common.HexToHash("0x8ec48e16047a0178c89bdefa13cab01a03913d2353214edd02ae0575f1cd52a7")
}

// UnpackBadParameterError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error BadParameter()
func (stableSwapPool *StableSwapPool) UnpackBadParameterError(raw []byte) (*StableSwapPoolBadParameter, error) {
	out := new(StableSwapPoolBadParameter)
	if err := stableSwapPool.abi.UnpackIntoInterface(out, "BadParameter", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// StableSwapPoolLocked represents a Locked error raised by the StableSwapPool contract.
type StableSwapPoolLocked struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Locked()
func StableSwapPoolLockedErrorID() common.Hash {
	return common.HexToHash("0x0f2e5b6c72c6a4491efd919a9f9a409f324ef0708c11ee57d410c2cb06c0992b")
}

// UnpackLockedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Locked()
func (stableSwapPool *StableSwapPool) UnpackLockedError(raw []byte) (*StableSwapPoolLocked, error) {
	out := new(StableSwapPoolLocked)
	if err := stableSwapPool.abi.UnpackIntoInterface(out, "Locked", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// StableSwapPoolOutputTooLow represents a OutputTooLow error raised by the StableSwapPool contract.
type StableSwapPoolOutputTooLow struct {
	AmountOut    *big.Int
	MinAmountOut *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error OutputTooLow(uint256 amountOut, uint256 minAmountOut)
func StableSwapPoolOutputTooLowErrorID() common.Hash {
	return common.HexToHash("0x8bb29dda4518c728e88b7b841226c06262034f45b2b6b53c2c813a9ee381d7e7")
}

// UnpackOutputTooLowError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error OutputTooLow(uint256 amountOut, uint256 minAmountOut)
func (stableSwapPool *StableSwapPool) UnpackOutputTooLowError(raw []byte) (*StableSwapPoolOutputTooLow, error) {
	out := new(StableSwapPoolOutputTooLow)
	if err := stableSwapPool.abi.UnpackIntoInterface(out, "OutputTooLow", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// StableSwapPoolTokenTransferFailed represents a TokenTransferFailed error raised by the StableSwapPool contract.
type StableSwapPoolTokenTransferFailed struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TokenTransferFailed(address token)
func StableSwapPoolTokenTransferFailedErrorID() common.Hash {
	return common.HexToHash("0x2b596cb7e9804a5202312682f04514d7f31332b7e5ffeaad4ba2ee9969d1d7d0")
}

// UnpackTokenTransferFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TokenTransferFailed(address token)
func (stableSwapPool *StableSwapPool) UnpackTokenTransferFailedError(raw []byte) (*StableSwapPoolTokenTransferFailed, error) {
	out := new(StableSwapPoolTokenTransferFailed)
	if err := stableSwapPool.abi.UnpackIntoInterface(out, "TokenTransferFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// StableSwapPoolUnknownToken represents a UnknownToken error raised by the StableSwapPool contract.
type StableSwapPoolUnknownToken struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error UnknownToken(address token)
func StableSwapPoolUnknownTokenErrorID() common.Hash {
	return common.HexToHash("0x81a3b1be793a33711a37ddbe59cab61462924094bee93f89ee4f8da7f0005496")
}

// UnpackUnknownTokenError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error UnknownToken(address token)
func (stableSwapPool *StableSwapPool) UnpackUnknownTokenError(raw []byte) (*StableSwapPoolUnknownToken, error) {
	out := new(StableSwapPoolUnknownToken)
	if err := stableSwapPool.abi.UnpackIntoInterface(out, "UnknownToken", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// StableSwapPoolZeroInput represents a ZeroInput error raised by the StableSwapPool contract.
type StableSwapPoolZeroInput struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroInput()
func StableSwapPoolZeroInputErrorID() common.Hash {
	return common.HexToHash("0xaf458c07509b7228f8ecdf4f602f15e50539ac2d60c414c6d841dcdaca1d44d2")
}

// UnpackZeroInputError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroInput()
func (stableSwapPool *StableSwapPool) UnpackZeroInputError(raw []byte) (*StableSwapPoolZeroInput, error) {
	out := new(StableSwapPoolZeroInput)
	if err := stableSwapPool.abi.UnpackIntoInterface(out, "ZeroInput", raw); err != nil {
		return nil, err
	}
	return out, nil
}
