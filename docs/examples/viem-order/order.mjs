// order.mjs: the life of one limit order, as an integrator writes it with
// viem v2 and nothing but the public API (README.md, GET /v1/openapi.json).
//
//   BASE_URL=http://127.0.0.1:8080 API_KEY=svc_… MAKER_KEY=0x… node order.mjs
//
// Optional: RPC_URL (default: the rpcUrl that GET /v1/config serves).
//
// Steps: read /v1/config (signing domain, EIP-712 types, makerTraits layout)
// → resolve WETH and USDC with /v1/tokens → quote WETH→USDC with /v1/route →
// build and sign a limit order priced 50 % above the market (so it rests)
// with the served types, EIP712Domain included → check the router computes
// the same hash (eth_call) → POST /v1/orders → GET it (funded or not: an
// order needs no balance or allowance to be accepted, it waits for them),
// find it in GET /v1/orders?wallet= and in the pair's orderbook → cancel it
// with a signed OrderCancel → GET it again: cancelled.
//
// The ethers example (../ethers-order) also funds the maker and checks the
// router's activate(); this one shows the viem calls. Every step prints one
// JSON line on stdout. Any unexpected answer prints {"error": …} on stderr
// and exits 1.
import { createPublicClient, hashTypedData, http, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";

import { check, connect, env, packTraits, step, wireOrder } from "../common/api.mjs";

const maker = privateKeyToAccount(env("MAKER_KEY", "order.mjs"));
const { api, config, eventually, inOrderbook, token } = connect(process.env.BASE_URL || "http://127.0.0.1:8080", env("API_KEY", "order.mjs"));

// The router's own interface (docs/protocol.md), independent of the types
// the server publishes: if the two disagreed, hashOrder would not match.
const ROUTER_ABI = parseAbi([
  "struct Order { uint256 salt; address maker; address receiver; address tokenIn; address tokenOut; uint256 amountIn; uint256 triggerPrice; uint256 triggerAmountOut; uint256 makerTraits; address referrer; uint32 referralFeePpm; }",
  "function hashOrder(Order order) view returns (bytes32)",
  "function hashCancel(bytes32 orderHash) view returns (bytes32)",
]);

// ---------------------------------------------------------------- 1. config

const cfg = await config();
// viem signs with the types given; passing the served EIP712Domain (instead
// of letting viem derive it from the domain's keys) uses the server's
// domain type verbatim.
const domain = cfg.domain; // {name, version, chainId, verifyingContract}
const { EIP712Domain, Order, OrderCancel } = cfg.eip712.types;
const orderTyped = { domain, types: { EIP712Domain, Order }, primaryType: "Order" };
const cancelTyped = { domain, types: { EIP712Domain, OrderCancel }, primaryType: "OrderCancel" };
step("config", { chainId: cfg.chainId, router: cfg.router, domain, rpcUrl: cfg.rpcUrl });

const chain = createPublicClient({ transport: http(process.env.RPC_URL || cfg.rpcUrl) });

// ---------------------------------------------------------------- 2. tokens

const WETH = await token("WETH");
const USDC = await token("USDC");
step("tokens", { WETH: WETH.address, USDC: USDC.address });

// ---------------------------------------------------------------- 3. quote
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

// ---------------------------------------------------------------- 4. sign
// Sell 0.1 WETH at 1.5 × the market price.

const random = (bytes) => BigInt("0x" + Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex"));
const amountIn = oneIn / 10n;
const triggerPrice = (marketPrice * 3n) / 2n;
const order = {
  salt: random(32),
  maker: maker.address,
  receiver: maker.address,
  tokenIn: WETH.address,
  tokenOut: USDC.address,
  amountIn,
  triggerPrice,
  // floor(amountIn × triggerPrice / 10^decimals(tokenIn)), signed.
  triggerAmountOut: (amountIn * triggerPrice) / oneIn,
  makerTraits: packTraits(cfg.makerTraits, {
    nonce: random(4),
    deadline: Math.floor(Date.now() / 1000) + 3600, // one hour
    slippagePpm: route.slippagePpm ?? 5000,
  }), // no kind flag: a limit order
  referrer: route.feeLegs.referrer,
  referralFeePpm: route.feeLegs.fees.triggered.referralPpm,
};
const signature = await maker.signTypedData({ ...orderTyped, message: order });
const orderHash = hashTypedData({ ...orderTyped, message: order });
step("sign", { orderHash, signature });

// ---------------------------------------------------------------- 5. on-chain

const onchainHash = await chain.readContract({ address: cfg.router, abi: ROUTER_ABI, functionName: "hashOrder", args: [order] });
check(onchainHash === orderHash, `router.hashOrder = ${onchainHash}, viem = ${orderHash}`);
const cancelDigest = hashTypedData({ ...cancelTyped, message: { orderHash } });
const onchainCancel = await chain.readContract({ address: cfg.router, abi: ROUTER_ABI, functionName: "hashCancel", args: [orderHash] });
check(onchainCancel === cancelDigest, `router.hashCancel = ${onchainCancel}, viem = ${cancelDigest}`);
step("onchain", { hashOrder: onchainHash, hashCancel: onchainCancel });

// ---------------------------------------------------------------- 6. submit

const submitted = await api("POST", "/v1/orders", {
  expect: 201,
  body: { orderType: "limit", order: wireOrder(order), signature, orderHash },
});
check(submitted.orderHash === orderHash && !submitted.warning, `submit answered ${JSON.stringify(submitted)}, want orderHash ${orderHash}`);
step("submit", submitted);

// ---------------------------------------------------------------- 7. read, list, orderbook

const record = await api("GET", `/v1/orders/${orderHash}`);
check(record.status === "pending", `GET /v1/orders/${orderHash}: status ${record.status}, want pending`);
check(record.order.triggerAmountOut === order.triggerAmountOut.toString(), "stored triggerAmountOut differs");
check(typeof record.funded === "boolean", `GET /v1/orders/${orderHash}: funded ${record.funded}, want a boolean`);
step("read", { status: record.status, orderType: record.orderType, funded: record.funded });

const listed = await api("GET", `/v1/orders?wallet=${maker.address}&limit=500`);
check(listed.orders.some((o) => o.orderHash === orderHash), `GET /v1/orders?wallet=${maker.address} lacks ${orderHash}`);
step("list", { count: listed.orders.length });

const pair = `${WETH.address}-${USDC.address}`;
const entry = await eventually(`orderbook ${pair}`, () => inOrderbook(pair, orderHash), (e) => e !== undefined);
check(entry.triggerPrice === triggerPrice.toString(), `orderbook triggerPrice ${entry.triggerPrice}`);
step("orderbook", entry);

// ---------------------------------------------------------------- 8. cancel

const cancelSignature = await maker.signTypedData({ ...cancelTyped, message: { orderHash } });
const cancelled = await api("DELETE", `/v1/orders/${orderHash}`, { body: { signature: cancelSignature } });
check(cancelled.success === true, `cancel answered ${JSON.stringify(cancelled)}`);
const after = await api("GET", `/v1/orders/${orderHash}`);
check(after.status === "cancelled", `after cancel: status ${after.status}, want cancelled`);
await eventually(`orderbook ${pair} without the order`, () => inOrderbook(pair, orderHash), (e) => e === undefined);
step("cancel", { status: after.status });

step("done", { orderHash });
