// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package servicerouter

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

// Order is an auto generated low-level Go binding around an user-defined struct.
type Order struct {
	Salt             *big.Int
	Maker            common.Address
	Receiver         common.Address
	TokenIn          common.Address
	TokenOut         common.Address
	AmountIn         *big.Int
	TriggerPrice     *big.Int
	TriggerAmountOut *big.Int
	MakerTraits      *big.Int
	Referrer         common.Address
	ReferralFeePpm   uint32
}

// SwapParams is an auto generated low-level Go binding around an user-defined struct.
type SwapParams struct {
	TokenIn        common.Address
	TokenOut       common.Address
	AmountIn       *big.Int
	MinAmountOut   *big.Int
	Receiver       common.Address
	Referrer       common.Address
	ReferralFeePpm uint32
	UnwrapNative   bool
	Calls          []Call
}

// ServiceRouterMetaData contains all meta data concerning the ServiceRouter contract.
var ServiceRouterMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"feeVault_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"oracle_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"wrappedNative_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"BadSignature\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"index\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"reason\",\"type\":\"bytes\"}],\"name\":\"CallFailed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"DcaLegSize\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"DcaTooEarly\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FeeOnTransferToken\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FeeTooHigh\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FillExceedsRemaining\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InsufficientOutput\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidFeeCell\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidTraits\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"LimitPriceNotMet\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NativeTransferFailed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NonceIsInvalidated\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotMaker\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotRouter\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"OracleMissing\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"OracleStale\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"OrderExpired\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"OrderIsCancelled\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"PartialFillNotAllowed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Reentrancy\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"SenderNotAllowed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"SlippageExceeded\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenTransferFailed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"TriggerNotReached\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAmount\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint8\",\"name\":\"kind\",\"type\":\"uint8\"},{\"indexed\":true,\"internalType\":\"uint8\",\"name\":\"class\",\"type\":\"uint8\"},{\"indexed\":false,\"internalType\":\"uint32\",\"name\":\"protocolPpm\",\"type\":\"uint32\"},{\"indexed\":false,\"internalType\":\"uint32\",\"name\":\"keeperPpm\",\"type\":\"uint32\"}],\"name\":\"FeeSet\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"feeVault\",\"type\":\"address\"}],\"name\":\"FeeVaultSet\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"}],\"name\":\"NonceInvalidated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"oracle\",\"type\":\"address\"}],\"name\":\"OracleSet\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderHash\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"}],\"name\":\"OrderActivated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderHash\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"}],\"name\":\"OrderCancelled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"orderHash\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"keeper\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"protocolFee\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"referralFee\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"keeperFee\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"filledAmountIn\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint32\",\"name\":\"executions\",\"type\":\"uint32\"}],\"name\":\"OrderFilled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountOut\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"protocolFee\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"referralFee\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"referrer\",\"type\":\"address\"}],\"name\":\"Swapped\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint8\",\"name\":\"class\",\"type\":\"uint8\"}],\"name\":\"TokenClassSet\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"CANCEL_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"CLASS_MAJOR\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"CLASS_OTHER\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"CLASS_STABLE\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"KIND_DCA\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"KIND_DIRECT\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"KIND_LIMIT\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"KIND_STOP_LOSS\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"KIND_TAKE_PROFIT\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"KIND_TRAILING\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MAX_CELL_PPM\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MAX_REFERRAL_PPM\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"ORDER_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"uint256\",\"name\":\"salt\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"triggerPrice\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"triggerAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"makerTraits\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"referrer\",\"type\":\"address\"},{\"internalType\":\"uint32\",\"name\":\"referralFeePpm\",\"type\":\"uint32\"}],\"internalType\":\"structOrder\",\"name\":\"order\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"activate\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"name\":\"activated\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"uint256\",\"name\":\"salt\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"triggerPrice\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"triggerAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"makerTraits\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"referrer\",\"type\":\"address\"},{\"internalType\":\"uint32\",\"name\":\"referralFeePpm\",\"type\":\"uint32\"}],\"internalType\":\"structOrder\",\"name\":\"order\",\"type\":\"tuple\"}],\"name\":\"cancel\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"name\":\"cancelled\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"domainSeparator\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"executor\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"feeVault\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"kind\",\"type\":\"uint8\"},{\"internalType\":\"uint8\",\"name\":\"class\",\"type\":\"uint8\"}],\"name\":\"fees\",\"outputs\":[{\"internalType\":\"uint32\",\"name\":\"protocolPpm\",\"type\":\"uint32\"},{\"internalType\":\"uint32\",\"name\":\"keeperPpm\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"uint256\",\"name\":\"salt\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"triggerPrice\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"triggerAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"makerTraits\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"referrer\",\"type\":\"address\"},{\"internalType\":\"uint32\",\"name\":\"referralFeePpm\",\"type\":\"uint32\"}],\"internalType\":\"structOrder\",\"name\":\"order\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"fillIn\",\"type\":\"uint256\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"target\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"data\",\"type\":\"bytes\"}],\"internalType\":\"structCall[]\",\"name\":\"calls\",\"type\":\"tuple[]\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"}],\"name\":\"fillOrder\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"netOut\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"name\":\"filled\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"filledIn\",\"type\":\"uint256\"},{\"internalType\":\"uint32\",\"name\":\"executions\",\"type\":\"uint32\"},{\"internalType\":\"uint64\",\"name\":\"firstExecution\",\"type\":\"uint64\"},{\"internalType\":\"uint64\",\"name\":\"lastExecution\",\"type\":\"uint64\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"orderHash\",\"type\":\"bytes32\"}],\"name\":\"hashCancel\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"uint256\",\"name\":\"salt\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"maker\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"triggerPrice\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"triggerAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"makerTraits\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"referrer\",\"type\":\"address\"},{\"internalType\":\"uint32\",\"name\":\"referralFeePpm\",\"type\":\"uint32\"}],\"internalType\":\"structOrder\",\"name\":\"o\",\"type\":\"tuple\"}],\"name\":\"hashOrder\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"}],\"name\":\"invalidateNonce\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"nonceInvalidated\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"oracle\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"tokenA\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenB\",\"type\":\"address\"}],\"name\":\"pairClass\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"kind\",\"type\":\"uint8\"},{\"internalType\":\"uint8\",\"name\":\"class\",\"type\":\"uint8\"},{\"internalType\":\"uint32\",\"name\":\"protocolPpm\",\"type\":\"uint32\"},{\"internalType\":\"uint32\",\"name\":\"keeperPpm\",\"type\":\"uint32\"}],\"name\":\"setFee\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"feeVault_\",\"type\":\"address\"}],\"name\":\"setFeeVault\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"oracle_\",\"type\":\"address\"}],\"name\":\"setOracle\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint8\",\"name\":\"class\",\"type\":\"uint8\"}],\"name\":\"setTokenClass\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minAmountOut\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"referrer\",\"type\":\"address\"},{\"internalType\":\"uint32\",\"name\":\"referralFeePpm\",\"type\":\"uint32\"},{\"internalType\":\"bool\",\"name\":\"unwrapNative\",\"type\":\"bool\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"target\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"data\",\"type\":\"bytes\"}],\"internalType\":\"structCall[]\",\"name\":\"calls\",\"type\":\"tuple[]\"}],\"internalType\":\"structSwapParams\",\"name\":\"p\",\"type\":\"tuple\"}],\"name\":\"swap\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"netOut\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"tokenClass\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"wrappedNative\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "ServiceRouter",
	Bin: "0x60c06040526001600955348015610014575f5ffd5b50604051613e5a380380613e5a8339810160408190526100339161017d565b5f80546001600160a01b038087166001600160a01b03199283161790925560018054868416908316179055600280548584169216919091179055811660a05260405161007e90610155565b604051809103905ff080158015610097573d5f5f3e3d5ffd5b506001600160a01b03908116608052604051908516905f907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908290a36040516001600160a01b03841681527f6e5cd85c798e1d300d3f0caf1f7d1f862360d2edbb2bc2034caa0196c1220afe9060200160405180910390a16040516001600160a01b03831681527f3f32684a32a11dabdbb8c0177de80aa3ae36a004d75210335b49e544e48cd0aa9060200160405180910390a1505050506101ce565b61065c806137fe83390190565b80516001600160a01b0381168114610178575f5ffd5b919050565b5f5f5f5f60808587031215610190575f5ffd5b61019985610162565b93506101a760208601610162565b92506101b560408601610162565b91506101c360608601610162565b905092959194509250565b60805160a0516135fa6102045f395f8181610230015281816106990152611bcb01525f8181610666015261173f01526135fa5ff3fe608060405260043610610220575f3560e01c80637dc0d1d01161011e578063c2fc3a14116100a8578063f15f60891161006d578063f15f6089146106bb578063f2fde38b146106f7578063f698da2514610716578063f90e7e801461072a578063f973a20914610763575f5ffd5b8063c2fc3a1414610274578063c34c08e514610655578063eade3ec9146102fc578063eb6d3a1114610688578063eef6fac2146105b2575f5ffd5b8063971c4832116100ee578063971c4832146105c55780639fac291f146105e4578063a23b90a614610603578063a591f97f14610617578063b70e36f014610636575f5ffd5b80637dc0d1d01461055657806382d3572d146105755780638da5cb5b146105945780638eaf409d146105b2575f5ffd5b8063478222c2116101aa57806373fca6ea1161016f57806373fca6ea146104b257806378e22f0e146104e55780637adbf973146105045780637b8dd829146105235780637cc198aa14610542575f5ffd5b8063478222c21461041e57806351ef7bbb146104555780636c11eaa6146103c75780636f75dec51461047457806370952d9b14610493575f5ffd5b8063288cdc91116101f0578063288cdc91146103105780632ac12622146103995780633b036863146103c757806343b64f6c146103eb578063446ff7641461040a575f5ffd5b80630263a8511461027457806313c476851461029f5780631b2b87e4146102be57806326c19694146102fc575f5ffd5b3661027057336001600160a01b037f0000000000000000000000000000000000000000000000000000000000000000161461026e57604051633d2cec6f60e21b815260040160405180910390fd5b005b5f5ffd5b34801561027f575f5ffd5b50610288600281565b60405160ff90911681526020015b60405180910390f35b3480156102aa575f5ffd5b5061026e6102b9366004612e27565b610796565b3480156102c9575f5ffd5b506102ec6102d8366004612e7c565b60046020525f908152604090205460ff1681565b6040519015158152602001610296565b348015610307575f5ffd5b50610288600181565b34801561031b575f5ffd5b5061036561032a366004612e7c565b60036020525f90815260409020805460019091015463ffffffff8116906001600160401b036401000000008204811691600160601b90041684565b6040805194855263ffffffff90931660208501526001600160401b0391821692840192909252166060820152608001610296565b3480156103a4575f5ffd5b506102ec6103b3366004612e7c565b60056020525f908152604090205460ff1681565b3480156103d2575f5ffd5b506103dd620186a081565b604051908152602001610296565b3480156103f6575f5ffd5b5061026e610405366004612eaa565b6108ca565b348015610415575f5ffd5b50610288600581565b348015610429575f5ffd5b5060015461043d906001600160a01b031681565b6040516001600160a01b039091168152602001610296565b348015610460575f5ffd5b5061028861046f366004612edb565b6109aa565b34801561047f575f5ffd5b5061028861048e366004612ef4565b6109e5565b34801561049e575f5ffd5b5061026e6104ad366004612f25565b610a1e565b3480156104bd575f5ffd5b506103dd7f66232a1ff744a3c7f88190c3041d071928f641910986fca3bc11cc338f5f9bb681565b3480156104f0575f5ffd5b5061026e6104ff366004612f97565b610ad9565b34801561050f575f5ffd5b5061026e61051e366004612edb565b610b9c565b34801561052e575f5ffd5b506103dd61053d366004612e7c565b610c1b565b34801561054d575f5ffd5b50610288600481565b348015610561575f5ffd5b5060025461043d906001600160a01b031681565b348015610580575f5ffd5b506103dd61058f366004612fe8565b610cb1565b34801561059f575f5ffd5b505f5461043d906001600160a01b031681565b3480156105bd575f5ffd5b506102885f81565b3480156105d0575f5ffd5b506103dd6105df366004612eaa565b610f4d565b3480156105ef575f5ffd5b506103dd6105fe36600461301f565b6110b6565b34801561060e575f5ffd5b50610288600381565b348015610622575f5ffd5b5061026e610631366004612edb565b6112b3565b348015610641575f5ffd5b5061026e610650366004612e7c565b61132b565b348015610660575f5ffd5b5061043d7f000000000000000000000000000000000000000000000000000000000000000081565b348015610693575f5ffd5b5061043d7f000000000000000000000000000000000000000000000000000000000000000081565b3480156106c6575f5ffd5b506106da6106d53660046130e4565b6113b0565b6040805163ffffffff938416815292909116602083015201610296565b348015610702575f5ffd5b5061026e610711366004612edb565b6113ff565b348015610721575f5ffd5b506103dd611482565b348015610735575f5ffd5b506102ec610744366004613100565b600660209081525f928352604080842090915290825290205460ff1681565b34801561076e575f5ffd5b506103dd7fa526c7ab3041c12d13434d9cf3fa1068d2dfb2d414f92d247876d206d364145581565b5f546001600160a01b031633146107c0576040516330cd747160e01b815260040160405180910390fd5b600560ff851611806107d55750600260ff8416115b156107f35760405163da914a0d60e01b815260040160405180910390fd5b620186a061080a63ffffffff80841690851661313c565b11156108295760405163cd4e616760e01b815260040160405180910390fd5b60408051808201825263ffffffff848116808352848216602080850182815260ff8b81165f81815260088552898120928d1680825292855289902097518854935188166401000000000267ffffffffffffffff19909416971696909617919091179095558551928352820152919290917f4bedaedf6a1ffac41fafa38234ef7b8ea94f5e8a1b406b22ee79b96c73381dc0910160405180910390a350505050565b6009546001146108ed5760405163558a1e0360e11b815260040160405180910390fd5b60026009556109026040820160208301612edb565b6001600160a01b0316336001600160a01b0316146109335760405163b331e42160e01b815260040160405180910390fd5b5f61093d82610f4d565b5f81815260056020908152604091829020805460ff1916600117905591925061096b91908401908401612edb565b6001600160a01b0316817fa6eb7cdc219e1518ced964e9a34e61d68a94e4f1569db3e84256ba981ba5275360405160405180910390a350506001600955565b6001600160a01b0381165f9081526007602052604081205460ff1680156109db576109d660018261314f565b6109de565b60025b9392505050565b5f5f6109f0846109aa565b90505f6109fc846109aa565b90508060ff168260ff1611610a115780610a13565b815b925050505b92915050565b5f546001600160a01b03163314610a48576040516330cd747160e01b815260040160405180910390fd5b600260ff82161115610a6d5760405163da914a0d60e01b815260040160405180910390fd5b610a78816001613168565b6001600160a01b0383165f81815260076020908152604091829020805460ff191660ff9586161790559051928416835290917feb4eccbc22b002a9a1c97da2a0108537df19e0a4cb74c07e2cebb474c0aa5b68910160405180910390a25050565b600954600114610afc5760405163558a1e0360e11b815260040160405180910390fd5b60026009555f610b0b84610f4d565b9050610b1a848285855f611526565b505f8181526004602052604090205460ff16610b91575f81815260046020908152604091829020805460ff19166001179055610b5a918601908601612edb565b6001600160a01b0316817fe09093d8ca5b2631c783e08144add50193540528c19ec779daafeb6eaa780eed60405160405180910390a35b505060016009555050565b5f546001600160a01b03163314610bc6576040516330cd747160e01b815260040160405180910390fd5b600280546001600160a01b0319166001600160a01b0383169081179091556040519081527f3f32684a32a11dabdbb8c0177de80aa3ae36a004d75210335b49e544e48cd0aa906020015b60405180910390a150565b5f610c24611482565b604080517f66232a1ff744a3c7f88190c3041d071928f641910986fca3bc11cc338f5f9bb6602082015290810184905260600160405160208183030381529060405280519060200120604051602001610c9492919061190160f01b81526002810192909252602282015260420190565b604051602081830303815290604052805190602001209050919050565b5f600954600114610cd55760405163558a1e0360e11b815260040160405180910390fd5b600260095560408201355f03610cfe57604051631f2a200560e01b815260040160405180910390fd5b610d0e6040830160208401612edb565b6001600160a01b0316610d246020840184612edb565b6001600160a01b031603610d4b57604051633221911d60e21b815260040160405180910390fd5b6040805160e081019091523381525f90610df990602080820190610d7190870187612edb565b6001600160a01b03168152602001856020016020810190610d929190612edb565b6001600160a01b0316815260408087013560208301525f90820152606001610dc060c0870160a08801612edb565b6001600160a01b03168152602001610dde60e0870160c08801613181565b63ffffffff169052610df461010086018661319a565b6116b9565b9050826060013581608001511015610e245760405163bb2875c360e01b815260040160405180910390fd5b5f80610e3660a0860160808701612edb565b6001600160a01b031614610e5957610e5460a0850160808601612edb565b610e5b565b335b9050610e88610e706040860160208701612edb565b8383610e83610100890160e08a016131ec565b611b40565b6001600160a01b038116337fbd99c6719f088aa0abd9e7b7a4a635d1f931601e9f304b538dc42be25d8c65c6610ec16020880188612edb565b610ed16040890160208a01612edb565b88604001358760800151886020015189604001518a60a00151604051610f3597969594939291906001600160a01b039788168152958716602087015260408601949094526060850192909252608084015260a083015290911660c082015260e00190565b60405180910390a35060800151600160095592915050565b5f807fa526c7ab3041c12d13434d9cf3fa1068d2dfb2d414f92d247876d206d36414558335610f826040860160208701612edb565b610f926060870160408801612edb565b610fa26080880160608901612edb565b610fb260a0890160808a01612edb565b60a089013560c08a013560e08b01356101008c0135610fd96101408e016101208f01612edb565b8d610140016020810190610fed9190613181565b60408051602081019d909d528c019a909a526001600160a01b0398891660608c015296881660808b015294871660a08a015292861660c089015260e08801919091526101008701526101208601526101408501521661016083015263ffffffff166101808201526101a001604051602081830303815290604052805190602001209050611078611482565b60405161190160f01b602082015260228101919091526042810182905260620160405160208183030381529060405280519060200120915050919050565b5f6009546001146110da5760405163558a1e0360e11b815260040160405180910390fd5b60026009555f6110e989610f4d565b90505f6110fa8a838b8b6001611526565b5f8381526003602090815260409182902082516080810184528154815260019091015463ffffffff8116928201929092526001600160401b036401000000008304811693820193909352600160601b90910490911660608201529091506111638b83838b611cfa565b5f61116f8c848b611dbf565b90505f6112376040518060e001604052808f60200160208101906111939190612edb565b6001600160a01b031681526020018f60600160208101906111b49190612edb565b6001600160a01b031681526020018f60800160208101906111d59190612edb565b6001600160a01b031681526020018c81526020018660ff1681526020018f6101200160208101906112069190612edb565b6001600160a01b031681526020018f6101400160208101906112289190613181565b63ffffffff1690528a8a6116b9565b905061124a8d858c858560800151611fe6565b868160800151101561126f5760405163bb2875c360e01b815260040160405180910390fd5b61128d858e60200160208101906112869190612edb565b858d6120e6565b61129a8d868c848761221d565b6080015160016009559c9b505050505050505050505050565b5f546001600160a01b031633146112dd576040516330cd747160e01b815260040160405180910390fd5b600180546001600160a01b0319166001600160a01b0383169081179091556040519081527f6e5cd85c798e1d300d3f0caf1f7d1f862360d2edbb2bc2034caa0196c1220afe90602001610c10565b60095460011461134e5760405163558a1e0360e11b815260040160405180910390fd5b6002600955335f818152600660209081526040808320858452825291829020805460ff1916600117905590518381527f1800cd2301fbc20790ed94f3d55a28ef2306a9c31cd3c72b5b71b6e4cf5c6241910160405180910390a2506001600955565b60ff8083165f90815260086020908152604080832093851683529281529082902082518084019093525463ffffffff8082168085526401000000009092041692909101829052905b9250929050565b5f546001600160a01b03163314611429576040516330cd747160e01b815260040160405180910390fd5b5f80546040516001600160a01b03808516939216917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e091a35f80546001600160a01b0319166001600160a01b0392909216919091179055565b604080517f8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f60208201527f4a3313019c07741e3ea5a37b7055dc4c23dd08f56b353bc4690f342eed4e56e7918101919091527f52f1a9b320cab38e5da8a8f97989383aab0a49165fc91c737310e4f7e982102160608201524660808201523060a08201525f9060c00160405160208183030381529060405280519060200120905090565b5f6115308661233a565b90508560a001355f0361155657604051631f2a200560e01b815260040160405180910390fd5b5f8581526005602052604090205460ff16156115855760405163e3cc793360e01b815260040160405180910390fd5b61010086013560065f61159e60408a0160208b01612edb565b6001600160a01b0316815260208082019290925260409081015f90812064ffffffffff607886901c16825290925290205460ff16156115f05760405163bedf8c3d60e01b815260040160405180910390fd5b64ffffffffff605082901c16801580159061160a57508042115b15611628576040516362b439dd60e11b815260040160405180910390fd5b83156116765769ffffffffffffffffffff821680158015906116565750803369ffffffffffffffffffff1614155b15611674576040516323dada5360e01b815260040160405180910390fd5b505b61169161168960408a0160208b01612edb565b88888861268e565b6116ae57604051635cd5d23360e01b815260040160405180910390fd5b505095945050505050565b6116f56040518060c001604052805f81526020015f81526020015f81526020015f81526020015f81526020015f6001600160a01b031681525090565b620186a08460c0015163ffffffff1611156117235760405163cd4e616760e01b815260040160405180910390fd5b60208401516040516370a0823160e01b81526001600160a01b037f00000000000000000000000000000000000000000000000000000000000000008181166004840152925f929116906370a0823190602401602060405180830381865afa158015611790573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906117b49190613207565b8651606088015160208901519293506117d9926001600160a01b031691908590612942565b60608601516117e8908261313c565b60208701516040516370a0823160e01b81526001600160a01b038581166004830152909116906370a0823190602401602060405180830381865afa158015611832573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906118569190613207565b146118745760405163faa5e57f60e01b815260040160405180910390fd5b60408087015190516370a0823160e01b81523060048201525f916001600160a01b0316906370a0823190602401602060405180830381865afa1580156118bc573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906118e09190613207565b60208801516040808a01518a51915162d4c6f760e01b81529394506001600160a01b0387169362d4c6f79361191e939092918c908c90600401613246565b6020604051808303815f875af115801561193a573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061195e9190613207565b5060408088015190516370a0823160e01b815230600482015282916001600160a01b0316906370a0823190602401602060405180830381865afa1580156119a7573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906119cb9190613207565b6119d5919061333c565b8452608087015160ff165f908152600860209081526040808320918a0151908a01518391611a02916109e5565b60ff16815260208082019290925260409081015f2081518083019092525463ffffffff80821680845264010000000090920416928201929092528651909250620f424091611a4f9161334f565b611a59919061337a565b602086015260c08801518551620f424091611a7c9163ffffffff9091169061334f565b611a86919061337a565b6040860152608088015160ff1615611ac457620f4240816020015163ffffffff16865f0151611ab5919061334f565b611abf919061337a565b611ac6565b5f5b60608601819052604086015160208701518751611ae3919061333c565b611aed919061333c565b611af7919061333c565b608086015260a08801516001600160a01b031615611b19578760a00151611b26565b6001546001600160a01b03165b6001600160a01b031660a086015250929695505050505050565b602083015115611b6a576001546020840151611b6a916001600160a01b038781169291169061299b565b604083015115611b925760a08301516040840151611b92916001600160a01b0387169161299b565b606083015115611bb7576060830151611bb7906001600160a01b03861690339061299b565b608083015115611cf457808015611bff57507f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316846001600160a01b0316145b15611cd9576080830151604051632e1a7d4d60e01b815260048101919091526001600160a01b03851690632e1a7d4d906024015f604051808303815f87803b158015611c49575f5ffd5b505af1158015611c5b573d5f5f3e3d5ffd5b505050505f826001600160a01b031684608001516040515f6040518083038185875af1925050503d805f8114611cac576040519150601f19603f3d011682016040523d82523d5f602084013e611cb1565b606091505b5050905080611cd357604051633d2cec6f60e21b815260040160405180910390fd5b50611cf4565b6080830151611cf4906001600160a01b03861690849061299b565b50505050565b805f03611d1a57604051631f2a200560e01b815260040160405180910390fd5b81515f90611d2c9060a087013561333c565b905080821115611d4f576040516311e1fc8160e31b815260040160405180910390fd5b60031960ff851601611d6c57611d67858484846129f1565b611db8565b60ff84166001148015611d895750610100850135600160fa1b1615155b15611d945750611cf4565b8460a001358214611db8576040516323bc005f60e21b815260040160405180910390fd5b5050505050565b5f5f1960ff841601611dd257505f6109de565b5f80611dec611de76080880160608901612edb565b612bd9565b611dff611de760a0890160808a01612edb565b90925090505f611e156080880160608901612edb565b6001600160a01b031663313ce5676040518163ffffffff1660e01b8152600401602060405180830381865afa158015611e50573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190611e74919061338d565b60ff1690505f611e8a60a0890160808a01612edb565b6001600160a01b031663313ce5676040518163ffffffff1660e01b8152600401602060405180830381865afa158015611ec5573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190611ee9919061338d565b60ff1690505f83611efb83600a61348b565b611f05908761334f565b611f0f919061337a565b905060011960ff891601611f47578860c00135811115611f4257604051636e67e57160e11b815260040160405180910390fd5b611f9b565b60ff881660031480611f71575060ff88166004148015611f715750610100890135600160fb1b1615155b15611f9b578860c00135811015611f9b57604051636e67e57160e11b815260040160405180910390fd5b611fa683600a61348b565b611fb0908561334f565b611fbb83600a61348b565b611fc5878a61334f565b611fcf919061334f565b611fd9919061337a565b9998505050505050505050565b5f60ff851660011480612011575060ff851660041480156120115750610100860135600160fb1b1615155b9050801561208c575f6120288560e089013561334f565b90505f61203960a089013583613496565b15612045576001612047565b5f5b60ff1661205860a08a01358461337a565b612062919061313c565b9050808410156120855760405163d203a6d160e01b815260040160405180910390fd5b50506120de565b62ffffff61010087013560a01c16620f42406120a8828261333c565b6120b2908661334f565b6120bc919061337a565b8310156120dc57604051638199f5f360e01b815260040160405180910390fd5b505b505050505050565b80825f018181516120f7919061313c565b9052506020820180516001919061210f9083906134a9565b63ffffffff1690525060408201516001600160401b03165f0361213c576001600160401b03421660408301525b426001600160401b03908116606084019081525f868152600360209081526040808320875181558288015160019091018054838a0151965163ffffffff9093166bffffffffffffffffffffffff1990911617640100000000968816969096029590951767ffffffffffffffff60601b1916600160601b9190961602949094179092556004909152205460ff16611cf4575f84815260046020526040808220805460ff19166001179055516001600160a01b0385169186917fe09093d8ca5b2631c783e08144add50193540528c19ec779daafeb6eaa780eed9190a350505050565b5f8061222f6060880160408901612edb565b6001600160a01b0316146122525761224d6060870160408801612edb565b612262565b6122626040870160208801612edb565b905061228c61227760a0880160808901612edb565b84836101008a0135600160f81b161515611b40565b3361229d6040880160208901612edb565b6001600160a01b0316867f580008b1b22e32f1a867bef74655241f84235c1d61148ddb4f8a8a1acbc2d6e5878760800151886020015189604001518a606001518a5f01518b6020015160405161232a9796959493929190968752602087019590955260408601939093526060850191909152608084015260a083015263ffffffff1660c082015260e00190565b60405180910390a4505050505050565b5f61010082013562ffffff60a082901c81169060b883901c81169060d084901c1661ffff60e885901c16620f42408411806123a4575061238060a0880160808901612edb565b6001600160a01b03166123996080890160608a01612edb565b6001600160a01b0316145b806123c657505f6123bb6080890160608a01612edb565b6001600160a01b0316145b806123e857505f6123dd60a0890160808a01612edb565b6001600160a01b0316145b1561240657604051633221911d60e21b815260040160405180910390fd5b5f600160fc1b86165f0361241a575f61241d565b60015b600160fd1b87165f03612430575f612433565b60015b600160fe1b88165f03612446575f612449565b60015b600160ff1b89165f0361245c575f61245f565b60015b6124699190613168565b6124739190613168565b61247d9190613168565b60ff16905060018111156124a457604051633221911d60e21b815260040160405180910390fd5b600160fc1b86161561254f57600160fb1b861615155f816124d85760c08a01351580156124d3575060e08a0135155b6124e0565b5f8a60c00135115b90508015806124f45750600160fa1b881615155b806124fd575083155b80612506575084155b806125135750620f424086115b806125215750838a60a00135105b1561253f57604051633221911d60e21b815260040160405180910390fd5b5060049998505050505050505050565b8215158061255c57508115155b8061256c5750600560f91b861615155b1561258a57604051633221911d60e21b815260040160405180910390fd5b600160fd1b8616156125fe5760c08801351515806125ab575060e088013515155b806125b4575083155b806125c25750620f42408410155b806125d25750600160fa1b861615155b156125f057604051633221911d60e21b815260040160405180910390fd5b506005979650505050505050565b8315158061260e575060c0880135155b1561262c57604051633221911d60e21b815260040160405180910390fd5b600360fe1b86161561268057600160fa1b86161561265d57604051633221911d60e21b815260040160405180910390fd5b600160ff1b86165f03612671576003612674565b60025b98975050505050505050565b506001979650505050505050565b5f6001600160a01b0385163b1561277a575f5f866001600160a01b0316631626ba7e60e01b8787876040516024016126c8939291906134c5565b60408051601f198184030181529181526020820180516001600160e01b03166001600160e01b031990941693909317909252905161270691906134e7565b5f60405180830381855afa9150503d805f811461273e576040519150601f19603f3d011682016040523d82523d5f602084013e612743565b606091505b509150915081801561275757506020815110155b80156127715750630b135d3f60e11b61276f826134fd565b145b9250505061293a565b5f808060418590036127f15761279360205f8789613520565b61279c91613547565b92506127ac604060208789613520565b6127b591613547565b9150858560408181106127ca576127ca613564565b919091013560f81c915050601b8110156127ec576127e9601b82613168565b90505b61285a565b604085900361284f5761280760205f8789613520565b61281091613547565b92505f61282160406020888a613520565b61282a91613547565b6001600160ff1b0381169350905061284760ff82901c601b613168565b91505061285a565b5f935050505061293a565b8060ff16601b1415801561287257508060ff16601c14155b8061289c57507f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a082115b156128ac575f935050505061293a565b604080515f808252602082018084528a905260ff841692820192909252606081018590526080810184905260019060a0016020604051602081039080840390855afa1580156128fd573d5f5f3e3d5ffd5b5050604051601f1901519150506001600160a01b038116158015906129335750886001600160a01b0316816001600160a01b0316145b9450505050505b949350505050565b6040516001600160a01b0380851660248301528316604482015260648101829052611cf490859060840160408051601f198184030181529190526020810180516001600160e01b03166323b872dd60e01b179052612d34565b6040516001600160a01b0383166024820152604481018290526129ec90849060640160408051601f198184030181529190526020810180516001600160e01b031663a9059cbb60e01b179052612d34565b505050565b61010084013561ffff60e882901c1662ffffff60d083901c81169060b884901c165f612a218460a08b013561337a565b90505f81895f0151612a33919061337a565b90505f878903612a4e57612a47828761333c565b9050612aab565b612a58838a613496565b15612a76576040516318fb253560e31b815260040160405180910390fd5b612a80838a61337a565b905085612a8d828461313c565b10612aab576040516318fb253560e31b815260040160405180910390fd5b5f8a6020015163ffffffff16118015612afc5750620f4240612acd858261333c565b612ad7908761334f565b612ae1919061337a565b8a606001516001600160401b0316612af9919061313c565b42105b15612b1a5760405163969b06f560e01b815260040160405180910390fd5b6001811115612bcc57600160f91b87165f03612b49576040516318fb253560e31b815260040160405180910390fd5b60208a015160019063ffffffff1615612ba9575f868c604001516001600160401b031642612b77919061333c565b612b81919061337a565b612b8c90600161313c565b9050838111612b9b575f612ba5565b612ba5848261333c565b9150505b80821115612bca576040516318fb253560e31b815260040160405180910390fd5b505b5050505050505050505050565b6002545f906001600160a01b031680612c05576040516337c1269f60e01b815260040160405180910390fd5b60405163509e63b560e11b81526001600160a01b0384811660048301525f91829184169063a13cc76a9060240160a060405180830381865afa158015612c4d573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190612c719190613591565b509350509250505f82131580612c85575080155b15612ca3576040516337c1269f60e01b815260040160405180910390fd5b826001600160a01b031663687043c56040518163ffffffff1660e01b8152600401602060405180830381865afa158015612cdf573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190612d039190613207565b612d0d908261313c565b421115612d2c57604051628af0d360e31b815260040160405180910390fd5b509392505050565b5f5f836001600160a01b031683604051612d4e91906134e7565b5f604051808303815f865af19150503d805f8114612d87576040519150601f19603f3d011682016040523d82523d5f602084013e612d8c565b606091505b509150915081612d9e57805160208201fd5b6001600160a01b0384163b1580612dd15750805115801590612dd1575080806020019051810190612dcf91906135df565b155b15611cf457604051632b596cb760e01b81526001600160a01b038516600482015260240160405180910390fd5b60ff81168114612e0c575f5ffd5b50565b803563ffffffff81168114612e22575f5ffd5b919050565b5f5f5f5f60808587031215612e3a575f5ffd5b8435612e4581612dfe565b93506020850135612e5581612dfe565b9250612e6360408601612e0f565b9150612e7160608601612e0f565b905092959194509250565b5f60208284031215612e8c575f5ffd5b5035919050565b5f6101608284031215612ea4575f5ffd5b50919050565b5f6101608284031215612ebb575f5ffd5b6109de8383612e93565b80356001600160a01b0381168114612e22575f5ffd5b5f60208284031215612eeb575f5ffd5b6109de82612ec5565b5f5f60408385031215612f05575f5ffd5b612f0e83612ec5565b9150612f1c60208401612ec5565b90509250929050565b5f5f60408385031215612f36575f5ffd5b612f3f83612ec5565b91506020830135612f4f81612dfe565b809150509250929050565b5f5f83601f840112612f6a575f5ffd5b5081356001600160401b03811115612f80575f5ffd5b6020830191508360208285010111156113f8575f5ffd5b5f5f5f6101808486031215612faa575f5ffd5b612fb48585612e93565b92506101608401356001600160401b03811115612fcf575f5ffd5b612fdb86828701612f5a565b9497909650939450505050565b5f60208284031215612ff8575f5ffd5b81356001600160401b0381111561300d575f5ffd5b820161012081850312156109de575f5ffd5b5f5f5f5f5f5f5f6101e0888a031215613036575f5ffd5b6130408989612e93565b96506101608801356001600160401b0381111561305b575f5ffd5b6130678a828b01612f5a565b90975095505061018088013593506101a08801356001600160401b0381111561308e575f5ffd5b8801601f81018a1361309e575f5ffd5b80356001600160401b038111156130b3575f5ffd5b8a60208260051b84010111156130c7575f5ffd5b979a969950949793966020909501956101c0909401359392505050565b5f5f604083850312156130f5575f5ffd5b8235612f3f81612dfe565b5f5f60408385031215613111575f5ffd5b61311a83612ec5565b946020939093013593505050565b634e487b7160e01b5f52601160045260245ffd5b80820180821115610a1857610a18613128565b60ff8281168282160390811115610a1857610a18613128565b60ff8181168382160190811115610a1857610a18613128565b5f60208284031215613191575f5ffd5b6109de82612e0f565b5f5f8335601e198436030181126131af575f5ffd5b8301803591506001600160401b038211156131c8575f5ffd5b6020019150600581901b36038213156113f8575f5ffd5b8015158114612e0c575f5ffd5b5f602082840312156131fc575f5ffd5b81356109de816131df565b5f60208284031215613217575f5ffd5b5051919050565b81835281816020850137505f828201602090810191909152601f909101601f19169091010190565b6001600160a01b03868116825285811660208301528416604082015260806060820181905281018290525f60a0600584901b830181019083018583603e1936839003015b8782101561332c57868503609f1901845282358181126132a8575f5ffd5b89016001600160a01b036132bb82612ec5565b1686526020810135601e198236030181126132d4575f5ffd5b016020810190356001600160401b038111156132ee575f5ffd5b8036038213156132fc575f5ffd5b6040602088015261331160408801828461321e565b9650505060208301925060208401935060018201915061328a565b50929a9950505050505050505050565b81810381811115610a1857610a18613128565b8082028115828204841417610a1857610a18613128565b634e487b7160e01b5f52601260045260245ffd5b5f8261338857613388613366565b500490565b5f6020828403121561339d575f5ffd5b81516109de81612dfe565b6001815b60018411156133e3578085048111156133c7576133c7613128565b60018416156133d557908102905b60019390931c9280026133ac565b935093915050565b5f826133f957506001610a18565b8161340557505f610a18565b816001811461341b576002811461342557613441565b6001915050610a18565b60ff84111561343657613436613128565b50506001821b610a18565b5060208310610133831016604e8410600b8410161715613464575081810a610a18565b6134705f1984846133a8565b805f190482111561348357613483613128565b029392505050565b5f6109de83836133eb565b5f826134a4576134a4613366565b500690565b63ffffffff8181168382160190811115610a1857610a18613128565b838152604060208201525f6134de60408301848661321e565b95945050505050565b5f82518060208501845e5f920191825250919050565b80516020808301519190811015612ea4575f1960209190910360031b1b16919050565b5f5f8585111561352e575f5ffd5b8386111561353a575f5ffd5b5050820193919092039150565b80356020831015610a18575f19602084900360031b1b1692915050565b634e487b7160e01b5f52603260045260245ffd5b805169ffffffffffffffffffff81168114612e22575f5ffd5b5f5f5f5f5f60a086880312156135a5575f5ffd5b6135ae86613578565b602087015160408801516060890151929750909550935091506135d360808701613578565b90509295509295909350565b5f602082840312156135ef575f5ffd5b81516109de816131df5660a0604052348015600e575f5ffd5b50336080526080516106256100375f395f818160620152818160a8015261026301526106255ff3fe608060405234801561000f575f5ffd5b5060043610610033575f3560e01c8062d4c6f714610037578063f887ea401461005d575b5f5ffd5b61004a610045366004610453565b61009c565b6040519081526020015b60405180910390f35b6100847f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610054565b5f336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146100e657604051639165520160e01b815260040160405180910390fd5b5f5b828110156101e5575f5f858584818110610104576101046104f2565b90506020028101906101169190610506565b610124906020810190610524565b6001600160a01b031686868581811061013f5761013f6104f2565b90506020028101906101519190610506565b61015f906020810190610544565b60405161016d92919061058e565b5f604051808303815f865af19150503d805f81146101a6576040519150601f19603f3d011682016040523d82523d5f602084013e6101ab565b606091505b5091509150816101db578281604051635c0dee5d60e01b81526004016101d292919061059d565b60405180910390fd5b50506001016100e8565b506040516370a0823160e01b81523060048201526001600160a01b038616906370a0823190602401602060405180830381865afa158015610228573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061024c91906105d9565b90508015610288576102886001600160a01b0386167f000000000000000000000000000000000000000000000000000000000000000083610316565b6040516370a0823160e01b81523060048201525f906001600160a01b038816906370a0823190602401602060405180830381865afa1580156102cc573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906102f091906105d9565b9050801561030c5761030c6001600160a01b0388168683610316565b5095945050505050565b6040516001600160a01b03831660248201526044810182905261036790849060640160408051601f198184030181529190526020810180516001600160e01b031663a9059cbb60e01b17905261036c565b505050565b5f5f836001600160a01b03168360405161038691906105f0565b5f604051808303815f865af19150503d805f81146103bf576040519150601f19603f3d011682016040523d82523d5f602084013e6103c4565b606091505b5091509150816103d657805160208201fd5b6001600160a01b0384163b158061040957508051158015906104095750808060200190518101906104079190610606565b155b1561043257604051632b596cb760e01b81526001600160a01b03851660048201526024016101d2565b50505050565b80356001600160a01b038116811461044e575f5ffd5b919050565b5f5f5f5f5f60808688031215610467575f5ffd5b61047086610438565b945061047e60208701610438565b935061048c60408701610438565b9250606086013567ffffffffffffffff8111156104a7575f5ffd5b8601601f810188136104b7575f5ffd5b803567ffffffffffffffff8111156104cd575f5ffd5b8860208260051b84010111156104e1575f5ffd5b959894975092955050506020019190565b634e487b7160e01b5f52603260045260245ffd5b5f8235603e1983360301811261051a575f5ffd5b9190910192915050565b5f60208284031215610534575f5ffd5b61053d82610438565b9392505050565b5f5f8335601e19843603018112610559575f5ffd5b83018035915067ffffffffffffffff821115610573575f5ffd5b602001915036819003821315610587575f5ffd5b9250929050565b818382375f9101908152919050565b828152604060208201525f82518060408401528060208501606085015e5f606082850101526060601f19601f8301168401019150509392505050565b5f602082840312156105e9575f5ffd5b5051919050565b5f82518060208501845e5f920191825250919050565b5f60208284031215610616575f5ffd5b8151801515811461053d575f5ffd",
}

