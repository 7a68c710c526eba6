#!/usr/bin/env node
// compile.js compiles every contracts/src/*.sol file with the pinned solc-js
// (package.json) through the standard-JSON API and writes, into the output
// directory given as the only argument:
//
//   <Name>.abi       the contract's ABI, pretty-printed JSON
//   <Name>.bin       the creation bytecode, hex without 0x
//
// Only deployable contracts are written; interfaces, abstract bases and
// internal libraries are not. The output is deterministic: the stale test in
// contracts/stale_test.go recompiles into a temporary directory and compares.
'use strict';

const fs = require('fs');
const path = require('path');
const solc = require('solc');

const outDir = process.argv[2];
if (!outDir) {
  console.error('usage: node scripts/compile.js <outdir>');
  process.exit(2);
}

const srcDir = path.join(__dirname, '..', 'src');
const sources = {};
for (const f of fs.readdirSync(srcDir).sort()) {
  if (f.endsWith('.sol')) {
    sources[f] = { content: fs.readFileSync(path.join(srcDir, f), 'utf8') };
  }
}

const input = {
  language: 'Solidity',
  sources,
  settings: {
    // cancun: supported by the simulated backend and by geth --dev v1.16.
    evmVersion: 'cancun',
    optimizer: { enabled: true, runs: 200 },
    metadata: { bytecodeHash: 'none', appendCBOR: false },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};

const output = JSON.parse(solc.compile(JSON.stringify(input)));
let failed = false;
for (const e of output.errors || []) {
  if (e.severity === 'error') failed = true;
  console.error(e.formattedMessage);
}
if (failed) process.exit(1);

fs.mkdirSync(outDir, { recursive: true });
const names = new Set();
for (const file of Object.keys(output.contracts).sort()) {
  for (const name of Object.keys(output.contracts[file]).sort()) {
    const c = output.contracts[file][name];
    const bin = c.evm.bytecode.object;
    // Skip interfaces and abstract bases (no bytecode) and internal-only
    // libraries (no external function or constructor in the ABI).
    if (!bin || !c.abi.some((e) => e.type === 'function' || e.type === 'constructor')) continue;
    if (names.has(name)) {
      console.error(`duplicate contract name ${name}`);
      process.exit(1);
    }
    names.add(name);
    fs.writeFileSync(path.join(outDir, `${name}.abi`), JSON.stringify(c.abi, null, 2) + '\n');
    fs.writeFileSync(path.join(outDir, `${name}.bin`), bin + '\n');
  }
}
console.log(`compiled ${names.size} contracts with solc ${solc.version()} into ${outDir}`);
