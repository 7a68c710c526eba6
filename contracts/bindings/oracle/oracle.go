// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package oracle

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

// OracleMetaData contains all meta data concerning the Oracle contract.
var OracleMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"maxAge_\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"LengthMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"maxAge\",\"type\":\"uint256\"}],\"name\":\"MaxAgeUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"int256\",\"name\":\"answer\",\"type\":\"int256\"},{\"indexed\":false,\"internalType\":\"uint80\",\"name\":\"roundId\",\"type\":\"uint80\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"updatedAt\",\"type\":\"uint256\"}],\"name\":\"PriceUpdated\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"latestRoundData\",\"outputs\":[{\"internalType\":\"uint80\",\"name\":\"roundId\",\"type\":\"uint80\"},{\"internalType\":\"int256\",\"name\":\"answer\",\"type\":\"int256\"},{\"internalType\":\"uint256\",\"name\":\"startedAt\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"updatedAt\",\"type\":\"uint256\"},{\"internalType\":\"uint80\",\"name\":\"answeredInRound\",\"type\":\"uint80\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"maxAge\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"maxAge_\",\"type\":\"uint256\"}],\"name\":\"setMaxAge\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"int256\",\"name\":\"answer\",\"type\":\"int256\"}],\"name\":\"setPrice\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"tokens\",\"type\":\"address[]\"},{\"internalType\":\"int256[]\",\"name\":\"answers\",\"type\":\"int256[]\"}],\"name\":\"setPrices\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "Oracle",
	Bin: "0x6080604052348015600e575f5ffd5b506040516106a53803806106a5833981016040819052602b9160a6565b5f80546001600160a01b03191633908117825560018390556040519091907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908290a36040518181527feb54bc3c0c2087fc6c82f348282683ca3b4d2a80476b6c90f2dee3411a16fdc19060200160405180910390a15060bc565b5f6020828403121560b5575f5ffd5b5051919050565b6105dc806100c95f395ff3fe608060405234801561000f575f5ffd5b5060043610610085575f3560e01c80638da5cb5b116100585780638da5cb5b146100dc578063a13cc76a14610106578063bb2cd728146101a1578063f2fde38b146101b4575f5ffd5b8063034dd29b14610089578063313ce5671461009e5780635ae28fc9146100b2578063687043c5146100c5575b5f5ffd5b61009c610097366004610484565b6101c7565b005b604051600881526020015b60405180910390f35b61009c6100c03660046104ac565b6101ff565b6100ce60015481565b6040519081526020016100a9565b5f546100ee906001600160a01b031681565b6040516001600160a01b0390911681526020016100a9565b61016d6101143660046104c3565b6001600160a01b03165f90815260026020818152604092839020835160608101855281546001600160501b03168082526001830154938201849052919093015467ffffffffffffffff1692909301829052919281908490565b604080516001600160501b03968716815260208101959095528401929092526060830152909116608082015260a0016100a9565b61009c6101af36600461052b565b610264565b61009c6101c23660046104c3565b610312565b5f546001600160a01b031633146101f1576040516330cd747160e01b815260040160405180910390fd5b6101fb8282610395565b5050565b5f546001600160a01b03163314610229576040516330cd747160e01b815260040160405180910390fd5b60018190556040518181527feb54bc3c0c2087fc6c82f348282683ca3b4d2a80476b6c90f2dee3411a16fdc19060200160405180910390a150565b5f546001600160a01b0316331461028e576040516330cd747160e01b815260040160405180910390fd5b8281146102b1576040516001621398b960e31b0319815260040160405180910390fd5b5f5b8381101561030b576103038585838181106102d0576102d0610597565b90506020020160208101906102e591906104c3565b8484848181106102f7576102f7610597565b90506020020135610395565b6001016102b3565b5050505050565b5f546001600160a01b0316331461033c576040516330cd747160e01b815260040160405180910390fd5b5f80546040516001600160a01b03808516939216917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e091a35f80546001600160a01b0319166001600160a01b0392909216919091179055565b6001600160a01b0382165f908152600260205260408120805490916001918391906103ca9084906001600160501b03166105ab565b82546101009290920a6001600160501b038181021990931691831602179091556001830184905560028301805467ffffffffffffffff19164267ffffffffffffffff811691909117909155835460408051878152919093166020820152918201526001600160a01b03851691507fcabd0ae06b9334d95fb769de39f49fe350b21c1cd817ddf5dead66978bff60f19060600160405180910390a2505050565b80356001600160a01b038116811461047f575f5ffd5b919050565b5f5f60408385031215610495575f5ffd5b61049e83610469565b946020939093013593505050565b5f602082840312156104bc575f5ffd5b5035919050565b5f602082840312156104d3575f5ffd5b6104dc82610469565b9392505050565b5f5f83601f8401126104f3575f5ffd5b50813567ffffffffffffffff81111561050a575f5ffd5b6020830191508360208260051b8501011115610524575f5ffd5b9250929050565b5f5f5f5f6040858703121561053e575f5ffd5b843567ffffffffffffffff811115610554575f5ffd5b610560878288016104e3565b909550935050602085013567ffffffffffffffff81111561057f575f5ffd5b61058b878288016104e3565b95989497509550505050565b634e487b7160e01b5f52603260045260245ffd5b6001600160501b0381811683821601908111156105d657634e487b7160e01b5f52601160045260245ffd5b9291505056",
}

