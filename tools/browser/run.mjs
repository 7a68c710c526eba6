// The browser-test driver, started by the Go browser tests (http/web):
//
//   node run.mjs plan.json
//
// plan.json names the engine's base URL, the chromium binary, the output
// folder and the scenarios to run, with what they need (wallet keys,
// chain id, admin API). Each scenario drives headless chromium through
// Playwright and returns what it saw; the driver writes one JSON report
// (plan.report) with, per scenario, its observations, the audit of each
// page state (screenshot, overflow, axe-core violations, console errors,
// CSP violations) and the error that stopped it, if any. The Go test
// asserts on the report; this script only fails when it cannot run at all.

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const scenarios = {
  docs: () => import('./scenarios/docs.mjs'),
  signedOut: () => import('./scenarios/signed-out.mjs'),
  flows: () => import('./scenarios/flows.mjs'),
};

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const browser = await chromium.launch({
  executablePath: plan.chromium,
  headless: true,
  // Root (CI) cannot use chromium's sandbox; the pages are the engine's own.
  chromiumSandbox: false,
  args: ['--disable-gpu', '--no-first-run', '--no-default-browser-check'],
});
const report = { scenarios: {} };
try {
  for (const name of plan.scenarios) {
    const load = scenarios[name];
    const entry = { audits: [], observations: {}, error: '' };
    report.scenarios[name] = entry;
    if (!load) { entry.error = `unknown scenario ${name}`; continue; }
    const outDir = path.join(plan.outDir, name);
    mkdirSync(outDir, { recursive: true });
    const started = Date.now();
    try {
      const mod = await load();
      await mod.run({ browser, plan, outDir, audits: entry.audits, observations: entry.observations });
    } catch (e) {
      entry.error = String(e && e.stack || e);
    }
    entry.seconds = (Date.now() - started) / 1000;
  }
} finally {
  await browser.close();
  writeFileSync(plan.report, JSON.stringify(report, null, 2));
}
