// order.mjs: the life of one limit order, as an integrator writes it with
// ethers v6 and nothing but the public API (README.md, GET /v1/openapi.json).
//
//   BASE_URL=http://127.0.0.1:8080 API_KEY=svc_… MAKER_KEY=0x… node order.mjs
//
// Optional: RPC_URL (default: the rpcUrl that GET /v1/config serves).
//
// Steps: read /v1/config (signing domain, EIP-712 types, makerTraits layout)
// → resolve WETH and USDC with /v1/tokens → wrap WETH if the maker has too
// little and approve the router over JSON-RPC → quote WETH→USDC with
// /v1/route → build and sign a limit order priced 50 % above the market (so
// it rests) → check that the router computes the same hash and accepts the
// signature (eth_call, no state change) → POST /v1/orders → GET it, find it
// in GET /v1/orders?wallet= and in the pair's orderbook → cancel it with a
// signed OrderCancel → GET it again: cancelled.
//
// Every step prints one JSON line on stdout. Any unexpected answer prints
// {"error": …} on stderr and exits 1.
import { ethers } from "ethers";

import { check, connect, env, fail, packTraits, step, wireOrder } from "../common/api.mjs";

const MAKER_KEY = env("MAKER_KEY", "order.mjs");
const { api, config, eventually, inOrderbook, token } = connect(process.env.BASE_URL || "http://127.0.0.1:8080", env("API_KEY", "order.mjs"));

// The router's own interface (docs/protocol.md), independent of the types
// the server publishes: if the two disagreed, hashOrder would not match.
const ORDER_TUPLE =
  "(uint256 salt,address maker,address receiver,address tokenIn,address tokenOut,uint256 amountIn," +
  "uint256 triggerPrice,uint256 triggerAmountOut,uint256 makerTraits,address referrer,uint32 referralFeePpm)";
const ROUTER_ABI = [
  `function hashOrder(${ORDER_TUPLE} order) view returns (bytes32)`,
  "function hashCancel(bytes32 orderHash) view returns (bytes32)",
  `function activate(${ORDER_TUPLE} order, bytes signature)`,
  "error BadSignature()",
  "error OrderExpired()",
  "error InvalidTraits()",
  "error NonceIsInvalidated()",
  "error OrderIsCancelled()",
];
// The dev chain's WETH is the wrapped native coin: deposit() wraps msg.value.
const WETH_ABI = [
  "function balanceOf(address) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "function deposit() payable",
];

// ---------------------------------------------------------------- 1. config

const cfg = await config();
const domain = cfg.domain; // {name, version, chainId, verifyingContract}
// The typed-data types, exactly as served. ethers derives EIP712Domain from
// the domain object and wants one primary type per call.
const { EIP712Domain, Order, OrderCancel } = cfg.eip712.types;
const orderTypes = { Order };
const cancelTypes = { OrderCancel };
// The served field list and the served type strings must agree.
check(ethers.TypedDataEncoder.from(orderTypes).encodeType("Order") === cfg.eip712.order, "eip712.types.Order ≠ eip712.order");
check(ethers.TypedDataEncoder.from(cancelTypes).encodeType("OrderCancel") === cfg.eip712.orderCancel, "eip712.types.OrderCancel ≠ eip712.orderCancel");
// ethers derives the EIP712Domain type from the domain's keys: they must be
// exactly the served domain type's fields.
check(
  EIP712Domain.length === Object.keys(domain).length && EIP712Domain.every((f) => f.name in domain),
  "/v1/config domain does not match eip712.types.EIP712Domain",
);
step("config", { chainId: cfg.chainId, router: cfg.router, domain, rpcUrl: cfg.rpcUrl });

const provider = new ethers.JsonRpcProvider(process.env.RPC_URL || cfg.rpcUrl, cfg.chainId, {
  staticNetwork: true,
  pollingInterval: 250, // the dev chain mines every second
});
const maker = new ethers.Wallet(MAKER_KEY, provider);
const router = new ethers.Contract(cfg.router, ROUTER_ABI, provider);

// ---------------------------------------------------------------- 2. tokens

const WETH = await token("WETH");
const USDC = await token("USDC");
step("tokens", { WETH: WETH.address, USDC: USDC.address });

// Sell 0.1 WETH.
const amountIn = 10n ** BigInt(WETH.decimals) / 10n;

// ---------------------------------------------------------------- 3. funds
// Not required to submit (an unfunded order waits), required to execute:
// the maker holds amountIn of tokenIn and lets the router pull it.

const weth = new ethers.Contract(WETH.address, WETH_ABI, maker);
const balance = await weth.balanceOf(maker.address);
if (balance < amountIn) {
  const receipt = await (await weth.deposit({ value: amountIn - balance })).wait();
  step("wrap", { wrapped: amountIn - balance, tx: receipt.hash });
}
if ((await weth.allowance(maker.address, cfg.router)) < amountIn) {
  const receipt = await (await weth.approve(cfg.router, amountIn)).wait();
  step("approve", { spender: cfg.router, amount: amountIn, tx: receipt.hash });
}
step("funds", { maker: maker.address, balance: await weth.balanceOf(maker.address), allowance: await weth.allowance(maker.address, cfg.router) });

// ---------------------------------------------------------------- 4. quote
// Quote one whole WETH: amountOut is then the market price in the unit
// triggerPrice uses (one whole tokenIn in raw tokenOut units). feeLegs names
// the referrer and the referral fee the order must sign.

