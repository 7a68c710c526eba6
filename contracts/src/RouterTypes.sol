// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @notice The signed v7.1 order (docs/protocol.md, contract.md section 1).
/// Field order is the EIP-712 type's: do not reorder.
struct Order {
    uint256 salt;
    address maker;
    address receiver;
    address tokenIn;
    address tokenOut;
    uint256 amountIn;
    uint256 triggerPrice;
    uint256 triggerAmountOut;
    uint256 makerTraits;
    address referrer;
    uint32 referralFeePpm;
}

/// @notice One venue call of a route, run by the Executor.
struct Call {
    address target;
    bytes data;
}

/// @notice A direct swap (directSwap=1): the sender is the payer.
struct SwapParams {
    address tokenIn;
    address tokenOut;
    uint256 amountIn;
    uint256 minAmountOut;
    address receiver;
    address referrer;
    uint32 referralFeePpm;
    bool unwrapNative;
    Call[] calls;
}
