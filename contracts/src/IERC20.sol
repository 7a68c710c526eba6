// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title IERC20
/// @notice The ERC-20 surface the router, executor and pools use, with the
/// optional metadata `decimals`.
interface IERC20 {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function totalSupply() external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
    function allowance(address owner, address spender) external view returns (uint256);
    function decimals() external view returns (uint8);
    function transfer(address to, uint256 amount) external returns (bool);
    function approve(address spender, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title SafeTransfer
/// @notice Token transfers that accept tokens returning nothing or `true`, and
/// bubble the token's own revert data up unchanged.
library SafeTransfer {
    /// @notice Thrown when a token returns `false` from a transfer.
    error TokenTransferFailed(address token);

    /// @notice Transfers `amount` of `token` from this contract to `to`.
    function safeTransfer(address token, address to, uint256 amount) internal {
        _call(token, abi.encodeCall(IERC20.transfer, (to, amount)));
    }

    /// @notice Transfers `amount` of `token` from `from` to `to` by allowance.
    function safeTransferFrom(address token, address from, address to, uint256 amount) internal {
        _call(token, abi.encodeCall(IERC20.transferFrom, (from, to, amount)));
    }

    /// @notice Sets this contract's allowance of `token` for `spender`.
    function safeApprove(address token, address spender, uint256 amount) internal {
        _call(token, abi.encodeCall(IERC20.approve, (spender, amount)));
    }

    function _call(address token, bytes memory data) private {
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        if (token.code.length == 0 || (ret.length != 0 && !abi.decode(ret, (bool)))) {
            revert TokenTransferFailed(token);
        }
    }
}
