// api.mjs: the plain-HTTP side of the integrator examples (ethers-order,
// viem-order), which differ only in the library that signs. Nothing here
// needs a package: fetch and BigInt are Node's own.

// env returns the environment variable name, or exits naming the script
// whose header documents it.
export function env(name, script) {
  const v = process.env[name];
  if (!v) fail(`${name} is not set (see the header of ${script})`);
  return v;
}

// fail prints {"error": message} on stderr and exits 1.
export function fail(message) {
  console.error(JSON.stringify({ error: message }));
  process.exit(1);
}

export function check(ok, message) {
  if (!ok) fail(message);
}

// step prints one line of progress; BigInts are printed as decimal strings.
export function step(name, fields = {}) {
  console.log(JSON.stringify({ step: name, ...fields }, (_, v) => (typeof v === "bigint" ? v.toString() : v)));
}

// packTraits encodes makerTraits with the bit positions and widths that
// /v1/config serves (makerTraits.fields), rejecting values that do not fit.
export function packTraits(layout, values) {
  let word = 0n;
  for (const [name, value] of Object.entries(values)) {
    const field = layout.fields.find((f) => f.name === name);
    check(field, `makerTraits layout has no field ${name}`);
    const v = BigInt(value);
    check(v >= 0n && v < 1n << BigInt(field.width), `makerTraits.${name} = ${v} does not fit ${field.width} bits`);
    word |= v << BigInt(field.bit);
  }
  return word;
}

// wireOrder is the order as POST /v1/orders takes it: numbers as decimal
// strings, the salt as 32-byte hex.
export function wireOrder(order) {
  return {
    ...Object.fromEntries(Object.entries(order).map(([k, v]) => [k, typeof v === "bigint" ? v.toString() : v])),
    salt: "0x" + order.salt.toString(16).padStart(64, "0"),
  };
}

// connect returns the API calls of the examples, made with apiKey against
// baseUrl.
export function connect(baseUrl, apiKey) {
  const base = baseUrl.replace(/\/+$/, "");

  // api calls the HTTP API with the key and returns the decoded body; any
  // status other than `expect` is a failure that shows the whole answer.
  async function api(method, path, { body, expect = 200 } = {}) {
    const res = await fetch(base + path, {
      method,
      headers: { "X-API-Key": apiKey, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    check(res.status === expect, `${method} ${path}: status ${res.status}, want ${expect}: ${text}`);
    return JSON.parse(text);
  }

  // eventually retries an API read until `found` holds: the orderbook is
  // updated by the order's actor right after the durable write, not inside it.
  async function eventually(what, read, found, timeoutMs = 10_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (found(value)) return value;
      check(Date.now() < until, `${what}: not seen within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  // inOrderbook pages through GET /v1/orderbook/{pair} and returns the entry
  // of orderHash, or undefined.
  async function inOrderbook(pair, orderHash) {
    let cursor = null;
    do {
      const page = await api("GET", `/v1/orderbook/${pair}?limit=500` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""));
      const entry = page.orders.find((o) => o.orderHash === orderHash);
      if (entry) return entry;
      cursor = page.nextCursor;
    } while (cursor);
    return undefined;
  }

  // token resolves a symbol with GET /v1/tokens.
  async function token(symbol) {
    const { tokens } = await api("GET", `/v1/tokens?search=${symbol}`);
    const t = tokens.find((x) => x.symbol === symbol);
    check(t, `/v1/tokens?search=${symbol}: no ${symbol} in ${JSON.stringify(tokens)}`);
    return t;
  }

  // config reads GET /v1/config (keyless).
  async function config() {
    const res = await fetch(base + "/v1/config", { signal: AbortSignal.timeout(15_000) });
    check(res.status === 200, `GET /v1/config: status ${res.status}`);
    return res.json();
  }

  return { api, eventually, inOrderbook, token, config };
}
