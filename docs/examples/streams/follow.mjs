// follow.mjs: follow an account's orders live without a public webhook URL.
//
//   BASE_URL=http://127.0.0.1:8080 API_KEY=svc_… node follow.mjs
//
// Optional: EXIT_AFTER=N exits after N events (the repository's test).
//
// GET /v1/orders/stream sends the events of the account's orders (those
// submitted with its keys, and those of its linked wallets) with the names,
// bodies and ids of its webhook deliveries: the event's name is the trigger,
// its data the delivery body, its id the X-Service-Delivery id. Every event
// prints one JSON line. When the connection drops, EventSource reconnects
// with Last-Event-ID and the stream resumes after the last event; an event
// may then come twice (as webhooks may), so it is deduped on its id.
import { open, print } from "./stream.mjs";

const base = process.env.BASE_URL || "http://127.0.0.1:8080";
const apiKey = process.env.API_KEY;
if (!apiKey) {
  console.error(JSON.stringify({ error: "API_KEY is not set (see the header of follow.mjs)" }));
  process.exit(1);
}
const exitAfter = Number(process.env.EXIT_AFTER || 0);

const triggers = ["order.filled", "order.cancelled", "order.expired", "order.failed", "stop.triggered", "dca.completed", "dca.stalled"];
const seen = new Set();
let count = 0;
const es = open(base, "/v1/orders/stream", apiKey);
es.onopen = () => print({ step: "connected" });
es.onerror = (e) => print({ step: "reconnecting", status: e.code ?? null, message: e.message ?? null });
for (const trigger of triggers) {
  es.addEventListener(trigger, (e) => {
    if (seen.has(e.lastEventId)) return;
    seen.add(e.lastEventId);
    const body = JSON.parse(e.data);
    print({ step: "event", event: e.type, id: e.lastEventId, createdAt: body.createdAt, ...body.data });
    if (exitAfter && ++count >= exitAfter) {
      es.close();
      process.exit(0);
    }
  });
}
