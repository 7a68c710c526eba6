// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20, SafeTransfer} from "./IERC20.sol";

/// @title TwoTokenPool
/// @notice The surface every venue shares (docs/protocol.md, "Venues"):
/// two tokens, internally tracked reserves, `getAmountOut`, `swap` with the
/// whole-balance rule, and a `Sync` event after every reserve change. A
/// venue family only supplies the pricing function `_amountOut`.
abstract contract TwoTokenPool {
    using SafeTransfer for address;

    /// @notice Emitted after every change of the reserves, with their new values.
    event Sync(uint256 reserve0, uint256 reserve1);
    /// @notice Emitted on every swap.
    event Swap(address indexed sender, address indexed tokenIn, uint256 amountIn, uint256 amountOut, address indexed to);

    /// @notice Thrown when `tokenIn` is neither token0 nor token1.
    error UnknownToken(address token);
    /// @notice Thrown when the input amount is zero.
    error ZeroInput();
    /// @notice Thrown when the output is zero or below the caller's minimum.
    error OutputTooLow(uint256 amountOut, uint256 minAmountOut);
    /// @notice Thrown on a reentrant call.
    error Locked();

    /// @notice The first token of the pool.
    address public immutable token0;
    /// @notice The second token of the pool.
    address public immutable token1;
    /// @notice Tracked balance of token0 (tokens sent without `swap` or `addLiquidity` are ignored).
    uint256 public reserve0;
    /// @notice Tracked balance of token1.
    uint256 public reserve1;
    uint256 private _lock = 1;

    constructor(address token0_, address token1_) {
        token0 = token0_;
        token1 = token1_;
    }

    modifier lock() {
        if (_lock != 1) revert Locked();
        _lock = 2;
        _;
        _lock = 1;
    }

    /// @notice Both reserves in one call.
    function getReserves() external view returns (uint256, uint256) {
        return (reserve0, reserve1);
    }

    /// @notice The output `swap(tokenIn, amountIn, ...)` would give now (0 when
    /// the pool cannot quote, e.g. an empty reserve).
    function getAmountOut(address tokenIn, uint256 amountIn) public view returns (uint256) {
        bool zeroForOne = _zeroForOne(tokenIn);
        if (amountIn == 0) return 0;
        (uint256 rIn, uint256 rOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        if (rIn == 0 || rOut == 0) return 0;
        return _amountOut(zeroForOne, rIn, rOut, amountIn);
    }

    /// @notice Seeds or adds liquidity: pulls both amounts from the sender by
    /// allowance. No LP token is minted (dev-chain venue).
    function addLiquidity(uint256 amount0, uint256 amount1) external lock {
        uint256 in0 = _pull(token0, amount0);
        uint256 in1 = _pull(token1, amount1);
        reserve0 += in0;
        reserve1 += in1;
        emit Sync(reserve0, reserve1);
    }

    /// @notice Swaps `amountIn` of `tokenIn` (pulled from the sender by
    /// allowance) for the other token, sent to `to`. `amountIn ==
    /// type(uint256).max` swaps the sender's whole balance of tokenIn. The
    /// output is priced on the amount actually received.
    function swap(address tokenIn, uint256 amountIn, uint256 minAmountOut, address to)
        external
        lock
        returns (uint256 amountOut)
    {
        bool zeroForOne = _zeroForOne(tokenIn);
        if (amountIn == type(uint256).max) amountIn = IERC20(tokenIn).balanceOf(msg.sender);
        if (amountIn == 0) revert ZeroInput();
        uint256 received = _pull(tokenIn, amountIn);
        (uint256 rIn, uint256 rOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        amountOut = (rIn == 0 || rOut == 0) ? 0 : _amountOut(zeroForOne, rIn, rOut, received);
        if (amountOut == 0 || amountOut < minAmountOut) revert OutputTooLow(amountOut, minAmountOut);
        address tokenOut;
        if (zeroForOne) {
            reserve0 = rIn + received;
            reserve1 = rOut - amountOut;
            tokenOut = token1;
        } else {
            reserve1 = rIn + received;
            reserve0 = rOut - amountOut;
            tokenOut = token0;
        }
        tokenOut.safeTransfer(to, amountOut);
        emit Swap(msg.sender, tokenIn, received, amountOut, to);
        emit Sync(reserve0, reserve1);
    }

    /// @dev Output for `amountIn` against reserves `rIn`/`rOut` (both non-zero).
    function _amountOut(bool zeroForOne, uint256 rIn, uint256 rOut, uint256 amountIn)
        internal
        view
        virtual
        returns (uint256);

    function _zeroForOne(address tokenIn) internal view returns (bool) {
        if (tokenIn == token0) return true;
        if (tokenIn == token1) return false;
        revert UnknownToken(tokenIn);
    }

    function _pull(address token, uint256 amount) private returns (uint256) {
        if (amount == 0) return 0;
        uint256 before = IERC20(token).balanceOf(address(this));
        token.safeTransferFrom(msg.sender, address(this), amount);
        return IERC20(token).balanceOf(address(this)) - before;
    }
}
