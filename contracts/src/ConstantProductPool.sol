// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {TwoTokenPool} from "./TwoTokenPool.sol";

/// @title ConstantProductPool
/// @notice Venue family `cpmm`: x·y = k with a fee in ppm taken from the input.
///
///     out = in × (1e6 − feePpm) × rOut / (rIn × 1e6 + in × (1e6 − feePpm))   (floor)
contract ConstantProductPool is TwoTokenPool {
    /// @notice Thrown when the fee is not below 1e6 ppm.
    error BadFee();

    /// @notice Swap fee in ppm of the input (3000 = 0.3 %).
    uint256 public immutable feePpm;

    constructor(address token0_, address token1_, uint256 feePpm_) TwoTokenPool(token0_, token1_) {
        if (feePpm_ >= 1_000_000) revert BadFee();
        feePpm = feePpm_;
    }

    /// @notice Everything a simulator needs, in one call.
    function getState()
        external
        view
        returns (address token0_, address token1_, uint256 reserve0_, uint256 reserve1_, uint256 feePpm_)
    {
        return (token0, token1, reserve0, reserve1, feePpm);
    }

    function _amountOut(bool, uint256 rIn, uint256 rOut, uint256 amountIn) internal view override returns (uint256) {
        uint256 inWithFee = amountIn * (1_000_000 - feePpm);
        return inWithFee * rOut / (rIn * 1_000_000 + inWithFee);
    }
}
