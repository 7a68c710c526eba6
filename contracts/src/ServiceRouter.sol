// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20, SafeTransfer} from "./IERC20.sol";
import {Order, Call, SwapParams} from "./RouterTypes.sol";
import {Executor} from "./Executor.sol";

/// @notice The oracle surface the router reads (see Oracle.sol).
interface IPriceOracle {
    function latestRoundData(address token)
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound);
    function maxAge() external view returns (uint256);
}

/// @notice The wrapped native token's unwrap entry point.
interface IWrappedNative {
    function withdraw(uint256 amount) external;
}

/// @title ServiceRouter v7.1
/// @notice Executes EIP-712 signed orders and direct swaps through route calls
/// run by its Executor, pays the fee legs and delivers the output.
/// docs/protocol.md is the specification of every rule below.
contract ServiceRouter {
    using SafeTransfer for address;

    // ---------------------------------------------------------------- events

    /// @notice One execution of an order. `amountOut` is what the receiver got
    /// (net of every fee); `filledAmountIn` and `executions` are cumulative.
    event OrderFilled(
        bytes32 indexed orderHash,
        address indexed maker,
        address indexed keeper,
        uint256 amountIn,
        uint256 amountOut,
        uint256 protocolFee,
        uint256 referralFee,
        uint256 keeperFee,
        uint256 filledAmountIn,
        uint32 executions
    );
    /// @notice The router saw the order for the first time (first fill or `activate`).
    event OrderActivated(bytes32 indexed orderHash, address indexed maker);
    /// @notice The maker cancelled the order on-chain.
    event OrderCancelled(bytes32 indexed orderHash, address indexed maker);
    /// @notice The maker invalidated every order carrying `nonce`.
    event NonceInvalidated(address indexed maker, uint256 nonce);
    /// @notice A direct swap. `amountOut` is net; `referrer` is the address the referral leg was paid to.
    event Swapped(
        address indexed sender,
        address indexed receiver,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        uint256 protocolFee,
        uint256 referralFee,
        address referrer
    );
    /// @notice A fee table cell changed.
    event FeeSet(uint8 indexed kind, uint8 indexed class, uint32 protocolPpm, uint32 keeperPpm);
    /// @notice A token's class changed.
    event TokenClassSet(address indexed token, uint8 class);
    /// @notice The fee vault changed.
    event FeeVaultSet(address feeVault);
    /// @notice The oracle changed.
    event OracleSet(address oracle);
    /// @notice Ownership moved.
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    // ---------------------------------------------------------------- errors

    error BadSignature();
    error OrderExpired();
    error OrderIsCancelled();
    error NonceIsInvalidated();
    error SenderNotAllowed();
    error InvalidTraits();
    error ZeroAmount();
    error FillExceedsRemaining();
    error PartialFillNotAllowed();
    error DcaLegSize();
    error DcaTooEarly();
    error TriggerNotReached();
    error OracleMissing();
    error OracleStale();
    error SlippageExceeded();
    error LimitPriceNotMet();
    error InsufficientOutput();
    error FeeOnTransferToken();
    error CallFailed(uint256 index, bytes reason);
    error Reentrancy();
    error NotMaker();
    error FeeTooHigh();
    error NativeTransferFailed();
    error NotRouter();
    error NotOwner();
    /// @notice Admin only: a fee kind above 5 or a token class above 2.
    error InvalidFeeCell();

    // ---------------------------------------------------------------- constants

    /// @notice EIP-712 type hash of the v7.1 Order.
    bytes32 public constant ORDER_TYPEHASH = keccak256(
        "Order(uint256 salt,address maker,address receiver,address tokenIn,address tokenOut,uint256 amountIn,uint256 triggerPrice,uint256 triggerAmountOut,uint256 makerTraits,address referrer,uint32 referralFeePpm)"
    );
    /// @notice EIP-712 type hash of OrderCancel (signed off-chain only).
    bytes32 public constant CANCEL_TYPEHASH = keccak256("OrderCancel(bytes32 orderHash)");
    bytes32 internal constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 internal constant NAME_HASH = keccak256("ServiceRouter");
    bytes32 internal constant VERSION_HASH = keccak256("7");

    uint256 internal constant PPM = 1_000_000;
    /// @notice Cap of protocolPpm + keeperPpm of one fee cell.
    uint256 public constant MAX_CELL_PPM = 100_000;
    /// @notice Cap of an order's or swap's referralFeePpm.
    uint256 public constant MAX_REFERRAL_PPM = 100_000;
    uint256 internal constant HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;
    bytes4 internal constant EIP1271_MAGIC = 0x1626ba7e;

    // makerTraits flags (contract.md section 2)
    uint256 internal constant STOP_LOSS = 1 << 255;
    uint256 internal constant TAKE_PROFIT = 1 << 254;
    uint256 internal constant TRAILING = 1 << 253;
    uint256 internal constant DCA = 1 << 252;
    uint256 internal constant PRICE_GATED = 1 << 251;
    uint256 internal constant ALLOW_PARTIAL_FILL = 1 << 250;
    uint256 internal constant SHORT_CIRCUIT = 1 << 249;
    uint256 internal constant UNWRAP_NATIVE = 1 << 248;

    /// @notice Fee kinds, the first index of the fee table.
    uint8 public constant KIND_DIRECT = 0;
    uint8 public constant KIND_LIMIT = 1;
    uint8 public constant KIND_STOP_LOSS = 2;
    uint8 public constant KIND_TAKE_PROFIT = 3;
    uint8 public constant KIND_DCA = 4;
    uint8 public constant KIND_TRAILING = 5;

    /// @notice Token classes, the second index of the fee table.
    uint8 public constant CLASS_STABLE = 0;
    uint8 public constant CLASS_MAJOR = 1;
    uint8 public constant CLASS_OTHER = 2;

    // ---------------------------------------------------------------- state

    /// @notice Progress of an order, keyed by its EIP-712 hash.
    struct FillState {
        uint256 filledIn;
        uint32 executions;
        uint64 firstExecution;
        uint64 lastExecution;
    }

    struct FeeCell {
        uint32 protocolPpm;
        uint32 keeperPpm;
    }

    /// @dev What one settlement moves: `amountIn` of tokenIn from `payer`.
    struct Leg {
        address payer;
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
        uint8 kind;
        address referrer;
        uint32 referralFeePpm;
    }

    /// @dev Amounts of one settlement, all in tokenOut.
    struct Settlement {
        uint256 gross;
        uint256 protocolFee;
        uint256 referralFee;
        uint256 keeperFee;
        uint256 net;
        address referralPayee;
    }

    /// @notice The owner of the fee table, token classes, vault and oracle.
    address public owner;
    /// @notice Receiver of the protocol fee leg (and of a referral leg without referrer).
    address public feeVault;
    /// @notice The price oracle.
    address public oracle;
    /// @notice The executor that runs route calls; created by this router.
    address public immutable executor;
    /// @notice The wrapped native token (UNWRAP_NATIVE / unwrapNative deliver native coin for it).
    address public immutable wrappedNative;

    /// @notice Progress per order hash: (filledIn, executions, firstExecution, lastExecution).
    mapping(bytes32 => FillState) public filled;
    /// @notice Whether the order was activated (first fill or `activate`).
    mapping(bytes32 => bool) public activated;
    /// @notice Whether the maker cancelled the order on-chain.
    mapping(bytes32 => bool) public cancelled;
    /// @notice Whether `maker` invalidated `nonce`.
    mapping(address => mapping(uint256 => bool)) public nonceInvalidated;

    mapping(address => uint8) internal _classPlusOne;
    mapping(uint8 => mapping(uint8 => FeeCell)) internal _fees;
    uint256 internal _status = 1;

    /// @param owner_ owner of the fee table (the deployer on the dev chain)
    /// @param feeVault_ receiver of protocol fees
    /// @param oracle_ the USD price oracle
    /// @param wrappedNative_ the wrapped native token
    constructor(address owner_, address feeVault_, address oracle_, address wrappedNative_) {
        owner = owner_;
        feeVault = feeVault_;
        oracle = oracle_;
        wrappedNative = wrappedNative_;
        executor = address(new Executor());
        emit OwnershipTransferred(address(0), owner_);
        emit FeeVaultSet(feeVault_);
        emit OracleSet(oracle_);
    }

    modifier nonReentrant() {
        if (_status != 1) revert Reentrancy();
        _status = 2;
        _;
        _status = 1;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    /// @notice Accepts native coin only from the wrapped native token (unwrapping).
    receive() external payable {
        if (msg.sender != wrappedNative) revert NativeTransferFailed();
    }

    // ---------------------------------------------------------------- hashing

    /// @notice The EIP-712 domain separator: ServiceRouter / 7 / block.chainid / this.
    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    /// @notice The order hash: the EIP-712 digest the maker signs.
    function hashOrder(Order calldata o) public view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(
                ORDER_TYPEHASH,
                o.salt,
                o.maker,
                o.receiver,
                o.tokenIn,
                o.tokenOut,
                o.amountIn,
                o.triggerPrice,
                o.triggerAmountOut,
                o.makerTraits,
                o.referrer,
                o.referralFeePpm
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
    }

    /// @notice The EIP-712 digest of `OrderCancel(orderHash)` (the off-chain cancel signature).
    function hashCancel(bytes32 orderHash) external view returns (bytes32) {
        return keccak256(
            abi.encodePacked("\x19\x01", domainSeparator(), keccak256(abi.encode(CANCEL_TYPEHASH, orderHash)))
        );
    }

    // ---------------------------------------------------------------- maker entry points

    /// @notice Executes `fillIn` of `order` through `calls`. The caller is the
    /// keeper: it is paid the keeper fee leg and must match allowedSender.
    /// @param order the signed order
    /// @param signature the maker's signature (65 or 64 bytes, or EIP-1271 data)
    /// @param fillIn the amount of tokenIn to execute now
    /// @param calls the route's venue calls, run by the executor
    /// @param minAmountOut the keeper's own bound on the net output
    /// @return netOut the amount the receiver got
    function fillOrder(
        Order calldata order,
        bytes calldata signature,
        uint256 fillIn,
        Call[] calldata calls,
        uint256 minAmountOut
    ) external nonReentrant returns (uint256 netOut) {
        bytes32 orderHash = hashOrder(order);
        uint8 kind = _checkOrder(order, orderHash, signature, true);
        FillState memory st = filled[orderHash];
        _checkSize(order, kind, st, fillIn);
        uint256 oracleOut = _checkTrigger(order, kind, fillIn);
        Settlement memory s = _settle(
            Leg(order.maker, order.tokenIn, order.tokenOut, fillIn, kind, order.referrer, order.referralFeePpm), calls
        );
        _checkPrice(order, kind, fillIn, oracleOut, s.net);
        if (s.net < minAmountOut) revert InsufficientOutput();
        _record(orderHash, order.maker, st, fillIn);
        _deliverFill(order, orderHash, fillIn, s, st);
        return s.net;
    }

    /// @dev Pays the settlement of a fill and emits `OrderFilled`.
    function _deliverFill(
        Order calldata order,
        bytes32 orderHash,
        uint256 fillIn,
        Settlement memory s,
        FillState memory st
    ) internal {
        address receiver = order.receiver == address(0) ? order.maker : order.receiver;
        _payout(order.tokenOut, s, receiver, order.makerTraits & UNWRAP_NATIVE != 0);
        emit OrderFilled(
            orderHash,
            order.maker,
            msg.sender,
            fillIn,
            s.net,
            s.protocolFee,
            s.referralFee,
            s.keeperFee,
            st.filledIn,
            st.executions
        );
    }

    /// @dev Stores the progress of one execution and activates the order on its first.
    function _record(bytes32 orderHash, address maker, FillState memory st, uint256 fillIn) internal {
        st.filledIn += fillIn;
        st.executions += 1;
        if (st.firstExecution == 0) st.firstExecution = uint64(block.timestamp);
        st.lastExecution = uint64(block.timestamp);
        filled[orderHash] = st;
        if (!activated[orderHash]) {
            activated[orderHash] = true;
            emit OrderActivated(orderHash, maker);
        }
    }

    /// @notice Direct swap (directSwap=1): the sender pays `amountIn` of tokenIn
    /// by allowance; fees come from the `direct` cell, without a keeper leg.
    /// @return netOut the amount the receiver got
    function swap(SwapParams calldata p) external nonReentrant returns (uint256 netOut) {
        if (p.amountIn == 0) revert ZeroAmount();
        if (p.tokenIn == p.tokenOut) revert InvalidTraits();
        Settlement memory s = _settle(
            Leg(msg.sender, p.tokenIn, p.tokenOut, p.amountIn, KIND_DIRECT, p.referrer, p.referralFeePpm), p.calls
        );
        if (s.net < p.minAmountOut) revert InsufficientOutput();
        address receiver = p.receiver == address(0) ? msg.sender : p.receiver;
        _payout(p.tokenOut, s, receiver, p.unwrapNative);
        emit Swapped(
            msg.sender, receiver, p.tokenIn, p.tokenOut, p.amountIn, s.net, s.protocolFee, s.referralFee, s.referralPayee
        );
        return s.net;
    }

    /// @notice Cancels `order` on-chain. Only its maker may call.
    function cancel(Order calldata order) external nonReentrant {
        if (msg.sender != order.maker) revert NotMaker();
        bytes32 orderHash = hashOrder(order);
        cancelled[orderHash] = true;
        emit OrderCancelled(orderHash, order.maker);
    }

    /// @notice Cancels every order of the sender whose makerTraits carry `nonce`.
    function invalidateNonce(uint256 nonce) external nonReentrant {
        nonceInvalidated[msg.sender][nonce] = true;
        emit NonceInvalidated(msg.sender, nonce);
    }

    /// @notice Arms `order` on-chain (anyone may call): verifies it like a
    /// fill would (traits, cancel, nonce, deadline, signature) and emits
    /// `OrderActivated` once. Calling it again is a no-op.
    function activate(Order calldata order, bytes calldata signature) external nonReentrant {
        bytes32 orderHash = hashOrder(order);
        _checkOrder(order, orderHash, signature, false);
        if (!activated[orderHash]) {
            activated[orderHash] = true;
            emit OrderActivated(orderHash, order.maker);
        }
    }

    // ---------------------------------------------------------------- fee table

    /// @notice The class of `token`: 0 stable, 1 major, 2 other (also for unknown tokens).
    function tokenClass(address token) public view returns (uint8) {
        uint8 c = _classPlusOne[token];
        return c == 0 ? CLASS_OTHER : c - 1;
    }

    /// @notice The class of a pair: the riskier (larger) of its tokens' classes.
    function pairClass(address tokenA, address tokenB) public view returns (uint8) {
        uint8 a = tokenClass(tokenA);
        uint8 b = tokenClass(tokenB);
        return a > b ? a : b;
    }

    /// @notice The fee cell of (kind, class).
    function fees(uint8 kind, uint8 class) external view returns (uint32 protocolPpm, uint32 keeperPpm) {
        FeeCell memory c = _fees[kind][class];
        return (c.protocolPpm, c.keeperPpm);
    }

    /// @notice Owner: sets the fee cell of (kind, class).
    function setFee(uint8 kind, uint8 class, uint32 protocolPpm, uint32 keeperPpm) external onlyOwner {
        if (kind > KIND_TRAILING || class > CLASS_OTHER) revert InvalidFeeCell();
        if (uint256(protocolPpm) + keeperPpm > MAX_CELL_PPM) revert FeeTooHigh();
        _fees[kind][class] = FeeCell(protocolPpm, keeperPpm);
        emit FeeSet(kind, class, protocolPpm, keeperPpm);
    }

    /// @notice Owner: sets the class of `token`.
    function setTokenClass(address token, uint8 class) external onlyOwner {
        if (class > CLASS_OTHER) revert InvalidFeeCell();
        _classPlusOne[token] = class + 1;
        emit TokenClassSet(token, class);
    }

    /// @notice Owner: sets the fee vault.
    function setFeeVault(address feeVault_) external onlyOwner {
        feeVault = feeVault_;
        emit FeeVaultSet(feeVault_);
    }

    /// @notice Owner: sets the oracle.
    function setOracle(address oracle_) external onlyOwner {
        oracle = oracle_;
        emit OracleSet(oracle_);
    }

    /// @notice Owner: moves ownership.
    function transferOwnership(address newOwner) external onlyOwner {
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    // ---------------------------------------------------------------- checks

    /// @dev Traits, cancel, nonce, deadline, allowedSender (fills only) and signature.
    function _checkOrder(Order calldata order, bytes32 orderHash, bytes calldata signature, bool isFill)
        internal
        view
        returns (uint8 kind)
    {
        kind = _classify(order);
        if (order.amountIn == 0) revert ZeroAmount();
        if (cancelled[orderHash]) revert OrderIsCancelled();
        uint256 t = order.makerTraits;
        if (nonceInvalidated[order.maker][(t >> 120) & 0xFFFFFFFFFF]) revert NonceIsInvalidated();
        uint256 deadline = (t >> 80) & 0xFFFFFFFFFF;
        if (deadline != 0 && block.timestamp > deadline) revert OrderExpired();
        if (isFill) {
            uint256 allowed = t & 0xFFFFFFFFFFFFFFFFFFFF;
            if (allowed != 0 && uint256(uint80(uint160(msg.sender))) != allowed) revert SenderNotAllowed();
        }
        if (!_validSignature(order.maker, orderHash, signature)) revert BadSignature();
    }

    /// @dev The class (as fee kind) from the flags, and the class rules of docs/protocol.md.
    function _classify(Order calldata o) internal pure returns (uint8) {
        uint256 t = o.makerTraits;
        uint256 slippage = (t >> 160) & 0xFFFFFF;
        uint256 kindParam = (t >> 184) & 0xFFFFFF;
        uint256 interval = (t >> 208) & 0xFFFFFF;
        uint256 total = (t >> 232) & 0xFFFF;
        if (slippage > PPM || o.tokenIn == o.tokenOut || o.tokenIn == address(0) || o.tokenOut == address(0)) {
            revert InvalidTraits();
        }
        uint256 kinds = (t & STOP_LOSS != 0 ? 1 : 0) + (t & TAKE_PROFIT != 0 ? 1 : 0) + (t & TRAILING != 0 ? 1 : 0)
            + (t & DCA != 0 ? 1 : 0);
        if (kinds > 1) revert InvalidTraits();
        if (t & DCA != 0) {
            bool gated = t & PRICE_GATED != 0;
            bool priceOk = gated ? o.triggerPrice > 0 : (o.triggerPrice == 0 && o.triggerAmountOut == 0);
            if (
                !priceOk || t & ALLOW_PARTIAL_FILL != 0 || total == 0 || interval == 0 || kindParam > PPM
                    || o.amountIn < total
            ) revert InvalidTraits();
            return KIND_DCA;
        }
        // Not DCA: no DCA-only fields or flags.
        if (interval != 0 || total != 0 || t & (PRICE_GATED | SHORT_CIRCUIT) != 0) revert InvalidTraits();
        if (t & TRAILING != 0) {
            if (
                o.triggerPrice != 0 || o.triggerAmountOut != 0 || kindParam == 0 || kindParam >= PPM
                    || t & ALLOW_PARTIAL_FILL != 0
            ) revert InvalidTraits();
            return KIND_TRAILING;
        }
        if (kindParam != 0 || o.triggerPrice == 0) revert InvalidTraits();
        if (t & (STOP_LOSS | TAKE_PROFIT) != 0) {
            if (t & ALLOW_PARTIAL_FILL != 0) revert InvalidTraits();
            return t & STOP_LOSS != 0 ? KIND_STOP_LOSS : KIND_TAKE_PROFIT;
        }
        return KIND_LIMIT;
    }

    /// @dev Execution size rules: remaining amount, partial fills, DCA legs and interval.
    function _checkSize(Order calldata order, uint8 kind, FillState memory st, uint256 fillIn) internal view {
        if (fillIn == 0) revert ZeroAmount();
        uint256 remaining = order.amountIn - st.filledIn;
        if (fillIn > remaining) revert FillExceedsRemaining();
        if (kind == KIND_DCA) {
            _checkDcaLeg(order, st, fillIn, remaining);
        } else if (kind == KIND_LIMIT && order.makerTraits & ALLOW_PARTIAL_FILL != 0) {
            return;
        } else if (fillIn != order.amountIn) {
            revert PartialFillNotAllowed();
        }
    }

    /// @dev DCA: fillIn is k whole legs (the last leg takes the remainder); k > 1
    /// only with SHORT_CIRCUIT and at most the legs due; the interval (with
    /// flexibility) since the last execution must have passed.
    function _checkDcaLeg(Order calldata order, FillState memory st, uint256 fillIn, uint256 remaining)
        internal
        view
    {
        uint256 t = order.makerTraits;
        uint256 total = (t >> 232) & 0xFFFF;
        uint256 interval = (t >> 208) & 0xFFFFFF;
        uint256 flex = (t >> 184) & 0xFFFFFF;
        uint256 leg = order.amountIn / total;
        uint256 legsDone = st.filledIn / leg;
        uint256 k;
        if (fillIn == remaining) {
            k = total - legsDone;
        } else {
            if (fillIn % leg != 0) revert DcaLegSize();
            k = fillIn / leg;
            if (legsDone + k >= total) revert DcaLegSize();
        }
        if (st.executions > 0 && block.timestamp < st.lastExecution + interval * (PPM - flex) / PPM) {
            revert DcaTooEarly();
        }
        if (k > 1) {
            if (t & SHORT_CIRCUIT == 0) revert DcaLegSize();
            uint256 due = 1;
            if (st.executions > 0) {
                uint256 dueTotal = 1 + (block.timestamp - st.firstExecution) / interval;
                due = dueTotal > legsDone ? dueTotal - legsDone : 0;
            }
            if (k > due) revert DcaLegSize();
        }
    }

    /// @dev Reads the oracle for every class but limit, checks the trigger
    /// condition, and returns the oracle out of `fillIn` (0 for limit).
    function _checkTrigger(Order calldata order, uint8 kind, uint256 fillIn) internal view returns (uint256) {
        if (kind == KIND_LIMIT) return 0;
        (uint256 pIn, uint256 pOut) = (_price(order.tokenIn), _price(order.tokenOut));
        uint256 decIn = IERC20(order.tokenIn).decimals();
        uint256 decOut = IERC20(order.tokenOut).decimals();
        uint256 price = pIn * 10 ** decOut / pOut;
        if (kind == KIND_STOP_LOSS) {
            if (price > order.triggerPrice) revert TriggerNotReached();
        } else if (kind == KIND_TAKE_PROFIT || (kind == KIND_DCA && order.makerTraits & PRICE_GATED != 0)) {
            if (price < order.triggerPrice) revert TriggerNotReached();
        }
        return fillIn * pIn * 10 ** decOut / (pOut * 10 ** decIn);
    }

    /// @dev Price checks on the net output.
    function _checkPrice(Order calldata order, uint8 kind, uint256 fillIn, uint256 oracleOut, uint256 net)
        internal
        pure
    {
        bool limitPrice = kind == KIND_LIMIT || (kind == KIND_DCA && order.makerTraits & PRICE_GATED != 0);
        if (limitPrice) {
            uint256 num = order.triggerAmountOut * fillIn;
            uint256 required = num / order.amountIn + (num % order.amountIn == 0 ? 0 : 1);
            if (net < required) revert LimitPriceNotMet();
        } else {
            uint256 slippage = (order.makerTraits >> 160) & 0xFFFFFF;
            if (net < oracleOut * (PPM - slippage) / PPM) revert SlippageExceeded();
        }
    }

    /// @dev The oracle's USD answer for `token`, refusing missing and stale ones.
    function _price(address token) internal view returns (uint256) {
        address o = oracle;
        if (o == address(0)) revert OracleMissing();
        (, int256 answer,, uint256 updatedAt,) = IPriceOracle(o).latestRoundData(token);
        if (answer <= 0 || updatedAt == 0) revert OracleMissing();
        if (block.timestamp > updatedAt + IPriceOracle(o).maxAge()) revert OracleStale();
        return uint256(answer);
    }

    /// @dev EOA: 65-byte (v 27/28 or 0/1) or 64-byte EIP-2098, low s only.
    /// Maker with code: EIP-1271.
    function _validSignature(address signer, bytes32 digest, bytes calldata sig) internal view returns (bool) {
        if (signer.code.length > 0) {
            (bool ok, bytes memory ret) =
                signer.staticcall(abi.encodeWithSelector(EIP1271_MAGIC, digest, sig));
            return ok && ret.length >= 32 && bytes32(ret) == bytes32(EIP1271_MAGIC);
        }
        bytes32 r;
        bytes32 s;
        uint8 v;
        if (sig.length == 65) {
            r = bytes32(sig[0:32]);
            s = bytes32(sig[32:64]);
            v = uint8(sig[64]);
            if (v < 27) v += 27;
        } else if (sig.length == 64) {
            r = bytes32(sig[0:32]);
            bytes32 vs = bytes32(sig[32:64]);
            s = vs & bytes32(0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff);
            v = uint8(uint256(vs) >> 255) + 27;
        } else {
            return false;
        }
        if ((v != 27 && v != 28) || uint256(s) > HALF_N) return false;
        address recovered = ecrecover(digest, v, r, s);
        return recovered != address(0) && recovered == signer;
    }

    // ---------------------------------------------------------------- settlement

    /// @dev Pulls `amountIn` from `payer` into the executor, runs the calls and
    /// computes the fee legs of the gross output (now held by the router).
    function _settle(Leg memory leg, Call[] calldata calls) internal returns (Settlement memory s) {
        if (leg.referralFeePpm > MAX_REFERRAL_PPM) revert FeeTooHigh();
        address exec = executor;
        uint256 before = IERC20(leg.tokenIn).balanceOf(exec);
        leg.tokenIn.safeTransferFrom(leg.payer, exec, leg.amountIn);
        if (IERC20(leg.tokenIn).balanceOf(exec) != before + leg.amountIn) revert FeeOnTransferToken();

        uint256 outBefore = IERC20(leg.tokenOut).balanceOf(address(this));
        Executor(exec).execute(leg.tokenIn, leg.tokenOut, leg.payer, calls);
        s.gross = IERC20(leg.tokenOut).balanceOf(address(this)) - outBefore;

        FeeCell memory cell = _fees[leg.kind][pairClass(leg.tokenIn, leg.tokenOut)];
        s.protocolFee = s.gross * cell.protocolPpm / PPM;
        s.referralFee = s.gross * leg.referralFeePpm / PPM;
        s.keeperFee = leg.kind == KIND_DIRECT ? 0 : s.gross * cell.keeperPpm / PPM;
        s.net = s.gross - s.protocolFee - s.referralFee - s.keeperFee;
        s.referralPayee = leg.referrer == address(0) ? feeVault : leg.referrer;
    }

    /// @dev Pays the fee legs (protocol → vault, referral → payee, keeper →
    /// msg.sender) and the net amount to `receiver`, as native coin when asked
    /// and tokenOut is the wrapped native token.
    function _payout(address tokenOut, Settlement memory s, address receiver, bool unwrap) internal {
        if (s.protocolFee > 0) tokenOut.safeTransfer(feeVault, s.protocolFee);
        if (s.referralFee > 0) tokenOut.safeTransfer(s.referralPayee, s.referralFee);
        if (s.keeperFee > 0) tokenOut.safeTransfer(msg.sender, s.keeperFee);
        if (s.net == 0) return;
        if (unwrap && tokenOut == wrappedNative) {
            IWrappedNative(tokenOut).withdraw(s.net);
            (bool ok,) = receiver.call{value: s.net}("");
            if (!ok) revert NativeTransferFailed();
        } else {
            tokenOut.safeTransfer(receiver, s.net);
        }
    }
}
