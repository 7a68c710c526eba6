// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20} from "./IERC20.sol";

/// @title ERC20
/// @notice A small ERC-20 base for the dev chain's tokens. `_update` is the
/// single place balances change, so variants (fee-on-transfer, reentrant)
/// override one function.
abstract contract ERC20 is IERC20 {
    /// @notice Thrown when a balance is too small for a transfer or burn.
    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    /// @notice Thrown when an allowance is too small for `transferFrom`.
    error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed);

    /// @notice Token name.
    string public name;
    /// @notice Token symbol.
    string public symbol;
    uint8 internal immutable _decimals;

    /// @notice Total supply in raw units.
    uint256 public totalSupply;
    /// @notice Balance of each account in raw units.
    mapping(address => uint256) public balanceOf;
    /// @notice Allowance of each owner for each spender.
    mapping(address => mapping(address => uint256)) public allowance;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        _decimals = decimals_;
    }

    /// @inheritdoc IERC20
    function decimals() external view returns (uint8) {
        return _decimals;
    }

    /// @inheritdoc IERC20
    function transfer(address to, uint256 amount) external virtual returns (bool) {
        _update(msg.sender, to, amount);
        return true;
    }

    /// @inheritdoc IERC20
    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    /// @inheritdoc IERC20
    function transferFrom(address from, address to, uint256 amount) external virtual returns (bool) {
        _spendAllowance(from, msg.sender, amount);
        _update(from, to, amount);
        return true;
    }

    function _spendAllowance(address owner, address spender, uint256 amount) internal {
        uint256 current = allowance[owner][spender];
        if (current != type(uint256).max) {
            if (current < amount) revert InsufficientAllowance(owner, spender, current, amount);
            unchecked {
                allowance[owner][spender] = current - amount;
            }
        }
    }

    /// @dev Moves `amount` from `from` to `to`; `from == 0` mints, `to == 0` burns.
    function _update(address from, address to, uint256 amount) internal virtual {
        if (from == address(0)) {
            totalSupply += amount;
        } else {
            uint256 bal = balanceOf[from];
            if (bal < amount) revert InsufficientBalance(from, bal, amount);
            unchecked {
                balanceOf[from] = bal - amount;
            }
        }
        if (to == address(0)) {
            unchecked {
                totalSupply -= amount;
            }
        } else {
            unchecked {
                balanceOf[to] += amount;
            }
        }
        emit Transfer(from, to, amount);
    }
}
