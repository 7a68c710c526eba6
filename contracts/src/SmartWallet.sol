// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title SmartWallet
/// @notice A minimal EIP-1271 contract wallet: a signature is valid when it is
/// the owner EOA's 65-byte signature (v 27/28, low s) of the hash itself; the
/// owner can make the wallet call anything (e.g. approve the router).
contract SmartWallet {
    /// @notice Thrown when a caller other than the owner executes.
    error NotOwner();
    /// @notice Thrown when an executed call fails; carries its revert data.
    error ExecuteFailed(bytes reason);

    bytes4 internal constant MAGIC = 0x1626ba7e;
    uint256 internal constant HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    /// @notice The EOA whose signatures the wallet accepts.
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice EIP-1271: returns 0x1626ba7e when `signature` is the owner's over `hash`.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > HALF_N) return 0xffffffff;
        address signer = ecrecover(hash, v, r, s);
        if (signer != address(0) && signer == owner) return MAGIC;
        return 0xffffffff;
    }

    /// @notice Owner only: calls `target` with `data` and `value`.
    function execute(address target, uint256 value, bytes calldata data) external returns (bytes memory) {
        if (msg.sender != owner) revert NotOwner();
        (bool ok, bytes memory ret) = target.call{value: value}(data);
        if (!ok) revert ExecuteFailed(ret);
        return ret;
    }

    receive() external payable {}
}
