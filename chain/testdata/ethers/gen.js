// Generates the golden vectors the Go tests of package chain check against,
// with ethers v6 as the independent EIP-712 implementation:
//
//   ../eip712_vectors.json  domain separators, v7.1 and v7.0 Order digests,
//                           OrderCancel digests, Wallet.signTypedData signatures
//   ../traits_vectors.json  makerTraits words packed with JavaScript BigInt
//
// Everything is deterministic (fixed keys, RFC 6979 signatures), so running
// it again (make vectors) reproduces the committed files byte for byte.
"use strict";

const fs = require("fs");
const path = require("path");
const { ethers } = require("ethers");

const outDir = path.resolve(__dirname, "..");

const ORDER_V71 = [
  { name: "salt", type: "uint256" },
  { name: "maker", type: "address" },
  { name: "receiver", type: "address" },
  { name: "tokenIn", type: "address" },
  { name: "tokenOut", type: "address" },
  { name: "amountIn", type: "uint256" },
  { name: "triggerPrice", type: "uint256" },
  { name: "triggerAmountOut", type: "uint256" },
  { name: "makerTraits", type: "uint256" },
  { name: "referrer", type: "address" },
  { name: "referralFeePpm", type: "uint32" },
];
const ORDER_V70 = ORDER_V71.filter((f) => f.name !== "triggerAmountOut");
const CANCEL = [{ name: "orderHash", type: "bytes32" }];

const U256_MAX = (1n << 256n) - 1n;
const U40_MAX = (1n << 40n) - 1n;

// makerTraits layout of contract.md section 2.
const FLAGS = {
  UNWRAP_NATIVE: 248n,
  SHORT_CIRCUIT: 249n,
  ALLOW_PARTIAL_FILL: 250n,
  PRICE_GATED: 251n,
  DCA: 252n,
  TRAILING: 253n,
  TAKE_PROFIT: 254n,
  STOP_LOSS: 255n,
};

function packTraits(t) {
  let w = 0n;
  w |= BigInt(t.allowedSender || "0x0") & ((1n << 80n) - 1n);
  w |= BigInt(t.deadline || 0) << 80n;
  w |= BigInt(t.nonce || 0) << 120n;
  w |= BigInt(t.slippagePpm || 0) << 160n;
  w |= BigInt(t.kindParamPpm || 0) << 184n;
  w |= BigInt(t.intervalSeconds || 0) << 208n;
  w |= BigInt(t.totalExecutions || 0) << 232n;
  for (const f of t.flags || []) w |= 1n << FLAGS[f];
  return w;
}

const key = (label) => ethers.id("orderengine test key " + label);
const addr = (label) => ethers.getAddress(ethers.dataSlice(ethers.id("orderengine address " + label), 12));

const domains = [
  { name: "ServiceRouter", version: "7", chainId: 4663, verifyingContract: addr("router-4663") },
  { name: "ServiceRouter", version: "7", chainId: 1337, verifyingContract: addr("router-1337") },
];

const makers = ["maker-a", "maker-b", "maker-c"].map((l) => new ethers.Wallet(key(l)));
const keeper = addr("keeper");

