// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package multicall

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

// MulticallResult is an auto generated low-level Go binding around an user-defined struct.
type MulticallResult struct {
	Success    bool
	ReturnData []byte
}

// MulticallStaticCall is an auto generated low-level Go binding around an user-defined struct.
type MulticallStaticCall struct {
	Target   common.Address
	CallData []byte
}

// MulticallMetaData contains all meta data concerning the Multicall contract.
var MulticallMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"target\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"}],\"internalType\":\"structMulticall.StaticCall[]\",\"name\":\"calls\",\"type\":\"tuple[]\"}],\"name\":\"aggregate\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"blockNumber\",\"type\":\"uint256\"},{\"components\":[{\"internalType\":\"bool\",\"name\":\"success\",\"type\":\"bool\"},{\"internalType\":\"bytes\",\"name\":\"returnData\",\"type\":\"bytes\"}],\"internalType\":\"structMulticall.Result[]\",\"name\":\"results\",\"type\":\"tuple[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"blockInfo\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"number\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"timestamp\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "Multicall",
	Bin: "0x6080604052348015600e575f5ffd5b506103c38061001c5f395ff3fe608060405234801561000f575f5ffd5b5060043610610034575f3560e01c806315cad55214610038578063252dba4214610050575b5f5ffd5b60408051438152426020820152015b60405180910390f35b61006361005e3660046101e4565b610071565b604051610047929190610255565b4360608267ffffffffffffffff81111561008d5761008d6102f7565b6040519080825280602002602001820160405280156100d257816020015b604080518082019091525f8152606060208201528152602001906001900390816100ab5790505b5090505f5b838110156101dc575f5f8686848181106100f3576100f361030b565b9050602002810190610105919061031f565b61011390602081019061033d565b6001600160a01b031687878581811061012e5761012e61030b565b9050602002810190610140919061031f565b61014e90602081019061036a565b60405161015c9291906103b4565b5f60405180830381855afa9150503d805f8114610194576040519150601f19603f3d011682016040523d82523d5f602084013e610199565b606091505b509150915060405180604001604052808315158152602001828152508484815181106101c7576101c761030b565b602090810291909101015250506001016100d7565b509250929050565b5f5f602083850312156101f5575f5ffd5b823567ffffffffffffffff81111561020b575f5ffd5b8301601f8101851361021b575f5ffd5b803567ffffffffffffffff811115610231575f5ffd5b8560208260051b8401011115610245575f5ffd5b6020919091019590945092505050565b5f604082018483526040602084015280845180835260608501915060608160051b8601019250602086015f5b828110156102ea57605f198786030184528151805115158652602081015190506040602087015280518060408801528060208301606089015e5f606082890101526060601f19601f83011688010196505050602082019150602084019350600181019050610281565b5092979650505050505050565b634e487b7160e01b5f52604160045260245ffd5b634e487b7160e01b5f52603260045260245ffd5b5f8235603e19833603018112610333575f5ffd5b9190910192915050565b5f6020828403121561034d575f5ffd5b81356001600160a01b0381168114610363575f5ffd5b9392505050565b5f5f8335601e1984360301811261037f575f5ffd5b83018035915067ffffffffffffffff821115610399575f5ffd5b6020019150368190038213156103ad575f5ffd5b9250929050565b818382375f910190815291905056",
}

// Multicall is an auto generated Go binding around an Ethereum contract.
type Multicall struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Multicall) GetABI() abi.ABI {
	return c.abi
}

// NewMulticall creates a new instance of Multicall.
func NewMulticall() *Multicall {
	parsed, err := MulticallMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Multicall{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Multicall) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackAggregate is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x252dba42.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function aggregate((address,bytes)[] calls) view returns(uint256 blockNumber, (bool,bytes)[] results)
func (multicall *Multicall) PackAggregate(calls []MulticallStaticCall) []byte {
	enc, err := multicall.abi.Pack("aggregate", calls)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAggregate is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x252dba42.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function aggregate((address,bytes)[] calls) view returns(uint256 blockNumber, (bool,bytes)[] results)
func (multicall *Multicall) TryPackAggregate(calls []MulticallStaticCall) ([]byte, error) {
	return multicall.abi.Pack("aggregate", calls)
}

// AggregateOutput serves as a container for the return parameters of contract
// method Aggregate.
type AggregateOutput struct {
	BlockNumber *big.Int
	Results     []MulticallResult
}

// UnpackAggregate is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x252dba42.
//
// Solidity: function aggregate((address,bytes)[] calls) view returns(uint256 blockNumber, (bool,bytes)[] results)
func (multicall *Multicall) UnpackAggregate(data []byte) (AggregateOutput, error) {
	out, err := multicall.abi.Unpack("aggregate", data)
	outstruct := new(AggregateOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.BlockNumber = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Results = *abi.ConvertType(out[1], new([]MulticallResult)).(*[]MulticallResult)
	return *outstruct, nil
}

// PackBlockInfo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x15cad552.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function blockInfo() view returns(uint256 number, uint256 timestamp)
func (multicall *Multicall) PackBlockInfo() []byte {
	enc, err := multicall.abi.Pack("blockInfo")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBlockInfo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x15cad552.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function blockInfo() view returns(uint256 number, uint256 timestamp)
func (multicall *Multicall) TryPackBlockInfo() ([]byte, error) {
	return multicall.abi.Pack("blockInfo")
}

// BlockInfoOutput serves as a container for the return parameters of contract
// method BlockInfo.
type BlockInfoOutput struct {
	Number    *big.Int
	Timestamp *big.Int
}

// UnpackBlockInfo is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x15cad552.
//
// Solidity: function blockInfo() view returns(uint256 number, uint256 timestamp)
func (multicall *Multicall) UnpackBlockInfo(data []byte) (BlockInfoOutput, error) {
	out, err := multicall.abi.Unpack("blockInfo", data)
	outstruct := new(BlockInfoOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Number = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Timestamp = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	return *outstruct, nil
}
