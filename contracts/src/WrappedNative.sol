// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "./ERC20.sol";

/// @title WrappedNative
/// @notice WETH-like wrapper of the chain's native coin, 18 decimals.
contract WrappedNative is ERC20 {
    /// @notice Emitted when native coin is wrapped.
    event Deposit(address indexed account, uint256 amount);
    /// @notice Emitted when tokens are unwrapped to native coin.
    event Withdrawal(address indexed account, uint256 amount);

    /// @notice Thrown when sending native coin fails.
    error NativeSendFailed();

    constructor() ERC20("Wrapped Ether", "WETH", 18) {}

    /// @notice Wraps the attached native coin for the sender.
    function deposit() public payable {
        _update(address(0), msg.sender, msg.value);
        emit Deposit(msg.sender, msg.value);
    }

    /// @notice Burns `amount` of the sender's tokens and sends as much native coin.
    function withdraw(uint256 amount) external {
        _update(msg.sender, address(0), amount);
        emit Withdrawal(msg.sender, amount);
        (bool ok,) = msg.sender.call{value: amount}("");
        if (!ok) revert NativeSendFailed();
    }

    receive() external payable {
        deposit();
    }
}
