// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20} from "./IERC20.sol";
import {TwoTokenPool} from "./TwoTokenPool.sol";

/// @title StableSwapPool
/// @notice Venue family `stableswap`: Curve's two-coin StableSwap invariant,
/// computed like the original Vyper pool (3pool generation). This file is the
/// reference of the Go simulator, which must reproduce `getAmountOut` to the
/// wei, so every step is spelled out with its rounding (all divisions floor):
///
///     N = 2, Ann = A × N
///     xp[k] = reserve[k] × mult[k],  mult[k] = 10^(18 − decimals(token k))
///
///     D(xp): S = xp0 + xp1; if S == 0 then D = 0 else D = S and repeat at most 255 times:
///         Dp = D; Dp = Dp × D / (xp0 × N); Dp = Dp × D / (xp1 × N)
///         Dprev = D
///         D = (Ann × S + Dp × N) × D / ((Ann − 1) × D + (N + 1) × Dp)
///         stop when |D − Dprev| ≤ 1
///
///     y(x, D), the new balance of the output coin when the input coin's is x:
///         c = D; c = c × D / (x × N); c = c × D / (Ann × N)
///         b = x + D / Ann
///         y = D and repeat at most 255 times:
///             yprev = y; y = (y × y + c) / (2 × y + b − D); stop when |y − yprev| ≤ 1
///
///     getAmountOut(i → j, dx):
///         x  = xp[i] + dx × mult[i]
///         y  = y(x, D(xp))
///         dy = (xp[j] − y − 1) / mult[j]            (0 when xp[j] ≤ y + 1)
///         out = dy − dy × fee / 1e10
///
/// Without convergence within 255 rounds the last value is used (as in the
/// original pool).
contract StableSwapPool is TwoTokenPool {
    /// @notice Thrown on an unusable parameter (A = 0, fee ≥ 1e10, decimals > 18).
    error BadParameter();

    uint256 internal constant N = 2;
    /// @notice Fee denominator: `fee` is in units of 1e-10.
    uint256 public constant FEE_DENOMINATOR = 1e10;

    /// @notice Amplification coefficient A (plain, without Curve's later A_PRECISION).
    uint256 public immutable A;
    /// @notice Swap fee in 1e10 units of the output (4e6 = 0.04 %).
    uint256 public immutable fee;
    /// @notice 10^(18 − decimals(token0)).
    uint256 public immutable mult0;
    /// @notice 10^(18 − decimals(token1)).
    uint256 public immutable mult1;

    constructor(address token0_, address token1_, uint256 A_, uint256 fee_) TwoTokenPool(token0_, token1_) {
        uint8 d0 = IERC20(token0_).decimals();
        uint8 d1 = IERC20(token1_).decimals();
        if (A_ == 0 || fee_ >= FEE_DENOMINATOR || d0 > 18 || d1 > 18) revert BadParameter();
        A = A_;
        fee = fee_;
        mult0 = 10 ** (18 - d0);
        mult1 = 10 ** (18 - d1);
    }

    /// @notice Everything a simulator needs, in one call.
    function getState()
        external
        view
        returns (
            address token0_,
            address token1_,
            uint256 reserve0_,
            uint256 reserve1_,
            uint256 A_,
            uint256 fee_,
            uint256 mult0_,
            uint256 mult1_
        )
    {
        return (token0, token1, reserve0, reserve1, A, fee, mult0, mult1);
    }

    /// @notice The invariant D of the current reserves (normalised to 18 decimals).
    function getD() external view returns (uint256) {
        return _getD(reserve0 * mult0, reserve1 * mult1);
    }

    function _amountOut(bool zeroForOne, uint256 rIn, uint256 rOut, uint256 amountIn)
        internal
        view
        override
        returns (uint256)
    {
        (uint256 mIn, uint256 mOut) = zeroForOne ? (mult0, mult1) : (mult1, mult0);
        uint256 xpIn = rIn * mIn;
        uint256 xpOut = rOut * mOut;
        uint256 d = zeroForOne ? _getD(xpIn, xpOut) : _getD(xpOut, xpIn);
        uint256 y = _getY(xpIn + amountIn * mIn, d);
        if (xpOut <= y + 1) return 0;
        uint256 dy = (xpOut - y - 1) / mOut;
        return dy - dy * fee / FEE_DENOMINATOR;
    }

    /// @dev D for balances xp0, xp1 (order does not matter mathematically, but
    /// the Go port must use token0's balance as xp0 to match rounding).
    function _getD(uint256 xp0, uint256 xp1) internal view returns (uint256) {
        uint256 s = xp0 + xp1;
        if (s == 0) return 0;
        uint256 d = s;
        uint256 ann = A * N;
        for (uint256 i = 0; i < 255; i++) {
            uint256 dp = d;
            dp = dp * d / (xp0 * N);
            dp = dp * d / (xp1 * N);
            uint256 dPrev = d;
            d = (ann * s + dp * N) * d / ((ann - 1) * d + (N + 1) * dp);
            if (d > dPrev) {
                if (d - dPrev <= 1) break;
            } else {
                if (dPrev - d <= 1) break;
            }
        }
        return d;
    }

    /// @dev The output coin's balance y such that (x, y) keeps invariant d.
    function _getY(uint256 x, uint256 d) internal view returns (uint256) {
        uint256 ann = A * N;
        uint256 c = d;
        c = c * d / (x * N);
        c = c * d / (ann * N);
        uint256 b = x + d / ann;
        uint256 y = d;
        for (uint256 i = 0; i < 255; i++) {
            uint256 yPrev = y;
            y = (y * y + c) / (2 * y + b - d);
            if (y > yPrev) {
                if (y - yPrev <= 1) break;
            } else {
                if (yPrev - y <= 1) break;
            }
        }
        return y;
    }
}