// Each case: the order without maker and triggerAmountOut, the maker index,
// tokenIn decimals, the domain index and optionally an explicit
// triggerAmountOut (when the derivation overflows).
const cases = [
  {
    name: "limit_weth_usdc_partial", maker: 0, domain: 0, decimalsIn: 18,
    amountIn: 1500000000000000000n, triggerPrice: 2000123456n,
    traits: { flags: ["ALLOW_PARTIAL_FILL"], nonce: 7, deadline: 1893456000, slippagePpm: 0 },
    referralFeePpm: 2500,
  },
  {
    name: "stop_loss_max_deadline_unwrap", maker: 1, domain: 0, decimalsIn: 6,
    amountIn: 2500000000n, triggerPrice: 450000000000000n,
    traits: { flags: ["STOP_LOSS", "UNWRAP_NATIVE"], nonce: U40_MAX, deadline: U40_MAX, slippagePpm: 1000000 },
    referralFeePpm: 0,
  },
  {
    name: "take_profit_6_decimals", maker: 2, domain: 0, decimalsIn: 6,
    amountIn: 1n, triggerPrice: 999999n,
    traits: { flags: ["TAKE_PROFIT"], nonce: 1, slippagePpm: 5000 },
    referralFeePpm: 1000,
  },
  {
    name: "dca_short_circuit_zero_trigger", maker: 0, domain: 0, decimalsIn: 18,
    amountIn: 10000000000000000000n, triggerPrice: 0n,
    traits: { flags: ["DCA", "SHORT_CIRCUIT"], intervalSeconds: 3600, totalExecutions: 10, kindParamPpm: 100000, slippagePpm: 10000 },
    referralFeePpm: 1500,
  },
  {
    name: "dca_price_gated", maker: 1, domain: 1, decimalsIn: 18,
    amountIn: 3000000000000000000n, triggerPrice: 1800000000n,
    traits: { flags: ["DCA", "PRICE_GATED"], intervalSeconds: 16777215, totalExecutions: 65535, kindParamPpm: 1000000, slippagePpm: 30000, deadline: 2000000000 },
    referralFeePpm: 1500,
  },
  {
    name: "trailing_designated_keeper", maker: 2, domain: 0, decimalsIn: 18,
    amountIn: 42n, triggerPrice: 0n,
    traits: { flags: ["TRAILING"], allowedSender: keeper, kindParamPpm: 50000, slippagePpm: 20000, nonce: 99 },
    referralFeePpm: 2000,
  },
  {
    name: "all_flags_max_values", maker: 0, domain: 1, decimalsIn: 18,
    amountIn: U256_MAX, triggerPrice: U256_MAX, triggerAmountOut: U256_MAX,
    salt: U256_MAX,
    traits: { word: U256_MAX },
    referralFeePpm: 4294967295,
  },
  {
    name: "zero_trigger_zero_salt", maker: 1, domain: 0, decimalsIn: 0,
    amountIn: 5n, triggerPrice: 0n, salt: 0n,
    traits: {},
    referralFeePpm: 0, referrer: ethers.ZeroAddress,
  },
];

function derive(amountIn, triggerPrice, decimalsIn) {
  return (amountIn * triggerPrice) / 10n ** BigInt(decimalsIn);
}

async function main() {
  const out = {
    generator: "chain/testdata/ethers/gen.js with ethers " + ethers.version,
    types: {
      order: ethers.TypedDataEncoder.from({ Order: ORDER_V71 }).encodeType("Order"),
      orderV70: ethers.TypedDataEncoder.from({ Order: ORDER_V70 }).encodeType("Order"),
      cancel: ethers.TypedDataEncoder.from({ OrderCancel: CANCEL }).encodeType("OrderCancel"),
    },
    domains: domains.map((d) => ({ ...d, separator: ethers.TypedDataEncoder.hashDomain(d) })),
    orders: [],
  };
  for (const [i, c] of cases.entries()) {
    const wallet = makers[c.maker];
    const domain = domains[c.domain];
    const derived = derive(c.amountIn, c.triggerPrice, c.decimalsIn);
    const triggerAmountOut = c.triggerAmountOut !== undefined ? c.triggerAmountOut : derived;
    const value = {
      salt: c.salt !== undefined ? c.salt : BigInt(ethers.id("salt " + c.name)),
      maker: wallet.address,
      receiver: i % 2 === 0 ? wallet.address : addr("receiver " + c.name),
      tokenIn: addr("tokenIn " + c.name),
      tokenOut: addr("tokenOut " + c.name),
      amountIn: c.amountIn,
      triggerPrice: c.triggerPrice,
      triggerAmountOut,
      makerTraits: c.traits.word !== undefined ? c.traits.word : packTraits(c.traits),
      referrer: c.referrer !== undefined ? c.referrer : addr("referrer"),
      referralFeePpm: c.referralFeePpm,
    };
    const v70 = { ...value };
    delete v70.triggerAmountOut;
    const hash = ethers.TypedDataEncoder.hash(domain, { Order: ORDER_V71 }, value);
    const cancel = { orderHash: hash };
    const sig = await wallet.signTypedData(domain, { Order: ORDER_V71 }, value);
    out.orders.push({
      name: c.name,
      domain: c.domain,
      privateKey: wallet.privateKey,
      decimalsIn: c.decimalsIn,
      derivedTriggerAmountOut: derived <= U256_MAX ? derived.toString() : null,
      order: {
        salt: ethers.toBeHex(value.salt, 32),
        maker: value.maker,
        receiver: value.receiver,
        tokenIn: value.tokenIn,
        tokenOut: value.tokenOut,
        amountIn: value.amountIn.toString(),
        triggerPrice: value.triggerPrice.toString(),
        triggerAmountOut: value.triggerAmountOut.toString(),
        makerTraits: value.makerTraits.toString(),
        referrer: value.referrer,
        referralFeePpm: value.referralFeePpm,
      },
      structHash: ethers.TypedDataEncoder.hashStruct("Order", { Order: ORDER_V71 }, value),
      hash,
      hashV70: ethers.TypedDataEncoder.hash(domain, { Order: ORDER_V70 }, v70),
      cancelHash: ethers.TypedDataEncoder.hash(domain, { OrderCancel: CANCEL }, cancel),
      signature: sig,
      signatureCompact: ethers.Signature.from(sig).compactSerialized,
      signatureV70: await wallet.signTypedData(domain, { Order: ORDER_V70 }, v70),
      cancelSignature: await wallet.signTypedData(domain, { OrderCancel: CANCEL }, cancel),
    });
  }
  fs.writeFileSync(path.join(outDir, "eip712_vectors.json"), JSON.stringify(out, null, 2) + "\n");
  fs.writeFileSync(path.join(outDir, "traits_vectors.json"), JSON.stringify(traitsVectors(), null, 2) + "\n");
}

