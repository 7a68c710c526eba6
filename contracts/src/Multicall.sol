// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Multicall
/// @notice Runs many read-only calls in one `eth_call`, so a caller can load
/// every pool's state at one block. Each call is a STATICCALL; a failing call
/// does not abort the batch, it is reported with `success = false`.
contract Multicall {
    /// @notice One read: `target` called with `callData`.
    struct StaticCall {
        address target;
        bytes callData;
    }

    /// @notice The outcome of one read.
    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Runs `calls` as static calls.
    /// @return blockNumber the block the reads were made at
    /// @return results one result per call, in order
    function aggregate(StaticCall[] calldata calls)
        external
        view
        returns (uint256 blockNumber, Result[] memory results)
    {
        blockNumber = block.number;
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = calls[i].target.staticcall(calls[i].callData);
            results[i] = Result(ok, ret);
        }
    }

    /// @notice The current block's number and timestamp.
    function blockInfo() external view returns (uint256 number, uint256 timestamp) {
        return (block.number, block.timestamp);
    }
}
