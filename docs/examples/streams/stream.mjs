// stream.mjs: an EventSource on the engine's streams, as both examples open
// it. In a browser page served with a dashboard session the built-in
// EventSource needs nothing more (new EventSource("/v1/orders/stream"): the
// session cookie authenticates); in Node, the eventsource package
// implements the same API, and its fetch option adds the API key, which
// must never reach a browser.
import { EventSource } from "eventsource";

// open returns an EventSource on baseUrl + path authenticated with apiKey.
// It reconnects by itself and sends the last event's id as Last-Event-ID,
// so the stream resumes where it stopped.
export function open(baseUrl, path, apiKey) {
  return new EventSource(baseUrl.replace(/\/+$/, "") + path, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, "X-API-Key": apiKey } }),
  });
}

// print writes one JSON line; BigInts as decimal strings.
export function print(fields) {
  console.log(JSON.stringify(fields, (_, v) => (typeof v === "bigint" ? v.toString() : v)));
}
