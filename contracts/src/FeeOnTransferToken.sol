// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "./ERC20.sol";

/// @title FeeOnTransferToken
/// @notice A test token that burns `feePpm` of every transfer, so a recipient
/// receives less than the amount sent. The router must refuse it as tokenIn.
contract FeeOnTransferToken is ERC20 {
    /// @notice The share of every transfer that is burned, in ppm.
    uint32 public immutable feePpm;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint32 feePpm_)
        ERC20(name_, symbol_, decimals_)
    {
        feePpm = feePpm_;
    }

    /// @notice Faucet: mints `amount` raw units to `to`. Anyone may call it.
    function mint(address to, uint256 amount) external {
        super._update(address(0), to, amount);
    }

    function _update(address from, address to, uint256 amount) internal override {
        if (from == address(0) || to == address(0)) {
            super._update(from, to, amount);
            return;
        }
        uint256 fee = amount * feePpm / 1_000_000;
        super._update(from, address(0), fee);
        super._update(from, to, amount - fee);
    }
}