// traitsVectors packs a fixed list plus deterministic pseudo-random traits.
function traitsVectors() {
  const fixed = [
    { name: "zero" },
    { name: "limit_partial", flags: ["ALLOW_PARTIAL_FILL"], nonce: 7, deadline: 1893456000 },
    { name: "max_fields", allowedSender: "0xffffffffffffffffffff", deadline: U40_MAX, nonce: U40_MAX,
      slippagePpm: 16777215, kindParamPpm: 16777215, intervalSeconds: 16777215, totalExecutions: 65535,
      flags: Object.keys(FLAGS) },
    { name: "each_field_one", allowedSender: "0x01", deadline: 1, nonce: 1, slippagePpm: 1, kindParamPpm: 1,
      intervalSeconds: 1, totalExecutions: 1, flags: ["UNWRAP_NATIVE"] },
    { name: "stop_loss_flag_only", flags: ["STOP_LOSS"] },
    { name: "keeper_low80", allowedSender: "0x" + keeper.slice(-20).toLowerCase(), flags: ["TRAILING"], kindParamPpm: 50000 },
  ];
  let seed = 0x2545f4914f6cdd1dn;
  const next = (bits) => {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
    return (seed >> 11n) & ((1n << BigInt(Math.min(bits, 53))) - 1n);
  };
  for (let i = 0; i < 24; i++) {
    const names = Object.keys(FLAGS).filter(() => next(1) === 1n);
    fixed.push({
      name: "random_" + i,
      allowedSender: "0x" + ((next(40) << 40n) | next(40)).toString(16),
      deadline: next(40), nonce: next(40), slippagePpm: next(24), kindParamPpm: next(24),
      intervalSeconds: next(24), totalExecutions: next(16), flags: names,
    });
  }
  return fixed.map((t) => ({
    name: t.name,
    allowedSender: "0x" + BigInt(t.allowedSender || 0).toString(16).padStart(20, "0"),
    deadline: Number(t.deadline || 0),
    nonce: Number(t.nonce || 0),
    slippagePpm: Number(t.slippagePpm || 0),
    kindParamPpm: Number(t.kindParamPpm || 0),
    intervalSeconds: Number(t.intervalSeconds || 0),
    totalExecutions: Number(t.totalExecutions || 0),
    flags: t.flags || [],
    encoded: packTraits(t).toString(),
  }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