const oneIn = 10n ** BigInt(WETH.decimals);
const route = await api(
  "GET",
  `/v1/route?tokenIn=${WETH.address}&tokenOut=${USDC.address}&amountIn=${oneIn}&orderType=limit&wallet=${maker.address}`,
);
const marketPrice = BigInt(route.amountOut);
check(marketPrice > 0n, `route amountOut ${route.amountOut}`);
step("route", { amountOut: marketPrice, referrer: route.feeLegs.referrer, referralPpm: route.feeLegs.fees.triggered.referralPpm });

// ---------------------------------------------------------------- 5. sign

const triggerPrice = (marketPrice * 3n) / 2n; // 50 % above market: the order rests
const nonce = BigInt(ethers.hexlify(ethers.randomBytes(4)));
const order = {
  salt: BigInt(ethers.hexlify(ethers.randomBytes(32))),
  maker: maker.address,
  receiver: maker.address,
  tokenIn: WETH.address,
  tokenOut: USDC.address,
  amountIn,
  triggerPrice,
  // floor(amountIn × triggerPrice / 10^decimals(tokenIn)), signed.
  triggerAmountOut: (amountIn * triggerPrice) / oneIn,
  makerTraits: packTraits(cfg.makerTraits, {
    nonce,
    deadline: Math.floor(Date.now() / 1000) + 3600, // one hour
    slippagePpm: route.slippagePpm ?? 5000,
  }), // no kind flag: a limit order
  referrer: route.feeLegs.referrer,
  referralFeePpm: route.feeLegs.fees.triggered.referralPpm,
};
const signature = await maker.signTypedData(domain, orderTypes, order);
const orderHash = ethers.TypedDataEncoder.hash(domain, orderTypes, order);
step("sign", { orderHash, signature });

// ---------------------------------------------------------------- 6. on-chain
// The router agrees: same hash, and activate() (an eth_call, so nothing is
// written) verifies the signature as a fill would. A tampered order fails.

const onchainHash = await router.hashOrder(order);
check(onchainHash === orderHash, `router.hashOrder = ${onchainHash}, ethers = ${orderHash}`);
const cancelDigest = ethers.TypedDataEncoder.hash(domain, cancelTypes, { orderHash });
check((await router.hashCancel(orderHash)) === cancelDigest, "router.hashCancel ≠ the OrderCancel digest");
await router.activate.staticCall(order, signature).catch((e) => fail(`router.activate(order, signature) reverted: ${e.revert?.name ?? e.shortMessage ?? e}`));
const tampered = await router.activate.staticCall({ ...order, amountIn: amountIn + 1n }, signature).then(
  () => "accepted",
  (e) => e.revert?.name ?? e.shortMessage,
);
check(tampered === "BadSignature", `router.activate of a tampered order: ${tampered}, want BadSignature`);
step("onchain", { hashOrder: onchainHash, activate: "ok", tampered });

// ---------------------------------------------------------------- 7. submit

const submitted = await api("POST", "/v1/orders", {
  expect: 201,
  body: { orderType: "limit", order: wireOrder(order), signature, orderHash },
});
check(submitted.orderHash === orderHash && !submitted.warning, `submit answered ${JSON.stringify(submitted)}, want orderHash ${orderHash}`);
step("submit", submitted);

// ---------------------------------------------------------------- 8. read, list, orderbook

const record = await api("GET", `/v1/orders/${orderHash}`);
check(record.status === "pending", `GET /v1/orders/${orderHash}: status ${record.status}, want pending`);
check(record.order.triggerAmountOut === order.triggerAmountOut.toString(), "stored triggerAmountOut differs");
// funded: the server reads the balance and router allowance of step 3.
check(record.funded === true, `GET /v1/orders/${orderHash}: funded ${record.funded}, want true after step 3`);
step("read", { status: record.status, orderType: record.orderType, funded: record.funded });

const listed = await api("GET", `/v1/orders?wallet=${maker.address}&limit=500`);
check(listed.orders.some((o) => o.orderHash === orderHash), `GET /v1/orders?wallet=${maker.address} lacks ${orderHash}`);
step("list", { count: listed.orders.length });

const pair = `${WETH.address}-${USDC.address}`;
const entry = await eventually(`orderbook ${pair}`, () => inOrderbook(pair, orderHash), (e) => e !== undefined);
check(entry.triggerPrice === triggerPrice.toString(), `orderbook triggerPrice ${entry.triggerPrice}`);
step("orderbook", entry);

// ---------------------------------------------------------------- 9. cancel
// Off-chain cancel of a pending order: the maker signs OrderCancel(orderHash)
// under the same domain.

const cancelSignature = await maker.signTypedData(domain, cancelTypes, { orderHash });
const cancelled = await api("DELETE", `/v1/orders/${orderHash}`, { body: { signature: cancelSignature } });
check(cancelled.success === true, `cancel answered ${JSON.stringify(cancelled)}`);
const after = await api("GET", `/v1/orders/${orderHash}`);
check(after.status === "cancelled", `after cancel: status ${after.status}, want cancelled`);
await eventually(`orderbook ${pair} without the order`, () => inOrderbook(pair, orderHash), (e) => e === undefined);
step("cancel", { status: after.status });

step("done", { orderHash });
