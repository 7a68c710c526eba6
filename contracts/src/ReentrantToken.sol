// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "./ERC20.sol";

/// @title ReentrantToken
/// @notice A malicious test token: while armed, every transfer and
/// transferFrom first calls `target` with `data` (for example a router entry
/// point) and bubbles a failure of that call up unchanged. It proves the
/// router's reentrancy guard.
contract ReentrantToken is ERC20 {
    /// @notice The contract called back during transfers.
    address public target;
    /// @notice The calldata of the callback.
    bytes public data;
    /// @notice Whether the callback is armed.
    bool public armed;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_, decimals_) {}

    /// @notice Faucet: mints `amount` raw units to `to`. Anyone may call it.
    function mint(address to, uint256 amount) external {
        _update(address(0), to, amount);
    }

    /// @notice Arms the callback: later transfers call `target_` with `data_`.
    function arm(address target_, bytes calldata data_) external {
        target = target_;
        data = data_;
        armed = true;
    }

    /// @notice Disarms the callback.
    function disarm() external {
        armed = false;
    }

    function _update(address from, address to, uint256 amount) internal override {
        if (armed && from != address(0) && to != address(0)) {
            armed = false;
            (bool ok, bytes memory ret) = target.call(data);
            if (!ok) {
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
            armed = true;
        }
        super._update(from, to, amount);
    }
}
