// keeper.mjs: a small keeper on the keeper stream.
//
//   BASE_URL=http://127.0.0.1:8080 API_KEY=svc_… KEEPER_KEY=0x… node keeper.mjs
//
// Optional: RPC_URL (default: the rpcUrl that GET /v1/config serves);
// EXIT_AFTER=N exits once N of its fills were recorded (the repository's
// test).
//
// GET /v1/keeper/stream?keeper=<address> sends the executable set
// (snapshot), then at every block the orders that became executable and
// those that stopped (block). The keeper holds the set and, at each event,
// sends each order's streamed transaction (tx) once its own eth_call says
// it executes: the stream's transaction is built once for every keeper and
// not simulated from this one. It does not send an order again while it
// waits for its fill (three blocks). Every step prints one JSON line.
import { ethers } from "ethers";

import { open, print } from "./stream.mjs";

const base = (process.env.BASE_URL || "http://127.0.0.1:8080").replace(/\/+$/, "");
const apiKey = process.env.API_KEY;
const keeperKey = process.env.KEEPER_KEY;
if (!apiKey || !keeperKey) {
  console.error(JSON.stringify({ error: "API_KEY and KEEPER_KEY must be set (see the header of keeper.mjs)" }));
  process.exit(1);
}
const exitAfter = Number(process.env.EXIT_AFTER || 0);

const cfg = await (await fetch(base + "/v1/config")).json();
const provider = new ethers.JsonRpcProvider(process.env.RPC_URL || cfg.rpcUrl, cfg.chainId, { staticNetwork: true });
const wallet = new ethers.Wallet(keeperKey, provider);

const orders = new Map(); // orderHash → the streamed order
const sent = new Map(); // orderHash → the block its transaction was sent at
let block = 0;
let filled = 0;

const es = open(base, `/v1/keeper/stream?keeper=${wallet.address}`, apiKey);
es.onopen = () => print({ step: "connected", keeper: wallet.address });
es.onerror = (e) => print({ step: "reconnecting", status: e.code ?? null, message: e.message ?? null });

function replace(e) {
  const set = JSON.parse(e.data);
  orders.clear();
  for (const o of set.orders) orders.set(o.orderHash, o);
  block = set.block;
  print({ step: e.type, block, orders: orders.size });
  queue();
}
es.addEventListener("snapshot", replace);
es.addEventListener("resync", replace);
es.addEventListener("block", (e) => {
  const b = JSON.parse(e.data);
  block = b.block;
  for (const o of b.executable) orders.set(o.orderHash, o);
  for (const r of b.removed) {
    orders.delete(r.orderHash);
    if (sent.has(r.orderHash)) {
      sent.delete(r.orderHash);
      print({ step: "removed", orderHash: r.orderHash, reason: r.reason, block });
      if (r.reason === "filled" && exitAfter && ++filled >= exitAfter) {
        es.close();
        process.exit(0);
      }
    }
  }
  queue();
});

// One pass at a time: the passes share the keeper's nonce.
let running = Promise.resolve();
function queue() {
  running = running.then(act).catch((err) => print({ step: "error", message: String(err.shortMessage || err.message || err) }));
}

async function act() {
  for (const o of orders.values()) {
    const at = sent.get(o.orderHash);
    if (!o.tx || (at !== undefined && block < at + 3)) continue; // no transaction yet, or waiting for the fill
    const call = { from: wallet.address, to: o.tx.to, data: o.tx.data };
    try {
      await provider.call(call);
    } catch (err) {
      print({ step: "skipped", orderHash: o.orderHash, reason: err.revert?.name || err.shortMessage || "reverts" });
      continue;
    }
    const gas = await provider.estimateGas(call);
    const tx = await wallet.sendTransaction({ to: o.tx.to, data: o.tx.data, gasLimit: (gas * 12n) / 10n });
    sent.set(o.orderHash, block);
    print({ step: "sent", orderHash: o.orderHash, txHash: tx.hash, fillIn: o.fillIn, block });
  }
}
