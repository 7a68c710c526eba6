// A webhook receiver built on node:http with every default (keepAliveTimeout
// 5 s, as Express and most Node frameworks): it answers 204 to every
// request and prints one JSON line per request on stdout. The first line is
// {"port", "keepAliveTimeout"} once it listens on 127.0.0.1.
'use strict';
const http = require('node:http');

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    console.log(JSON.stringify({
      delivery: req.headers['x-service-delivery'] || '',
      event: req.headers['x-service-event'] || '',
      signature: req.headers['x-service-signature'] || '',
      body: Buffer.concat(chunks).toString('utf8'),
    }));
    res.writeHead(204);
    res.end();
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: server.address().port, keepAliveTimeout: server.keepAliveTimeout }));
});
