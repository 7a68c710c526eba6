// Reads JSON lines {body, header, secret} on stdin and prints one line per
// case: "ok" when stripe's verifyHeader accepts it, else "fail <message>".
'use strict';
const Stripe = require('stripe');
const readline = require('readline');
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (!line.trim()) return;
  const c = JSON.parse(line);
  try {
    Stripe.webhooks.signature.verifyHeader(c.body, c.header, c.secret, 300);
    console.log('ok');
  } catch (e) {
    console.log('fail ' + String(e.message).split('\n')[0]);
  }
});
