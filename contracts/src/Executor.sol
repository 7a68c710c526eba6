// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20, SafeTransfer} from "./IERC20.sol";
import {Call} from "./RouterTypes.sol";

/// @title Executor
/// @notice Runs a route's venue calls for the ServiceRouter that created it.
/// It holds no maker allowances (makers approve the router, which moves the
/// input here just before the calls) and obeys only that router.
contract Executor {
    using SafeTransfer for address;

    /// @notice Thrown when anyone but the router calls.
    error NotRouter();
    /// @notice Thrown when route call `index` fails; `reason` is its revert data.
    error CallFailed(uint256 index, bytes reason);

    /// @notice The router this executor obeys (its deployer).
    address public immutable router;

    constructor() {
        router = msg.sender;
    }

    /// @notice Runs `calls` in order, then sends the whole tokenOut balance to
    /// the router and any tokenIn left over to `refundTo`.
    /// @return amountOut the tokenOut amount sent to the router
    function execute(address tokenIn, address tokenOut, address refundTo, Call[] calldata calls)
        external
        returns (uint256 amountOut)
    {
        if (msg.sender != router) revert NotRouter();
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = calls[i].target.call(calls[i].data);
            if (!ok) revert CallFailed(i, ret);
        }
        amountOut = IERC20(tokenOut).balanceOf(address(this));
        if (amountOut > 0) tokenOut.safeTransfer(router, amountOut);
        uint256 left = IERC20(tokenIn).balanceOf(address(this));
        if (left > 0) tokenIn.safeTransfer(refundTo, left);
    }
}