// ServiceRouter is an auto generated Go binding around an Ethereum contract.
type ServiceRouter struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *ServiceRouter) GetABI() abi.ABI {
	return c.abi
}

// NewServiceRouter creates a new instance of ServiceRouter.
func NewServiceRouter() *ServiceRouter {
	parsed, err := ServiceRouterMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &ServiceRouter{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *ServiceRouter) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address owner_, address feeVault_, address oracle_, address wrappedNative_) returns()
func (serviceRouter *ServiceRouter) PackConstructor(owner_ common.Address, feeVault_ common.Address, oracle_ common.Address, wrappedNative_ common.Address) []byte {
	enc, err := serviceRouter.abi.Pack("", owner_, feeVault_, oracle_, wrappedNative_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackCANCELTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x73fca6ea.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function CANCEL_TYPEHASH() view returns(bytes32)
func (serviceRouter *ServiceRouter) PackCANCELTYPEHASH() []byte {
	enc, err := serviceRouter.abi.Pack("CANCEL_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCANCELTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x73fca6ea.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function CANCEL_TYPEHASH() view returns(bytes32)
func (serviceRouter *ServiceRouter) TryPackCANCELTYPEHASH() ([]byte, error) {
	return serviceRouter.abi.Pack("CANCEL_TYPEHASH")
}

// UnpackCANCELTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x73fca6ea.
//
// Solidity: function CANCEL_TYPEHASH() view returns(bytes32)
func (serviceRouter *ServiceRouter) UnpackCANCELTYPEHASH(data []byte) ([32]byte, error) {
	out, err := serviceRouter.abi.Unpack("CANCEL_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackCLASSMAJOR is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x26c19694.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function CLASS_MAJOR() view returns(uint8)
func (serviceRouter *ServiceRouter) PackCLASSMAJOR() []byte {
	enc, err := serviceRouter.abi.Pack("CLASS_MAJOR")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCLASSMAJOR is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x26c19694.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function CLASS_MAJOR() view returns(uint8)
func (serviceRouter *ServiceRouter) TryPackCLASSMAJOR() ([]byte, error) {
	return serviceRouter.abi.Pack("CLASS_MAJOR")
}

// UnpackCLASSMAJOR is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x26c19694.
//
// Solidity: function CLASS_MAJOR() view returns(uint8)
func (serviceRouter *ServiceRouter) UnpackCLASSMAJOR(data []byte) (uint8, error) {
	out, err := serviceRouter.abi.Unpack("CLASS_MAJOR", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackCLASSOTHER is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0263a851.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function CLASS_OTHER() view returns(uint8)
func (serviceRouter *ServiceRouter) PackCLASSOTHER() []byte {
	enc, err := serviceRouter.abi.Pack("CLASS_OTHER")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCLASSOTHER is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0263a851.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function CLASS_OTHER() view returns(uint8)
func (serviceRouter *ServiceRouter) TryPackCLASSOTHER() ([]byte, error) {
	return serviceRouter.abi.Pack("CLASS_OTHER")
}

// UnpackCLASSOTHER is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x0263a851.
//
// Solidity: function CLASS_OTHER() view returns(uint8)
func (serviceRouter *ServiceRouter) UnpackCLASSOTHER(data []byte) (uint8, error) {
	out, err := serviceRouter.abi.Unpack("CLASS_OTHER", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackCLASSSTABLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8eaf409d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function CLASS_STABLE() view returns(uint8)
func (serviceRouter *ServiceRouter) PackCLASSSTABLE() []byte {
	enc, err := serviceRouter.abi.Pack("CLASS_STABLE")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCLASSSTABLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8eaf409d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function CLASS_STABLE() view returns(uint8)
func (serviceRouter *ServiceRouter) TryPackCLASSSTABLE() ([]byte, error) {
	return serviceRouter.abi.Pack("CLASS_STABLE")
}

// UnpackCLASSSTABLE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8eaf409d.
//
// Solidity: function CLASS_STABLE() view returns(uint8)
func (serviceRouter *ServiceRouter) UnpackCLASSSTABLE(data []byte) (uint8, error) {
	out, err := serviceRouter.abi.Unpack("CLASS_STABLE", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackKINDDCA is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7cc198aa.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function KIND_DCA() view returns(uint8)
func (serviceRouter *ServiceRouter) PackKINDDCA() []byte {
	enc, err := serviceRouter.abi.Pack("KIND_DCA")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackKINDDCA is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7cc198aa.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function KIND_DCA() view returns(uint8)
func (serviceRouter *ServiceRouter) TryPackKINDDCA() ([]byte, error) {
	return serviceRouter.abi.Pack("KIND_DCA")
}

// UnpackKINDDCA is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7cc198aa.
//
// Solidity: function KIND_DCA() view returns(uint8)
func (serviceRouter *ServiceRouter) UnpackKINDDCA(data []byte) (uint8, error) {
	out, err := serviceRouter.abi.Unpack("KIND_DCA", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackKINDDIRECT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xeef6fac2.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function KIND_DIRECT() view returns(uint8)
func (serviceRouter *ServiceRouter) PackKINDDIRECT() []byte {
	enc, err := serviceRouter.abi.Pack("KIND_DIRECT")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackKINDDIRECT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xeef6fac2.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function KIND_DIRECT() view returns(uint8)
func (serviceRouter *ServiceRouter) TryPackKINDDIRECT() ([]byte, error) {
	return serviceRouter.abi.Pack("KIND_DIRECT")
}

// UnpackKINDDIRECT is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xeef6fac2.
//
// Solidity: function KIND_DIRECT() view returns(uint8)
func (serviceRouter *ServiceRouter) UnpackKINDDIRECT(data []byte) (uint8, error) {
	out, err := serviceRouter.abi.Unpack("KIND_DIRECT", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackKINDLIMIT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xeade3ec9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function KIND_LIMIT() view returns(uint8)
func (serviceRouter *ServiceRouter) PackKINDLIMIT() []byte {
	enc, err := serviceRouter.abi.Pack("KIND_LIMIT")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackKINDLIMIT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xeade3ec9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function KIND_LIMIT() view returns(uint8)
func (serviceRouter *ServiceRouter) TryPackKINDLIMIT() ([]byte, error) {
	return serviceRouter.abi.Pack("KIND_LIMIT")
}

// UnpackKINDLIMIT is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xeade3ec9.
//
// Solidity: function KIND_LIMIT() view returns(uint8)
func (serviceRouter *ServiceRouter) UnpackKINDLIMIT(data []byte) (uint8, error) {
	out, err := serviceRouter.abi.Unpack("KIND_LIMIT", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackKINDSTOPLOSS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc2fc3a14.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function KIND_STOP_LOSS() view returns(uint8)
func (serviceRouter *ServiceRouter) PackKINDSTOPLOSS() []byte {
	enc, err := serviceRouter.abi.Pack("KIND_STOP_LOSS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackKINDSTOPLOSS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc2fc3a14.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function KIND_STOP_LOSS() view returns(uint8)
func (serviceRouter *ServiceRouter) TryPackKINDSTOPLOSS() ([]byte, error) {
	return serviceRouter.abi.Pack("KIND_STOP_LOSS")
}

// UnpackKINDSTOPLOSS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc2fc3a14.
//
// Solidity: function KIND_STOP_LOSS() view returns(uint8)
func (serviceRouter *ServiceRouter) UnpackKINDSTOPLOSS(data []byte) (uint8, error) {
	out, err := serviceRouter.abi.Unpack("KIND_STOP_LOSS", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackKINDTAKEPROFIT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa23b90a6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function KIND_TAKE_PROFIT() view returns(uint8)
func (serviceRouter *ServiceRouter) PackKINDTAKEPROFIT() []byte {
	enc, err := serviceRouter.abi.Pack("KIND_TAKE_PROFIT")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackKINDTAKEPROFIT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa23b90a6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function KIND_TAKE_PROFIT() view returns(uint8)
func (serviceRouter *ServiceRouter) TryPackKINDTAKEPROFIT() ([]byte, error) {
	return serviceRouter.abi.Pack("KIND_TAKE_PROFIT")
}

// UnpackKINDTAKEPROFIT is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa23b90a6.
//
// Solidity: function KIND_TAKE_PROFIT() view returns(uint8)
func (serviceRouter *ServiceRouter) UnpackKINDTAKEPROFIT(data []byte) (uint8, error) {
	out, err := serviceRouter.abi.Unpack("KIND_TAKE_PROFIT", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackKINDTRAILING is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x446ff764.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function KIND_TRAILING() view returns(uint8)
func (serviceRouter *ServiceRouter) PackKINDTRAILING() []byte {
	enc, err := serviceRouter.abi.Pack("KIND_TRAILING")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackKINDTRAILING is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x446ff764.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function KIND_TRAILING() view returns(uint8)
func (serviceRouter *ServiceRouter) TryPackKINDTRAILING() ([]byte, error) {
	return serviceRouter.abi.Pack("KIND_TRAILING")
}

// UnpackKINDTRAILING is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x446ff764.
//
// Solidity: function KIND_TRAILING() view returns(uint8)
func (serviceRouter *ServiceRouter) UnpackKINDTRAILING(data []byte) (uint8, error) {
	out, err := serviceRouter.abi.Unpack("KIND_TRAILING", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackMAXCELLPPM is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3b036863.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_CELL_PPM() view returns(uint256)
func (serviceRouter *ServiceRouter) PackMAXCELLPPM() []byte {
	enc, err := serviceRouter.abi.Pack("MAX_CELL_PPM")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXCELLPPM is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3b036863.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_CELL_PPM() view returns(uint256)
func (serviceRouter *ServiceRouter) TryPackMAXCELLPPM() ([]byte, error) {
	return serviceRouter.abi.Pack("MAX_CELL_PPM")
}

// UnpackMAXCELLPPM is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3b036863.
//
// Solidity: function MAX_CELL_PPM() view returns(uint256)
func (serviceRouter *ServiceRouter) UnpackMAXCELLPPM(data []byte) (*big.Int, error) {
	out, err := serviceRouter.abi.Unpack("MAX_CELL_PPM", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMAXREFERRALPPM is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6c11eaa6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_REFERRAL_PPM() view returns(uint256)
func (serviceRouter *ServiceRouter) PackMAXREFERRALPPM() []byte {
	enc, err := serviceRouter.abi.Pack("MAX_REFERRAL_PPM")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXREFERRALPPM is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6c11eaa6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_REFERRAL_PPM() view returns(uint256)
func (serviceRouter *ServiceRouter) TryPackMAXREFERRALPPM() ([]byte, error) {
	return serviceRouter.abi.Pack("MAX_REFERRAL_PPM")
}

// UnpackMAXREFERRALPPM is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6c11eaa6.
//
// Solidity: function MAX_REFERRAL_PPM() view returns(uint256)
func (serviceRouter *ServiceRouter) UnpackMAXREFERRALPPM(data []byte) (*big.Int, error) {
	out, err := serviceRouter.abi.Unpack("MAX_REFERRAL_PPM", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackORDERTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf973a209.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function ORDER_TYPEHASH() view returns(bytes32)
func (serviceRouter *ServiceRouter) PackORDERTYPEHASH() []byte {
	enc, err := serviceRouter.abi.Pack("ORDER_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackORDERTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf973a209.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function ORDER_TYPEHASH() view returns(bytes32)
func (serviceRouter *ServiceRouter) TryPackORDERTYPEHASH() ([]byte, error) {
	return serviceRouter.abi.Pack("ORDER_TYPEHASH")
}

// UnpackORDERTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf973a209.
//
// Solidity: function ORDER_TYPEHASH() view returns(bytes32)
func (serviceRouter *ServiceRouter) UnpackORDERTYPEHASH(data []byte) ([32]byte, error) {
	out, err := serviceRouter.abi.Unpack("ORDER_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackActivate is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x78e22f0e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function activate((uint256,address,address,address,address,uint256,uint256,uint256,uint256,address,uint32) order, bytes signature) returns()
func (serviceRouter *ServiceRouter) PackActivate(order Order, signature []byte) []byte {
	enc, err := serviceRouter.abi.Pack("activate", order, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackActivate is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x78e22f0e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function activate((uint256,address,address,address,address,uint256,uint256,uint256,uint256,address,uint32) order, bytes signature) returns()
func (serviceRouter *ServiceRouter) TryPackActivate(order Order, signature []byte) ([]byte, error) {
	return serviceRouter.abi.Pack("activate", order, signature)
}

// PackActivated is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1b2b87e4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function activated(bytes32 ) view returns(bool)
func (serviceRouter *ServiceRouter) PackActivated(arg0 [32]byte) []byte {
	enc, err := serviceRouter.abi.Pack("activated", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackActivated is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1b2b87e4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function activated(bytes32 ) view returns(bool)
func (serviceRouter *ServiceRouter) TryPackActivated(arg0 [32]byte) ([]byte, error) {
	return serviceRouter.abi.Pack("activated", arg0)
}

// UnpackActivated is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1b2b87e4.
//
// Solidity: function activated(bytes32 ) view returns(bool)
func (serviceRouter *ServiceRouter) UnpackActivated(data []byte) (bool, error) {
	out, err := serviceRouter.abi.Unpack("activated", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackCancel is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x43b64f6c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function cancel((uint256,address,address,address,address,uint256,uint256,uint256,uint256,address,uint32) order) returns()
func (serviceRouter *ServiceRouter) PackCancel(order Order) []byte {
	enc, err := serviceRouter.abi.Pack("cancel", order)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCancel is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x43b64f6c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function cancel((uint256,address,address,address,address,uint256,uint256,uint256,uint256,address,uint32) order) returns()
func (serviceRouter *ServiceRouter) TryPackCancel(order Order) ([]byte, error) {
	return serviceRouter.abi.Pack("cancel", order)
}

// PackCancelled is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2ac12622.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function cancelled(bytes32 ) view returns(bool)
func (serviceRouter *ServiceRouter) PackCancelled(arg0 [32]byte) []byte {
	enc, err := serviceRouter.abi.Pack("cancelled", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCancelled is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2ac12622.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function cancelled(bytes32 ) view returns(bool)
func (serviceRouter *ServiceRouter) TryPackCancelled(arg0 [32]byte) ([]byte, error) {
	return serviceRouter.abi.Pack("cancelled", arg0)
}

// UnpackCancelled is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x2ac12622.
//
// Solidity: function cancelled(bytes32 ) view returns(bool)
func (serviceRouter *ServiceRouter) UnpackCancelled(data []byte) (bool, error) {
	out, err := serviceRouter.abi.Unpack("cancelled", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackDomainSeparator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf698da25.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function domainSeparator() view returns(bytes32)
func (serviceRouter *ServiceRouter) PackDomainSeparator() []byte {
	enc, err := serviceRouter.abi.Pack("domainSeparator")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDomainSeparator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf698da25.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function domainSeparator() view returns(bytes32)
func (serviceRouter *ServiceRouter) TryPackDomainSeparator() ([]byte, error) {
	return serviceRouter.abi.Pack("domainSeparator")
}

// UnpackDomainSeparator is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf698da25.
//
// Solidity: function domainSeparator() view returns(bytes32)
func (serviceRouter *ServiceRouter) UnpackDomainSeparator(data []byte) ([32]byte, error) {
	out, err := serviceRouter.abi.Unpack("domainSeparator", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackExecutor is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc34c08e5.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function executor() view returns(address)
func (serviceRouter *ServiceRouter) PackExecutor() []byte {
	enc, err := serviceRouter.abi.Pack("executor")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackExecutor is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc34c08e5.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function executor() view returns(address)
func (serviceRouter *ServiceRouter) TryPackExecutor() ([]byte, error) {
	return serviceRouter.abi.Pack("executor")
}

// UnpackExecutor is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc34c08e5.
//
// Solidity: function executor() view returns(address)
func (serviceRouter *ServiceRouter) UnpackExecutor(data []byte) (common.Address, error) {
	out, err := serviceRouter.abi.Unpack("executor", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackFeeVault is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x478222c2.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function feeVault() view returns(address)
func (serviceRouter *ServiceRouter) PackFeeVault() []byte {
	enc, err := serviceRouter.abi.Pack("feeVault")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFeeVault is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x478222c2.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function feeVault() view returns(address)
func (serviceRouter *ServiceRouter) TryPackFeeVault() ([]byte, error) {
	return serviceRouter.abi.Pack("feeVault")
}

// UnpackFeeVault is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x478222c2.
//
// Solidity: function feeVault() view returns(address)
func (serviceRouter *ServiceRouter) UnpackFeeVault(data []byte) (common.Address, error) {
	out, err := serviceRouter.abi.Unpack("feeVault", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackFees is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf15f6089.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function fees(uint8 kind, uint8 class) view returns(uint32 protocolPpm, uint32 keeperPpm)
func (serviceRouter *ServiceRouter) PackFees(kind uint8, class uint8) []byte {
	enc, err := serviceRouter.abi.Pack("fees", kind, class)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFees is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf15f6089.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function fees(uint8 kind, uint8 class) view returns(uint32 protocolPpm, uint32 keeperPpm)
func (serviceRouter *ServiceRouter) TryPackFees(kind uint8, class uint8) ([]byte, error) {
	return serviceRouter.abi.Pack("fees", kind, class)
}

// FeesOutput serves as a container for the return parameters of contract
// method Fees.
type FeesOutput struct {
	ProtocolPpm uint32
	KeeperPpm   uint32
}

// UnpackFees is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf15f6089.
//
// Solidity: function fees(uint8 kind, uint8 class) view returns(uint32 protocolPpm, uint32 keeperPpm)
func (serviceRouter *ServiceRouter) UnpackFees(data []byte) (FeesOutput, error) {
	out, err := serviceRouter.abi.Unpack("fees", data)
	outstruct := new(FeesOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.ProtocolPpm = *abi.ConvertType(out[0], new(uint32)).(*uint32)
	outstruct.KeeperPpm = *abi.ConvertType(out[1], new(uint32)).(*uint32)
	return *outstruct, nil
}

// PackFillOrder is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9fac291f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function fillOrder((uint256,address,address,address,address,uint256,uint256,uint256,uint256,address,uint32) order, bytes signature, uint256 fillIn, (address,bytes)[] calls, uint256 minAmountOut) returns(uint256 netOut)
func (serviceRouter *ServiceRouter) PackFillOrder(order Order, signature []byte, fillIn *big.Int, calls []Call, minAmountOut *big.Int) []byte {
	enc, err := serviceRouter.abi.Pack("fillOrder", order, signature, fillIn, calls, minAmountOut)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFillOrder is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9fac291f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function fillOrder((uint256,address,address,address,address,uint256,uint256,uint256,uint256,address,uint32) order, bytes signature, uint256 fillIn, (address,bytes)[] calls, uint256 minAmountOut) returns(uint256 netOut)
func (serviceRouter *ServiceRouter) TryPackFillOrder(order Order, signature []byte, fillIn *big.Int, calls []Call, minAmountOut *big.Int) ([]byte, error) {
	return serviceRouter.abi.Pack("fillOrder", order, signature, fillIn, calls, minAmountOut)
}

// UnpackFillOrder is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x9fac291f.
//
// Solidity: function fillOrder((uint256,address,address,address,address,uint256,uint256,uint256,uint256,address,uint32) order, bytes signature, uint256 fillIn, (address,bytes)[] calls, uint256 minAmountOut) returns(uint256 netOut)
func (serviceRouter *ServiceRouter) UnpackFillOrder(data []byte) (*big.Int, error) {
	out, err := serviceRouter.abi.Unpack("fillOrder", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackFilled is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x288cdc91.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function filled(bytes32 ) view returns(uint256 filledIn, uint32 executions, uint64 firstExecution, uint64 lastExecution)
func (serviceRouter *ServiceRouter) PackFilled(arg0 [32]byte) []byte {
	enc, err := serviceRouter.abi.Pack("filled", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFilled is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x288cdc91.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function filled(bytes32 ) view returns(uint256 filledIn, uint32 executions, uint64 firstExecution, uint64 lastExecution)
func (serviceRouter *ServiceRouter) TryPackFilled(arg0 [32]byte) ([]byte, error) {
	return serviceRouter.abi.Pack("filled", arg0)
}

// FilledOutput serves as a container for the return parameters of contract
// method Filled.
type FilledOutput struct {
	FilledIn       *big.Int
	Executions     uint32
	FirstExecution uint64
	LastExecution  uint64
}

// UnpackFilled is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x288cdc91.
//
// Solidity: function filled(bytes32 ) view returns(uint256 filledIn, uint32 executions, uint64 firstExecution, uint64 lastExecution)
func (serviceRouter *ServiceRouter) UnpackFilled(data []byte) (FilledOutput, error) {
	out, err := serviceRouter.abi.Unpack("filled", data)
	outstruct := new(FilledOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.FilledIn = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Executions = *abi.ConvertType(out[1], new(uint32)).(*uint32)
	outstruct.FirstExecution = *abi.ConvertType(out[2], new(uint64)).(*uint64)
	outstruct.LastExecution = *abi.ConvertType(out[3], new(uint64)).(*uint64)
	return *outstruct, nil
}

// PackHashCancel is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7b8dd829.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function hashCancel(bytes32 orderHash) view returns(bytes32)
func (serviceRouter *ServiceRouter) PackHashCancel(orderHash [32]byte) []byte {
	enc, err := serviceRouter.abi.Pack("hashCancel", orderHash)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackHashCancel is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7b8dd829.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function hashCancel(bytes32 orderHash) view returns(bytes32)
func (serviceRouter *ServiceRouter) TryPackHashCancel(orderHash [32]byte) ([]byte, error) {
	return serviceRouter.abi.Pack("hashCancel", orderHash)
}

// UnpackHashCancel is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7b8dd829.
//
// Solidity: function hashCancel(bytes32 orderHash) view returns(bytes32)
func (serviceRouter *ServiceRouter) UnpackHashCancel(data []byte) ([32]byte, error) {
	out, err := serviceRouter.abi.Unpack("hashCancel", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackHashOrder is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x971c4832.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function hashOrder((uint256,address,address,address,address,uint256,uint256,uint256,uint256,address,uint32) o) view returns(bytes32)
func (serviceRouter *ServiceRouter) PackHashOrder(o Order) []byte {
	enc, err := serviceRouter.abi.Pack("hashOrder", o)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackHashOrder is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x971c4832.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function hashOrder((uint256,address,address,address,address,uint256,uint256,uint256,uint256,address,uint32) o) view returns(bytes32)
func (serviceRouter *ServiceRouter) TryPackHashOrder(o Order) ([]byte, error) {
	return serviceRouter.abi.Pack("hashOrder", o)
}

// UnpackHashOrder is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x971c4832.
//
// Solidity: function hashOrder((uint256,address,address,address,address,uint256,uint256,uint256,uint256,address,uint32) o) view returns(bytes32)
func (serviceRouter *ServiceRouter) UnpackHashOrder(data []byte) ([32]byte, error) {
	out, err := serviceRouter.abi.Unpack("hashOrder", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackInvalidateNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb70e36f0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function invalidateNonce(uint256 nonce) returns()
func (serviceRouter *ServiceRouter) PackInvalidateNonce(nonce *big.Int) []byte {
	enc, err := serviceRouter.abi.Pack("invalidateNonce", nonce)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackInvalidateNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb70e36f0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function invalidateNonce(uint256 nonce) returns()
func (serviceRouter *ServiceRouter) TryPackInvalidateNonce(nonce *big.Int) ([]byte, error) {
	return serviceRouter.abi.Pack("invalidateNonce", nonce)
}

// PackNonceInvalidated is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf90e7e80.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function nonceInvalidated(address , uint256 ) view returns(bool)
func (serviceRouter *ServiceRouter) PackNonceInvalidated(arg0 common.Address, arg1 *big.Int) []byte {
	enc, err := serviceRouter.abi.Pack("nonceInvalidated", arg0, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNonceInvalidated is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf90e7e80.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function nonceInvalidated(address , uint256 ) view returns(bool)
func (serviceRouter *ServiceRouter) TryPackNonceInvalidated(arg0 common.Address, arg1 *big.Int) ([]byte, error) {
	return serviceRouter.abi.Pack("nonceInvalidated", arg0, arg1)
}

// UnpackNonceInvalidated is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf90e7e80.
//
// Solidity: function nonceInvalidated(address , uint256 ) view returns(bool)
func (serviceRouter *ServiceRouter) UnpackNonceInvalidated(data []byte) (bool, error) {
	out, err := serviceRouter.abi.Unpack("nonceInvalidated", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackOracle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7dc0d1d0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function oracle() view returns(address)
func (serviceRouter *ServiceRouter) PackOracle() []byte {
	enc, err := serviceRouter.abi.Pack("oracle")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOracle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7dc0d1d0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function oracle() view returns(address)
func (serviceRouter *ServiceRouter) TryPackOracle() ([]byte, error) {
	return serviceRouter.abi.Pack("oracle")
}

// UnpackOracle is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7dc0d1d0.
//
// Solidity: function oracle() view returns(address)
func (serviceRouter *ServiceRouter) UnpackOracle(data []byte) (common.Address, error) {
	out, err := serviceRouter.abi.Unpack("oracle", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (serviceRouter *ServiceRouter) PackOwner() []byte {
	enc, err := serviceRouter.abi.Pack("owner")
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
func (serviceRouter *ServiceRouter) TryPackOwner() ([]byte, error) {
	return serviceRouter.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (serviceRouter *ServiceRouter) UnpackOwner(data []byte) (common.Address, error) {
	out, err := serviceRouter.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackPairClass is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6f75dec5.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pairClass(address tokenA, address tokenB) view returns(uint8)
func (serviceRouter *ServiceRouter) PackPairClass(tokenA common.Address, tokenB common.Address) []byte {
	enc, err := serviceRouter.abi.Pack("pairClass", tokenA, tokenB)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPairClass is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6f75dec5.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function pairClass(address tokenA, address tokenB) view returns(uint8)
func (serviceRouter *ServiceRouter) TryPackPairClass(tokenA common.Address, tokenB common.Address) ([]byte, error) {
	return serviceRouter.abi.Pack("pairClass", tokenA, tokenB)
}

// UnpackPairClass is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6f75dec5.
//
// Solidity: function pairClass(address tokenA, address tokenB) view returns(uint8)
func (serviceRouter *ServiceRouter) UnpackPairClass(data []byte) (uint8, error) {
	out, err := serviceRouter.abi.Unpack("pairClass", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackSetFee is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x13c47685.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setFee(uint8 kind, uint8 class, uint32 protocolPpm, uint32 keeperPpm) returns()
func (serviceRouter *ServiceRouter) PackSetFee(kind uint8, class uint8, protocolPpm uint32, keeperPpm uint32) []byte {
	enc, err := serviceRouter.abi.Pack("setFee", kind, class, protocolPpm, keeperPpm)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetFee is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x13c47685.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setFee(uint8 kind, uint8 class, uint32 protocolPpm, uint32 keeperPpm) returns()
func (serviceRouter *ServiceRouter) TryPackSetFee(kind uint8, class uint8, protocolPpm uint32, keeperPpm uint32) ([]byte, error) {
	return serviceRouter.abi.Pack("setFee", kind, class, protocolPpm, keeperPpm)
}

// PackSetFeeVault is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa591f97f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setFeeVault(address feeVault_) returns()
func (serviceRouter *ServiceRouter) PackSetFeeVault(feeVault common.Address) []byte {
	enc, err := serviceRouter.abi.Pack("setFeeVault", feeVault)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetFeeVault is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa591f97f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setFeeVault(address feeVault_) returns()
func (serviceRouter *ServiceRouter) TryPackSetFeeVault(feeVault common.Address) ([]byte, error) {
	return serviceRouter.abi.Pack("setFeeVault", feeVault)
}

// PackSetOracle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7adbf973.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setOracle(address oracle_) returns()
func (serviceRouter *ServiceRouter) PackSetOracle(oracle common.Address) []byte {
	enc, err := serviceRouter.abi.Pack("setOracle", oracle)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetOracle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7adbf973.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setOracle(address oracle_) returns()
func (serviceRouter *ServiceRouter) TryPackSetOracle(oracle common.Address) ([]byte, error) {
	return serviceRouter.abi.Pack("setOracle", oracle)
}

// PackSetTokenClass is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70952d9b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setTokenClass(address token, uint8 class) returns()
func (serviceRouter *ServiceRouter) PackSetTokenClass(token common.Address, class uint8) []byte {
	enc, err := serviceRouter.abi.Pack("setTokenClass", token, class)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetTokenClass is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70952d9b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setTokenClass(address token, uint8 class) returns()
func (serviceRouter *ServiceRouter) TryPackSetTokenClass(token common.Address, class uint8) ([]byte, error) {
	return serviceRouter.abi.Pack("setTokenClass", token, class)
}

// PackSwap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x82d3572d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function swap((address,address,uint256,uint256,address,address,uint32,bool,(address,bytes)[]) p) returns(uint256 netOut)
func (serviceRouter *ServiceRouter) PackSwap(p SwapParams) []byte {
	enc, err := serviceRouter.abi.Pack("swap", p)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSwap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x82d3572d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function swap((address,address,uint256,uint256,address,address,uint32,bool,(address,bytes)[]) p) returns(uint256 netOut)
func (serviceRouter *ServiceRouter) TryPackSwap(p SwapParams) ([]byte, error) {
	return serviceRouter.abi.Pack("swap", p)
}

// UnpackSwap is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x82d3572d.
//
// Solidity: function swap((address,address,uint256,uint256,address,address,uint32,bool,(address,bytes)[]) p) returns(uint256 netOut)
func (serviceRouter *ServiceRouter) UnpackSwap(data []byte) (*big.Int, error) {
	out, err := serviceRouter.abi.Unpack("swap", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTokenClass is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x51ef7bbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function tokenClass(address token) view returns(uint8)
func (serviceRouter *ServiceRouter) PackTokenClass(token common.Address) []byte {
	enc, err := serviceRouter.abi.Pack("tokenClass", token)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTokenClass is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x51ef7bbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function tokenClass(address token) view returns(uint8)
func (serviceRouter *ServiceRouter) TryPackTokenClass(token common.Address) ([]byte, error) {
	return serviceRouter.abi.Pack("tokenClass", token)
}

// UnpackTokenClass is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x51ef7bbb.
//
// Solidity: function tokenClass(address token) view returns(uint8)
func (serviceRouter *ServiceRouter) UnpackTokenClass(data []byte) (uint8, error) {
	out, err := serviceRouter.abi.Unpack("tokenClass", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (serviceRouter *ServiceRouter) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := serviceRouter.abi.Pack("transferOwnership", newOwner)
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
func (serviceRouter *ServiceRouter) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return serviceRouter.abi.Pack("transferOwnership", newOwner)
}

// PackWrappedNative is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xeb6d3a11.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function wrappedNative() view returns(address)
func (serviceRouter *ServiceRouter) PackWrappedNative() []byte {
	enc, err := serviceRouter.abi.Pack("wrappedNative")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWrappedNative is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xeb6d3a11.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function wrappedNative() view returns(address)
func (serviceRouter *ServiceRouter) TryPackWrappedNative() ([]byte, error) {
	return serviceRouter.abi.Pack("wrappedNative")
}

// UnpackWrappedNative is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xeb6d3a11.
//
// Solidity: function wrappedNative() view returns(address)
func (serviceRouter *ServiceRouter) UnpackWrappedNative(data []byte) (common.Address, error) {
	out, err := serviceRouter.abi.Unpack("wrappedNative", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// ServiceRouterFeeSet represents a FeeSet event raised by the ServiceRouter contract.
type ServiceRouterFeeSet struct {
	Kind        uint8
	Class       uint8
	ProtocolPpm uint32
	KeeperPpm   uint32
	Raw         *types.Log // Blockchain specific contextual infos
}

const ServiceRouterFeeSetEventName = "FeeSet"

// ContractEventName returns the user-defined event name.
func (ServiceRouterFeeSet) ContractEventName() string {
	return ServiceRouterFeeSetEventName
}

// UnpackFeeSetEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event FeeSet(uint8 indexed kind, uint8 indexed class, uint32 protocolPpm, uint32 keeperPpm)
func (serviceRouter *ServiceRouter) UnpackFeeSetEvent(log *types.Log) (*ServiceRouterFeeSet, error) {
	event := "FeeSet"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != serviceRouter.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ServiceRouterFeeSet)
	if len(log.Data) > 0 {
		if err := serviceRouter.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range serviceRouter.abi.Events[event].Inputs {
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

// ServiceRouterFeeVaultSet represents a FeeVaultSet event raised by the ServiceRouter contract.
type ServiceRouterFeeVaultSet struct {
	FeeVault common.Address
	Raw      *types.Log // Blockchain specific contextual infos
}

const ServiceRouterFeeVaultSetEventName = "FeeVaultSet"

// ContractEventName returns the user-defined event name.
func (ServiceRouterFeeVaultSet) ContractEventName() string {
	return ServiceRouterFeeVaultSetEventName
}

// UnpackFeeVaultSetEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event FeeVaultSet(address feeVault)
func (serviceRouter *ServiceRouter) UnpackFeeVaultSetEvent(log *types.Log) (*ServiceRouterFeeVaultSet, error) {
	event := "FeeVaultSet"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != serviceRouter.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ServiceRouterFeeVaultSet)
	if len(log.Data) > 0 {
		if err := serviceRouter.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range serviceRouter.abi.Events[event].Inputs {
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

// ServiceRouterNonceInvalidated represents a NonceInvalidated event raised by the ServiceRouter contract.
type ServiceRouterNonceInvalidated struct {
	Maker common.Address
	Nonce *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const ServiceRouterNonceInvalidatedEventName = "NonceInvalidated"

// ContractEventName returns the user-defined event name.
func (ServiceRouterNonceInvalidated) ContractEventName() string {
	return ServiceRouterNonceInvalidatedEventName
}

// UnpackNonceInvalidatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event NonceInvalidated(address indexed maker, uint256 nonce)
func (serviceRouter *ServiceRouter) UnpackNonceInvalidatedEvent(log *types.Log) (*ServiceRouterNonceInvalidated, error) {
	event := "NonceInvalidated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != serviceRouter.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ServiceRouterNonceInvalidated)
	if len(log.Data) > 0 {
		if err := serviceRouter.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range serviceRouter.abi.Events[event].Inputs {
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

// ServiceRouterOracleSet represents a OracleSet event raised by the ServiceRouter contract.
type ServiceRouterOracleSet struct {
	Oracle common.Address
	Raw    *types.Log // Blockchain specific contextual infos
}

const ServiceRouterOracleSetEventName = "OracleSet"

// ContractEventName returns the user-defined event name.
func (ServiceRouterOracleSet) ContractEventName() string {
	return ServiceRouterOracleSetEventName
}

// UnpackOracleSetEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OracleSet(address oracle)
func (serviceRouter *ServiceRouter) UnpackOracleSetEvent(log *types.Log) (*ServiceRouterOracleSet, error) {
	event := "OracleSet"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != serviceRouter.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ServiceRouterOracleSet)
	if len(log.Data) > 0 {
		if err := serviceRouter.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range serviceRouter.abi.Events[event].Inputs {
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

// ServiceRouterOrderActivated represents a OrderActivated event raised by the ServiceRouter contract.
type ServiceRouterOrderActivated struct {
	OrderHash [32]byte
	Maker     common.Address
	Raw       *types.Log // Blockchain specific contextual infos
}

const ServiceRouterOrderActivatedEventName = "OrderActivated"

// ContractEventName returns the user-defined event name.
func (ServiceRouterOrderActivated) ContractEventName() string {
	return ServiceRouterOrderActivatedEventName
}

// UnpackOrderActivatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OrderActivated(bytes32 indexed orderHash, address indexed maker)
func (serviceRouter *ServiceRouter) UnpackOrderActivatedEvent(log *types.Log) (*ServiceRouterOrderActivated, error) {
	event := "OrderActivated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != serviceRouter.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ServiceRouterOrderActivated)
	if len(log.Data) > 0 {
		if err := serviceRouter.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range serviceRouter.abi.Events[event].Inputs {
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

// ServiceRouterOrderCancelled represents a OrderCancelled event raised by the ServiceRouter contract.
type ServiceRouterOrderCancelled struct {
	OrderHash [32]byte
	Maker     common.Address
	Raw       *types.Log // Blockchain specific contextual infos
}

const ServiceRouterOrderCancelledEventName = "OrderCancelled"

// ContractEventName returns the user-defined event name.
func (ServiceRouterOrderCancelled) ContractEventName() string {
	return ServiceRouterOrderCancelledEventName
}

// UnpackOrderCancelledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OrderCancelled(bytes32 indexed orderHash, address indexed maker)
func (serviceRouter *ServiceRouter) UnpackOrderCancelledEvent(log *types.Log) (*ServiceRouterOrderCancelled, error) {
	event := "OrderCancelled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != serviceRouter.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ServiceRouterOrderCancelled)
	if len(log.Data) > 0 {
		if err := serviceRouter.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range serviceRouter.abi.Events[event].Inputs {
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

// ServiceRouterOrderFilled represents a OrderFilled event raised by the ServiceRouter contract.
type ServiceRouterOrderFilled struct {
	OrderHash      [32]byte
	Maker          common.Address
	Keeper         common.Address
	AmountIn       *big.Int
	AmountOut      *big.Int
	ProtocolFee    *big.Int
	ReferralFee    *big.Int
	KeeperFee      *big.Int
	FilledAmountIn *big.Int
	Executions     uint32
	Raw            *types.Log // Blockchain specific contextual infos
}

const ServiceRouterOrderFilledEventName = "OrderFilled"

// ContractEventName returns the user-defined event name.
func (ServiceRouterOrderFilled) ContractEventName() string {
	return ServiceRouterOrderFilledEventName
}

// UnpackOrderFilledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OrderFilled(bytes32 indexed orderHash, address indexed maker, address indexed keeper, uint256 amountIn, uint256 amountOut, uint256 protocolFee, uint256 referralFee, uint256 keeperFee, uint256 filledAmountIn, uint32 executions)
func (serviceRouter *ServiceRouter) UnpackOrderFilledEvent(log *types.Log) (*ServiceRouterOrderFilled, error) {
	event := "OrderFilled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != serviceRouter.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ServiceRouterOrderFilled)
	if len(log.Data) > 0 {
		if err := serviceRouter.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range serviceRouter.abi.Events[event].Inputs {
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

// ServiceRouterOwnershipTransferred represents a OwnershipTransferred event raised by the ServiceRouter contract.
type ServiceRouterOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const ServiceRouterOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (ServiceRouterOwnershipTransferred) ContractEventName() string {
	return ServiceRouterOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (serviceRouter *ServiceRouter) UnpackOwnershipTransferredEvent(log *types.Log) (*ServiceRouterOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != serviceRouter.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ServiceRouterOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := serviceRouter.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range serviceRouter.abi.Events[event].Inputs {
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

// ServiceRouterSwapped represents a Swapped event raised by the ServiceRouter contract.
type ServiceRouterSwapped struct {
	Sender      common.Address
	Receiver    common.Address
	TokenIn     common.Address
	TokenOut    common.Address
	AmountIn    *big.Int
	AmountOut   *big.Int
	ProtocolFee *big.Int
	ReferralFee *big.Int
	Referrer    common.Address
	Raw         *types.Log // Blockchain specific contextual infos
}

const ServiceRouterSwappedEventName = "Swapped"

// ContractEventName returns the user-defined event name.
func (ServiceRouterSwapped) ContractEventName() string {
	return ServiceRouterSwappedEventName
}

// UnpackSwappedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Swapped(address indexed sender, address indexed receiver, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut, uint256 protocolFee, uint256 referralFee, address referrer)
func (serviceRouter *ServiceRouter) UnpackSwappedEvent(log *types.Log) (*ServiceRouterSwapped, error) {
	event := "Swapped"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != serviceRouter.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ServiceRouterSwapped)
	if len(log.Data) > 0 {
		if err := serviceRouter.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range serviceRouter.abi.Events[event].Inputs {
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

// ServiceRouterTokenClassSet represents a TokenClassSet event raised by the ServiceRouter contract.
type ServiceRouterTokenClassSet struct {
	Token common.Address
	Class uint8
	Raw   *types.Log // Blockchain specific contextual infos
}

const ServiceRouterTokenClassSetEventName = "TokenClassSet"

// ContractEventName returns the user-defined event name.
func (ServiceRouterTokenClassSet) ContractEventName() string {
	return ServiceRouterTokenClassSetEventName
}

// UnpackTokenClassSetEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event TokenClassSet(address indexed token, uint8 class)
func (serviceRouter *ServiceRouter) UnpackTokenClassSetEvent(log *types.Log) (*ServiceRouterTokenClassSet, error) {
	event := "TokenClassSet"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != serviceRouter.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ServiceRouterTokenClassSet)
	if len(log.Data) > 0 {
		if err := serviceRouter.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range serviceRouter.abi.Events[event].Inputs {
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
func (serviceRouter *ServiceRouter) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["BadSignature"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackBadSignatureError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["CallFailed"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackCallFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["DcaLegSize"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackDcaLegSizeError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["DcaTooEarly"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackDcaTooEarlyError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["FeeOnTransferToken"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackFeeOnTransferTokenError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["FeeTooHigh"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackFeeTooHighError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["FillExceedsRemaining"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackFillExceedsRemainingError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["InsufficientOutput"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackInsufficientOutputError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["InvalidFeeCell"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackInvalidFeeCellError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["InvalidTraits"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackInvalidTraitsError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["LimitPriceNotMet"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackLimitPriceNotMetError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["NativeTransferFailed"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackNativeTransferFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["NonceIsInvalidated"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackNonceIsInvalidatedError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["NotMaker"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackNotMakerError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackNotOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["NotRouter"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackNotRouterError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["OracleMissing"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackOracleMissingError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["OracleStale"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackOracleStaleError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["OrderExpired"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackOrderExpiredError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["OrderIsCancelled"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackOrderIsCancelledError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["PartialFillNotAllowed"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackPartialFillNotAllowedError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["Reentrancy"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackReentrancyError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["SenderNotAllowed"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackSenderNotAllowedError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["SlippageExceeded"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackSlippageExceededError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["TokenTransferFailed"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackTokenTransferFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["TriggerNotReached"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackTriggerNotReachedError(raw[4:])
	}
	if bytes.Equal(raw[:4], serviceRouter.abi.Errors["ZeroAmount"].ID.Bytes()[:4]) {
		return serviceRouter.UnpackZeroAmountError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// ServiceRouterBadSignature represents a BadSignature error raised by the ServiceRouter contract.
type ServiceRouterBadSignature struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error BadSignature()
func ServiceRouterBadSignatureErrorID() common.Hash {
	return common.HexToHash("0x5cd5d2335541c4f2ed05fbe44f397e8b79f8e2333157122d2dab06e378ef7685")
}

// UnpackBadSignatureError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error BadSignature()
func (serviceRouter *ServiceRouter) UnpackBadSignatureError(raw []byte) (*ServiceRouterBadSignature, error) {
	out := new(ServiceRouterBadSignature)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "BadSignature", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterCallFailed represents a CallFailed error raised by the ServiceRouter contract.
type ServiceRouterCallFailed struct {
	Index  *big.Int
	Reason []byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error CallFailed(uint256 index, bytes reason)
func ServiceRouterCallFailedErrorID() common.Hash {
	return common.HexToHash("0x5c0dee5d32a1e145396705da49c1e64a2b1d63387f78c2697100f655567f5de9")
}

// UnpackCallFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error CallFailed(uint256 index, bytes reason)
func (serviceRouter *ServiceRouter) UnpackCallFailedError(raw []byte) (*ServiceRouterCallFailed, error) {
	out := new(ServiceRouterCallFailed)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "CallFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterDcaLegSize represents a DcaLegSize error raised by the ServiceRouter contract.
type ServiceRouterDcaLegSize struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error DcaLegSize()
func ServiceRouterDcaLegSizeErrorID() common.Hash {
	return common.HexToHash("0xc7d929a8feb090620129a89cf67c17028f4c2accad8e75069f1dbcffeddeb3d1")
}

// UnpackDcaLegSizeError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error DcaLegSize()
func (serviceRouter *ServiceRouter) UnpackDcaLegSizeError(raw []byte) (*ServiceRouterDcaLegSize, error) {
	out := new(ServiceRouterDcaLegSize)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "DcaLegSize", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterDcaTooEarly represents a DcaTooEarly error raised by the ServiceRouter contract.
type ServiceRouterDcaTooEarly struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error DcaTooEarly()
func ServiceRouterDcaTooEarlyErrorID() common.Hash {
	return common.HexToHash("0x969b06f5183d4f0e80bd8e2eb1484f8799be2d3615b301cd32adab45909b7c6b")
}

// UnpackDcaTooEarlyError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error DcaTooEarly()
func (serviceRouter *ServiceRouter) UnpackDcaTooEarlyError(raw []byte) (*ServiceRouterDcaTooEarly, error) {
	out := new(ServiceRouterDcaTooEarly)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "DcaTooEarly", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterFeeOnTransferToken represents a FeeOnTransferToken error raised by the ServiceRouter contract.
type ServiceRouterFeeOnTransferToken struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error FeeOnTransferToken()
func ServiceRouterFeeOnTransferTokenErrorID() common.Hash {
	return common.HexToHash("0xfaa5e57f3895e0ed787906bf2edeb42fd1a8291adc76fce96e271d79053b33ef")
}

// UnpackFeeOnTransferTokenError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error FeeOnTransferToken()
func (serviceRouter *ServiceRouter) UnpackFeeOnTransferTokenError(raw []byte) (*ServiceRouterFeeOnTransferToken, error) {
	out := new(ServiceRouterFeeOnTransferToken)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "FeeOnTransferToken", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterFeeTooHigh represents a FeeTooHigh error raised by the ServiceRouter contract.
type ServiceRouterFeeTooHigh struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error FeeTooHigh()
func ServiceRouterFeeTooHighErrorID() common.Hash {
	return common.HexToHash("0xcd4e6167a0147beade9e7daca0e52cd42e992cd9c3dc1dd3ce8a2b6956f53601")
}

// UnpackFeeTooHighError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error FeeTooHigh()
func (serviceRouter *ServiceRouter) UnpackFeeTooHighError(raw []byte) (*ServiceRouterFeeTooHigh, error) {
	out := new(ServiceRouterFeeTooHigh)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "FeeTooHigh", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterFillExceedsRemaining represents a FillExceedsRemaining error raised by the ServiceRouter contract.
type ServiceRouterFillExceedsRemaining struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error FillExceedsRemaining()
func ServiceRouterFillExceedsRemainingErrorID() common.Hash {
	return common.HexToHash("0x8f0fe408ecc33ffbe6291f70d601ebc3848f8de3574a63db4e6e13d5378b1326")
}

// UnpackFillExceedsRemainingError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error FillExceedsRemaining()
func (serviceRouter *ServiceRouter) UnpackFillExceedsRemainingError(raw []byte) (*ServiceRouterFillExceedsRemaining, error) {
	out := new(ServiceRouterFillExceedsRemaining)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "FillExceedsRemaining", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterInsufficientOutput represents a InsufficientOutput error raised by the ServiceRouter contract.
type ServiceRouterInsufficientOutput struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientOutput()
func ServiceRouterInsufficientOutputErrorID() common.Hash {
	return common.HexToHash("0xbb2875c3574c14b194fbf373bd0bc7b5267770c1855b6f7cd504981104fcd67a")
}

// UnpackInsufficientOutputError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientOutput()
func (serviceRouter *ServiceRouter) UnpackInsufficientOutputError(raw []byte) (*ServiceRouterInsufficientOutput, error) {
	out := new(ServiceRouterInsufficientOutput)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "InsufficientOutput", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterInvalidFeeCell represents a InvalidFeeCell error raised by the ServiceRouter contract.
type ServiceRouterInvalidFeeCell struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidFeeCell()
func ServiceRouterInvalidFeeCellErrorID() common.Hash {
	return common.HexToHash("0xda914a0d28a1169d2a732a200f188be56b54a5bdaaa5156c5742e12910946f7e")
}

// UnpackInvalidFeeCellError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidFeeCell()
func (serviceRouter *ServiceRouter) UnpackInvalidFeeCellError(raw []byte) (*ServiceRouterInvalidFeeCell, error) {
	out := new(ServiceRouterInvalidFeeCell)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "InvalidFeeCell", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterInvalidTraits represents a InvalidTraits error raised by the ServiceRouter contract.
type ServiceRouterInvalidTraits struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidTraits()
func ServiceRouterInvalidTraitsErrorID() common.Hash {
	return common.HexToHash("0xc8864474da8bfa2a2b9007b677e2d505f7f1635141f4286b292b9028c69e121f")
}

// UnpackInvalidTraitsError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidTraits()
func (serviceRouter *ServiceRouter) UnpackInvalidTraitsError(raw []byte) (*ServiceRouterInvalidTraits, error) {
	out := new(ServiceRouterInvalidTraits)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "InvalidTraits", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterLimitPriceNotMet represents a LimitPriceNotMet error raised by the ServiceRouter contract.
type ServiceRouterLimitPriceNotMet struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error LimitPriceNotMet()
func ServiceRouterLimitPriceNotMetErrorID() common.Hash {
	return common.HexToHash("0xd203a6d1b3d236389a3b204bbec18353977334d95ef3a91d593853346a4dd4d9")
}

// UnpackLimitPriceNotMetError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error LimitPriceNotMet()
func (serviceRouter *ServiceRouter) UnpackLimitPriceNotMetError(raw []byte) (*ServiceRouterLimitPriceNotMet, error) {
	out := new(ServiceRouterLimitPriceNotMet)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "LimitPriceNotMet", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterNativeTransferFailed represents a NativeTransferFailed error raised by the ServiceRouter contract.
type ServiceRouterNativeTransferFailed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NativeTransferFailed()
func ServiceRouterNativeTransferFailedErrorID() common.Hash {
	return common.HexToHash("0xf4b3b1bcbe5924688bdd352ae99c1966d3ce0a2ba09d3a1d796de982d1ee8c84")
}

// UnpackNativeTransferFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NativeTransferFailed()
func (serviceRouter *ServiceRouter) UnpackNativeTransferFailedError(raw []byte) (*ServiceRouterNativeTransferFailed, error) {
	out := new(ServiceRouterNativeTransferFailed)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "NativeTransferFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterNonceIsInvalidated represents a NonceIsInvalidated error raised by the ServiceRouter contract.
type ServiceRouterNonceIsInvalidated struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NonceIsInvalidated()
func ServiceRouterNonceIsInvalidatedErrorID() common.Hash {
	return common.HexToHash("0xbedf8c3ddc8658813464917fb66611e8256c4c1a3f2731be408067b762098aa7")
}

// UnpackNonceIsInvalidatedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NonceIsInvalidated()
func (serviceRouter *ServiceRouter) UnpackNonceIsInvalidatedError(raw []byte) (*ServiceRouterNonceIsInvalidated, error) {
	out := new(ServiceRouterNonceIsInvalidated)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "NonceIsInvalidated", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterNotMaker represents a NotMaker error raised by the ServiceRouter contract.
type ServiceRouterNotMaker struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotMaker()
func ServiceRouterNotMakerErrorID() common.Hash {
	return common.HexToHash("0xb331e421ec853e70a2936c67862474402e28865868acdabdf19f23ddb04398bf")
}

// UnpackNotMakerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotMaker()
func (serviceRouter *ServiceRouter) UnpackNotMakerError(raw []byte) (*ServiceRouterNotMaker, error) {
	out := new(ServiceRouterNotMaker)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "NotMaker", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterNotOwner represents a NotOwner error raised by the ServiceRouter contract.
type ServiceRouterNotOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner()
func ServiceRouterNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x30cd74712f59d478562d48e2d35de830db72c60a63dd08ae59199eec990b5bc4")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner()
func (serviceRouter *ServiceRouter) UnpackNotOwnerError(raw []byte) (*ServiceRouterNotOwner, error) {
	out := new(ServiceRouterNotOwner)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterNotRouter represents a NotRouter error raised by the ServiceRouter contract.
type ServiceRouterNotRouter struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotRouter()
func ServiceRouterNotRouterErrorID() common.Hash {
	return common.HexToHash("0x916552015af97b2e264c1c61b9e2e7e73847ee95b4ce4a110f5ae4ea7ae660cf")
}

// UnpackNotRouterError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotRouter()
func (serviceRouter *ServiceRouter) UnpackNotRouterError(raw []byte) (*ServiceRouterNotRouter, error) {
	out := new(ServiceRouterNotRouter)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "NotRouter", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterOracleMissing represents a OracleMissing error raised by the ServiceRouter contract.
type ServiceRouterOracleMissing struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error OracleMissing()
func ServiceRouterOracleMissingErrorID() common.Hash {
	return common.HexToHash("0x37c1269f8bdacc44af8a0e8b4704c1e6988d4f59989a50942f849dc9837f9e10")
}

// UnpackOracleMissingError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error OracleMissing()
func (serviceRouter *ServiceRouter) UnpackOracleMissingError(raw []byte) (*ServiceRouterOracleMissing, error) {
	out := new(ServiceRouterOracleMissing)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "OracleMissing", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterOracleStale represents a OracleStale error raised by the ServiceRouter contract.
type ServiceRouterOracleStale struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error OracleStale()
func ServiceRouterOracleStaleErrorID() common.Hash {
	return common.HexToHash("0x04578698b661d4255203adcd6b7eb8b4c7d86a3b46260f883e399b82ba21595f")
}

// UnpackOracleStaleError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error OracleStale()
func (serviceRouter *ServiceRouter) UnpackOracleStaleError(raw []byte) (*ServiceRouterOracleStale, error) {
	out := new(ServiceRouterOracleStale)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "OracleStale", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterOrderExpired represents a OrderExpired error raised by the ServiceRouter contract.
type ServiceRouterOrderExpired struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error OrderExpired()
func ServiceRouterOrderExpiredErrorID() common.Hash {
	return common.HexToHash("0xc56873bac2ec2d1dd6d40a2a9b432692a2b77a4253c07d6f7ef4929f60ced89c")
}

// UnpackOrderExpiredError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error OrderExpired()
func (serviceRouter *ServiceRouter) UnpackOrderExpiredError(raw []byte) (*ServiceRouterOrderExpired, error) {
	out := new(ServiceRouterOrderExpired)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "OrderExpired", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterOrderIsCancelled represents a OrderIsCancelled error raised by the ServiceRouter contract.
type ServiceRouterOrderIsCancelled struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error OrderIsCancelled()
func ServiceRouterOrderIsCancelledErrorID() common.Hash {
	return common.HexToHash("0xe3cc79333be18bc81ea4c254ab24b15d004c5ab99eb31748a15c345742325c5a")
}

// UnpackOrderIsCancelledError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error OrderIsCancelled()
func (serviceRouter *ServiceRouter) UnpackOrderIsCancelledError(raw []byte) (*ServiceRouterOrderIsCancelled, error) {
	out := new(ServiceRouterOrderIsCancelled)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "OrderIsCancelled", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterPartialFillNotAllowed represents a PartialFillNotAllowed error raised by the ServiceRouter contract.
type ServiceRouterPartialFillNotAllowed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error PartialFillNotAllowed()
func ServiceRouterPartialFillNotAllowedErrorID() common.Hash {
	return common.HexToHash("0x8ef0017c7e87b3e0bc22365d7355061577475bd21ddecd5075ef6878171adaee")
}

// UnpackPartialFillNotAllowedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error PartialFillNotAllowed()
func (serviceRouter *ServiceRouter) UnpackPartialFillNotAllowedError(raw []byte) (*ServiceRouterPartialFillNotAllowed, error) {
	out := new(ServiceRouterPartialFillNotAllowed)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "PartialFillNotAllowed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterReentrancy represents a Reentrancy error raised by the ServiceRouter contract.
type ServiceRouterReentrancy struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Reentrancy()
func ServiceRouterReentrancyErrorID() common.Hash {
	return common.HexToHash("0xab143c06c9772d69bbbc9f2fe74acd02f810e93b099f3d1dac8448ac9ae35991")
}

// UnpackReentrancyError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Reentrancy()
func (serviceRouter *ServiceRouter) UnpackReentrancyError(raw []byte) (*ServiceRouterReentrancy, error) {
	out := new(ServiceRouterReentrancy)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "Reentrancy", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterSenderNotAllowed represents a SenderNotAllowed error raised by the ServiceRouter contract.
type ServiceRouterSenderNotAllowed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SenderNotAllowed()
func ServiceRouterSenderNotAllowedErrorID() common.Hash {
	return common.HexToHash("0x23dada536d12154bcbc0b110e737ea98be30c19a4085dca9727ef0243ba24f2a")
}

// UnpackSenderNotAllowedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SenderNotAllowed()
func (serviceRouter *ServiceRouter) UnpackSenderNotAllowedError(raw []byte) (*ServiceRouterSenderNotAllowed, error) {
	out := new(ServiceRouterSenderNotAllowed)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "SenderNotAllowed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterSlippageExceeded represents a SlippageExceeded error raised by the ServiceRouter contract.
type ServiceRouterSlippageExceeded struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SlippageExceeded()
func ServiceRouterSlippageExceededErrorID() common.Hash {
	return common.HexToHash("0x8199f5f3ab8ca283f5170681536d2364d1b994855ca1322700140c5db15cd48c")
}

// UnpackSlippageExceededError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SlippageExceeded()
func (serviceRouter *ServiceRouter) UnpackSlippageExceededError(raw []byte) (*ServiceRouterSlippageExceeded, error) {
	out := new(ServiceRouterSlippageExceeded)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "SlippageExceeded", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterTokenTransferFailed represents a TokenTransferFailed error raised by the ServiceRouter contract.
type ServiceRouterTokenTransferFailed struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TokenTransferFailed(address token)
func ServiceRouterTokenTransferFailedErrorID() common.Hash {
	return common.HexToHash("0x2b596cb7e9804a5202312682f04514d7f31332b7e5ffeaad4ba2ee9969d1d7d0")
}

// UnpackTokenTransferFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TokenTransferFailed(address token)
func (serviceRouter *ServiceRouter) UnpackTokenTransferFailedError(raw []byte) (*ServiceRouterTokenTransferFailed, error) {
	out := new(ServiceRouterTokenTransferFailed)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "TokenTransferFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterTriggerNotReached represents a TriggerNotReached error raised by the ServiceRouter contract.
type ServiceRouterTriggerNotReached struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TriggerNotReached()
func ServiceRouterTriggerNotReachedErrorID() common.Hash {
	return common.HexToHash("0xdccfcae20d4ac63e45d5493bc2d74c0cff4590ce6e8747833908946e5a761c1c")
}

// UnpackTriggerNotReachedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TriggerNotReached()
func (serviceRouter *ServiceRouter) UnpackTriggerNotReachedError(raw []byte) (*ServiceRouterTriggerNotReached, error) {
	out := new(ServiceRouterTriggerNotReached)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "TriggerNotReached", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ServiceRouterZeroAmount represents a ZeroAmount error raised by the ServiceRouter contract.
type ServiceRouterZeroAmount struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAmount()
func ServiceRouterZeroAmountErrorID() common.Hash {
	return common.HexToHash("0x1f2a2005cb66a8e145327e8814e243a0996aec9bfe1e15a495778b1236dbd485")
}

// UnpackZeroAmountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAmount()
func (serviceRouter *ServiceRouter) UnpackZeroAmountError(raw []byte) (*ServiceRouterZeroAmount, error) {
	out := new(ServiceRouterZeroAmount)
	if err := serviceRouter.abi.UnpackIntoInterface(out, "ZeroAmount", raw); err != nil {
		return nil, err
	}
	return out, nil
}