// Oracle is an auto generated Go binding around an Ethereum contract.
type Oracle struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Oracle) GetABI() abi.ABI {
	return c.abi
}

// NewOracle creates a new instance of Oracle.
func NewOracle() *Oracle {
	parsed, err := OracleMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Oracle{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Oracle) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(uint256 maxAge_) returns()
func (oracle *Oracle) PackConstructor(maxAge_ *big.Int) []byte {
	enc, err := oracle.abi.Pack("", maxAge_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() pure returns(uint8)
func (oracle *Oracle) PackDecimals() []byte {
	enc, err := oracle.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() pure returns(uint8)
func (oracle *Oracle) TryPackDecimals() ([]byte, error) {
	return oracle.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() pure returns(uint8)
func (oracle *Oracle) UnpackDecimals(data []byte) (uint8, error) {
	out, err := oracle.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackLatestRoundData is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa13cc76a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function latestRoundData(address token) view returns(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
func (oracle *Oracle) PackLatestRoundData(token common.Address) []byte {
	enc, err := oracle.abi.Pack("latestRoundData", token)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackLatestRoundData is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa13cc76a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function latestRoundData(address token) view returns(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
func (oracle *Oracle) TryPackLatestRoundData(token common.Address) ([]byte, error) {
	return oracle.abi.Pack("latestRoundData", token)
}

// LatestRoundDataOutput serves as a container for the return parameters of contract
// method LatestRoundData.
type LatestRoundDataOutput struct {
	RoundId         *big.Int
	Answer          *big.Int
	StartedAt       *big.Int
	UpdatedAt       *big.Int
	AnsweredInRound *big.Int
}

// UnpackLatestRoundData is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa13cc76a.
//
// Solidity: function latestRoundData(address token) view returns(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
func (oracle *Oracle) UnpackLatestRoundData(data []byte) (LatestRoundDataOutput, error) {
	out, err := oracle.abi.Unpack("latestRoundData", data)
	outstruct := new(LatestRoundDataOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.RoundId = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Answer = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	outstruct.StartedAt = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	outstruct.UpdatedAt = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	outstruct.AnsweredInRound = abi.ConvertType(out[4], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackMaxAge is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x687043c5.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function maxAge() view returns(uint256)
func (oracle *Oracle) PackMaxAge() []byte {
	enc, err := oracle.abi.Pack("maxAge")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMaxAge is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x687043c5.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function maxAge() view returns(uint256)
func (oracle *Oracle) TryPackMaxAge() ([]byte, error) {
	return oracle.abi.Pack("maxAge")
}

// UnpackMaxAge is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x687043c5.
//
// Solidity: function maxAge() view returns(uint256)
func (oracle *Oracle) UnpackMaxAge(data []byte) (*big.Int, error) {
	out, err := oracle.abi.Unpack("maxAge", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (oracle *Oracle) PackOwner() []byte {
	enc, err := oracle.abi.Pack("owner")
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
func (oracle *Oracle) TryPackOwner() ([]byte, error) {
	return oracle.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (oracle *Oracle) UnpackOwner(data []byte) (common.Address, error) {
	out, err := oracle.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackSetMaxAge is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5ae28fc9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setMaxAge(uint256 maxAge_) returns()
func (oracle *Oracle) PackSetMaxAge(maxAge *big.Int) []byte {
	enc, err := oracle.abi.Pack("setMaxAge", maxAge)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetMaxAge is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5ae28fc9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setMaxAge(uint256 maxAge_) returns()
func (oracle *Oracle) TryPackSetMaxAge(maxAge *big.Int) ([]byte, error) {
	return oracle.abi.Pack("setMaxAge", maxAge)
}

// PackSetPrice is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x034dd29b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setPrice(address token, int256 answer) returns()
func (oracle *Oracle) PackSetPrice(token common.Address, answer *big.Int) []byte {
	enc, err := oracle.abi.Pack("setPrice", token, answer)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetPrice is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x034dd29b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setPrice(address token, int256 answer) returns()
func (oracle *Oracle) TryPackSetPrice(token common.Address, answer *big.Int) ([]byte, error) {
	return oracle.abi.Pack("setPrice", token, answer)
}

// PackSetPrices is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbb2cd728.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setPrices(address[] tokens, int256[] answers) returns()
func (oracle *Oracle) PackSetPrices(tokens []common.Address, answers []*big.Int) []byte {
	enc, err := oracle.abi.Pack("setPrices", tokens, answers)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetPrices is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbb2cd728.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setPrices(address[] tokens, int256[] answers) returns()
func (oracle *Oracle) TryPackSetPrices(tokens []common.Address, answers []*big.Int) ([]byte, error) {
	return oracle.abi.Pack("setPrices", tokens, answers)
}

// PackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (oracle *Oracle) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := oracle.abi.Pack("transferOwnership", newOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (oracle *Oracle) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return oracle.abi.Pack("transferOwnership", newOwner)
}

// OracleMaxAgeUpdated represents a MaxAgeUpdated event raised by the Oracle contract.
type OracleMaxAgeUpdated struct {
	MaxAge *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const OracleMaxAgeUpdatedEventName = "MaxAgeUpdated"

// ContractEventName returns the user-defined event name.
func (OracleMaxAgeUpdated) ContractEventName() string {
	return OracleMaxAgeUpdatedEventName
}

// UnpackMaxAgeUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event MaxAgeUpdated(uint256 maxAge)
func (oracle *Oracle) UnpackMaxAgeUpdatedEvent(log *types.Log) (*OracleMaxAgeUpdated, error) {
	event := "MaxAgeUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != oracle.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(OracleMaxAgeUpdated)
	if len(log.Data) > 0 {
		if err := oracle.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range oracle.abi.Events[event].Inputs {
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

// OracleOwnershipTransferred represents a OwnershipTransferred event raised by the Oracle contract.
type OracleOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const OracleOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (OracleOwnershipTransferred) ContractEventName() string {
	return OracleOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (oracle *Oracle) UnpackOwnershipTransferredEvent(log *types.Log) (*OracleOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != oracle.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(OracleOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := oracle.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range oracle.abi.Events[event].Inputs {
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

// OraclePriceUpdated represents a PriceUpdated event raised by the Oracle contract.
type OraclePriceUpdated struct {
	Token     common.Address
	Answer    *big.Int
	RoundId   *big.Int
	UpdatedAt *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const OraclePriceUpdatedEventName = "PriceUpdated"

// ContractEventName returns the user-defined event name.
func (OraclePriceUpdated) ContractEventName() string {
	return OraclePriceUpdatedEventName
}

// UnpackPriceUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event PriceUpdated(address indexed token, int256 answer, uint80 roundId, uint256 updatedAt)
func (oracle *Oracle) UnpackPriceUpdatedEvent(log *types.Log) (*OraclePriceUpdated, error) {
	event := "PriceUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != oracle.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(OraclePriceUpdated)
	if len(log.Data) > 0 {
		if err := oracle.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range oracle.abi.Events[event].Inputs {
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
func (oracle *Oracle) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], oracle.abi.Errors["LengthMismatch"].ID.Bytes()[:4]) {
		return oracle.UnpackLengthMismatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], oracle.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return oracle.UnpackNotOwnerError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// OracleLengthMismatch represents a LengthMismatch error raised by the Oracle contract.
type OracleLengthMismatch struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error LengthMismatch()
func OracleLengthMismatchErrorID() common.Hash {
	return common.HexToHash("0xff633a3803c58b9bc21e58efecee59f27e033cc0b1883fccb4969c76146fe60f")
}

// UnpackLengthMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error LengthMismatch()
func (oracle *Oracle) UnpackLengthMismatchError(raw []byte) (*OracleLengthMismatch, error) {
	out := new(OracleLengthMismatch)
	if err := oracle.abi.UnpackIntoInterface(out, "LengthMismatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OracleNotOwner represents a NotOwner error raised by the Oracle contract.
type OracleNotOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner()
func OracleNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x30cd74712f59d478562d48e2d35de830db72c60a63dd08ae59199eec990b5bc4")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner()
func (oracle *Oracle) UnpackNotOwnerError(raw []byte) (*OracleNotOwner, error) {
	out := new(OracleNotOwner)
	if err := oracle.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}
