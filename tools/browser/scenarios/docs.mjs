// The API reference (/docs) as a person uses it: at 1280 px in the light
// scheme and at 390 px in the dark one, it loads and renders the live
// document; the skip link, the contents and the filter work from the
// keyboard; a schema link opens the schema. What it rendered is returned
// for the Go test to compare with the document the engine serves.

import { audit, newContext, openPage, viewportShot } from '../lib/page.mjs';

export async function run({ browser, plan, outDir, audits, observations }) {
  for (const [width, scheme] of [[1280, 'light'], [390, 'dark']]) {
    const ctx = await newContext(browser, width, scheme);
    const page = await openPage(ctx);
    await page.goto(plan.baseURL + '/docs');
    await page.waitForSelector('body[data-ready="true"]');
    if (width === 1280) Object.assign(observations, await skipLink(page));
    audits.push(await audit(page, outDir, `docs-${scheme}`));
    if (width === 1280) {
      Object.assign(observations, await rendered(page));
      Object.assign(observations, await keyboard(page));
      Object.assign(observations, await schemaLink(page));
      observations.hashLoad = await hashLoad(ctx, plan.baseURL);
    } else {
      observations.narrowTocOpen = await page.evaluate(() => document.getElementById('toc').open);
      // The error catalogue as a card list: a picture only (the audit
      // above checked this document already).
      await page.goto(plan.baseURL + '/docs#errors');
      await page.waitForSelector('body[data-ready="true"]');
      observations.errorsShot = await viewportShot(page, outDir, 'docs-errors-dark');
      observations.errorsConsole = page.consoleErrors;
    }
    await ctx.close();
  }
}

// rendered reads what the page shows: title, operations, webhooks, error
// codes, schemas, and the first request example of submitOrder.
async function rendered(page) {
  return page.evaluate(() => {
    const ops = (sel) => [...document.querySelectorAll(sel)].map((a) => ({
      anchor: a.id,
      method: a.querySelector('h3 .method').textContent,
      path: a.querySelector('h3 .path').textContent,
      summary: (a.querySelector('.summary') || {}).textContent || '',
      bucket: [...a.querySelectorAll('.facts dt')].filter((dt) => dt.textContent === 'Rate-limit bucket').map((dt) => dt.nextElementSibling.textContent)[0] || '',
      auth: [...a.querySelectorAll('.facts dt')].filter((dt) => dt.textContent === 'Authentication').map((dt) => dt.nextElementSibling.textContent)[0] || '',
      params: [...a.querySelectorAll(':scope > .props .prop-name')].map((n) => n.textContent),
    }));
    const submit = document.getElementById('op-submitOrder');
    const example = submit && submit.querySelector('figure.example pre code');
    return {
      title: document.querySelector('h1').textContent,
      tags: [...document.querySelectorAll('#content section.tag > h2')].map((h) => h.textContent),
      operations: ops('#content section.tag:not(#webhooks) article.op'),
      webhooks: ops('#webhooks article.op'),
      errorCodes: [...document.querySelectorAll('#errors tbody tr')].map((tr) => ({
        code: tr.querySelector('td code').textContent, status: tr.children[1].textContent,
      })),
      schemas: [...document.querySelectorAll('#schemas section.schema-entry h3')].map((h) => h.textContent),
      submitExample: example ? example.textContent : '',
      loadStatus: document.getElementById('load-status').textContent,
    };
  });
}

// skipLink presses Tab on the fresh page: the skip link comes first, and
// Enter on it moves focus into the reference.
async function skipLink(page) {
  await page.keyboard.press('Tab');
  const firstTab = await page.evaluate(() => document.activeElement.textContent.trim());
  await page.keyboard.press('Enter');
  return { firstTab, afterSkip: await page.evaluate(() => document.activeElement.id) };
}

// keyboard uses the filter, which narrows the operations, and Enter on a
// contents link, which moves focus to that operation.
async function keyboard(page) {
  const out = {};
  await page.locator('#filter').focus();
  await page.keyboard.type('webhooks');
  out.filterStatus = await page.locator('#filter-status').innerText();
  out.filtered = await page.evaluate(() => [...document.querySelectorAll('#content section.tag:not(#webhooks) article.op')]
    .filter((a) => !a.hidden && a.offsetParent !== null).map((a) => a.id));
  await page.locator('#filter').fill('');

  const link = page.locator('#toc a[href="#op-getOrder"]');
  await link.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'op-getOrder');
  out.tocTarget = await page.evaluate(() => {
    const r = document.activeElement.getBoundingClientRect();
    return { hash: location.hash, focused: document.activeElement.id, inView: r.top >= -1 && r.top < window.innerHeight };
  });
  return out;
}

// schemaLink follows the Route type link of getRoute's answer: the
// schema's definition opens with its properties.
async function schemaLink(page) {
  await page.locator('#op-getRoute .resp.success a.type[href="#schema-Route"]').first().click();
  await page.waitForSelector('#schema-Route details[open] .props');
  return {
    routeSchemaProps: await page.evaluate(() =>
      [...document.querySelectorAll('#schema-Route details[open] > .schema > .props > li > .prop-head > .prop-name')].map((n) => n.textContent)),
  };
}

// hashLoad opens /docs#op-cancelOrder directly: once rendered, the page
// scrolls to the operation and focuses it.
async function hashLoad(ctx, baseURL) {
  const page = await openPage(ctx);
  await page.goto(baseURL + '/docs#op-cancelOrder');
  await page.waitForSelector('body[data-ready="true"]');
  const got = await page.evaluate(() => {
    const r = document.getElementById('op-cancelOrder').getBoundingClientRect();
    return { focused: document.activeElement.id, inView: r.top >= -1 && r.top < window.innerHeight };
  });
  got.consoleErrors = page.consoleErrors;
  await page.close();
  return got;
}
