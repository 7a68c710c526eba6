// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "./ERC20.sol";

/// @title TestToken
/// @notice A dev-chain ERC-20 with configurable decimals and a public faucet.
/// Never deploy it to a network where the token should have value.
contract TestToken is ERC20 {
    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_, decimals_) {}

    /// @notice Faucet: mints `amount` raw units to `to`. Anyone may call it.
    function mint(address to, uint256 amount) external {
        _update(address(0), to, amount);
    }
}
