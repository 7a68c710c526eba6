// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Oracle
/// @notice Chainlink-style USD prices per token, 8 decimals, written by the
/// owner (on the dev chain: the deployer and the dev market maker). A token
/// that was never priced answers zeros; the router treats that as missing.
contract Oracle {
    /// @notice Emitted on every price update.
    event PriceUpdated(address indexed token, int256 answer, uint80 roundId, uint256 updatedAt);
    /// @notice Emitted when the staleness bound changes.
    event MaxAgeUpdated(uint256 maxAge);
    /// @notice Emitted when ownership moves.
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    /// @notice Thrown when a caller other than the owner writes.
    error NotOwner();
    /// @notice Thrown when the token and answer arrays differ in length.
    error LengthMismatch();

    struct Round {
        uint80 roundId;
        int256 answer;
        uint64 updatedAt;
    }

    /// @notice The only account that may write prices.
    address public owner;
    /// @notice Seconds after `updatedAt` from which an answer is stale.
    uint256 public maxAge;
    mapping(address => Round) internal _rounds;

    constructor(uint256 maxAge_) {
        owner = msg.sender;
        maxAge = maxAge_;
        emit OwnershipTransferred(address(0), msg.sender);
        emit MaxAgeUpdated(maxAge_);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    /// @notice Decimals of every answer (USD with 8 decimals, like Chainlink).
    function decimals() external pure returns (uint8) {
        return 8;
    }

    /// @notice The latest USD price of `token`, Chainlink-shaped.
    /// @return roundId the update counter of this token
    /// @return answer the USD price with 8 decimals (0 when never set)
    /// @return startedAt equal to updatedAt
    /// @return updatedAt block timestamp of the update (0 when never set)
    /// @return answeredInRound equal to roundId
    function latestRoundData(address token)
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round memory r = _rounds[token];
        return (r.roundId, r.answer, r.updatedAt, r.updatedAt, r.roundId);
    }

    /// @notice Sets the USD price (8 decimals) of `token` at the current block time.
    function setPrice(address token, int256 answer) external onlyOwner {
        _set(token, answer);
    }

    /// @notice Sets several prices at once.
    function setPrices(address[] calldata tokens, int256[] calldata answers) external onlyOwner {
        if (tokens.length != answers.length) revert LengthMismatch();
        for (uint256 i = 0; i < tokens.length; i++) {
            _set(tokens[i], answers[i]);
        }
    }

    /// @notice Sets the staleness bound in seconds.
    function setMaxAge(uint256 maxAge_) external onlyOwner {
        maxAge = maxAge_;
        emit MaxAgeUpdated(maxAge_);
    }

    /// @notice Moves ownership to `newOwner`.
    function transferOwnership(address newOwner) external onlyOwner {
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function _set(address token, int256 answer) internal {
        Round storage r = _rounds[token];
        r.roundId += 1;
        r.answer = answer;
        r.updatedAt = uint64(block.timestamp);
        emit PriceUpdated(token, answer, r.roundId, block.timestamp);
    }
}
