// Page helpers of the browser tests: a page that records console errors,
// uncaught exceptions and Content-Security-Policy violations, and an audit
// that writes a screenshot, measures horizontal overflow and runs axe-core.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// The accessibility rules checked: WCAG 2.0, 2.1 and 2.2 levels A and AA,
// and axe's best practices (landmarks, one main, headings, regions).
const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

const maxShotHeight = 4000;

// recorder runs in the page before its own scripts: it keeps the CSP
// violations the page reports.
const recorder = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline'));
  });
`;

/** openPage makes a page in ctx that records what a test must not see. */
export async function openPage(ctx) {
  const page = await ctx.newPage();
  // A step that waits longer than this has failed; the report says which.
  page.setDefaultTimeout(15000);
  page.consoleErrors = [];
  page.apiErrors = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // Chromium logs every API answer of status 400 or more as a failed
    // resource; the pages handle those answers themselves (a person sees
    // the API's message), so they are kept apart. A failed page asset is
    // a console error like any other.
    const url = m.location().url || '';
    if (m.text().startsWith('Failed to load resource') && new URL(url, 'http://x').pathname.startsWith('/v1/')) {
      page.apiErrors.push(`${m.text()} (${new URL(url).pathname})`);
      return;
    }
    page.consoleErrors.push(`${m.text()} (${url})`);
  });
  page.on('pageerror', (e) => page.consoleErrors.push('uncaught: ' + e.message));
  await page.addInitScript(recorder);
  return page;
}

/** newContext opens a browser context of width (390 or 1280) in scheme. */
export function newContext(browser, width, scheme) {
  return browser.newContext({
    viewport: { width, height: width < 600 ? 844 : 900 },
    deviceScaleFactor: 1,
    colorScheme: scheme,
    reducedMotion: 'reduce',
  });
}

/**
 * screenshot writes a picture of the page to outDir/<name>-<width>.png:
 * the whole page, cut at maxShotHeight (the reference is tens of thousands
 * of pixels tall; a picture of that helps nobody). Chromium cannot capture
 * a page that tall in one piece, so the viewport is made as tall as the
 * picture for the shot.
 */
export async function screenshot(page, outDir, name) {
  const viewport = page.viewportSize();
  const file = path.join(outDir, `${name}-${viewport.width}.png`);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height <= maxShotHeight) {
    await page.screenshot({ path: file, fullPage: true });
  } else {
    await page.setViewportSize({ width: viewport.width, height: maxShotHeight });
    await page.screenshot({ path: file });
    await page.setViewportSize(viewport);
  }
  return file;
}

/** viewportShot writes a picture of what the viewport shows now. */
export async function viewportShot(page, outDir, name) {
  const file = path.join(outDir, `${name}-${page.viewportSize().width}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * audit records one page state: a screenshot under outDir, the horizontal
 * overflow (document wider than the viewport), axe-core's violations, and
 * the console errors and CSP violations seen so far.
 */
export async function audit(page, outDir, name) {
  const viewport = page.viewportSize();
  const file = await screenshot(page, outDir, name);
  const overflow = await page.evaluate(() => {
    const el = document.scrollingElement || document.documentElement;
    return el.scrollWidth - el.clientWidth;
  });
  // page.evaluate runs through the DevTools protocol, outside the page's
  // CSP, so axe needs no inline script the page would refuse.
  await page.evaluate(axeSource);
  // resultTypes: passes are counted, not detailed (axe then does less).
  const result = await page.evaluate((tags) => window.axe.run(document, {
    runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'],
  }), axeTags);
  const csp = await page.evaluate(() => window.__cspViolations || []);
  return {
    name,
    width: viewport.width,
    screenshot: file,
    overflow,
    axe: result.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    })),
    axePasses: result.passes.length,
    consoleErrors: [...page.consoleErrors],
    cspViolations: csp,
  };
}

/** text returns the trimmed text of the first element matching selector. */
export async function text(page, selector) {
  return (await page.locator(selector).first().innerText()).trim();
}
