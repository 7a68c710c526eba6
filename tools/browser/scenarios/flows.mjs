// The dashboard's flows against the real API, as a new integrator goes
// through them: sign in with the wallet, create a key and see it once,
// reissue and disable keys, apply for the builder tier and see it approved
// after the operator's admin call, link a second wallet (and link and
// unlink a third), register a webhook to a local receiver, send a test
// event and see it in the delivery log, resend it, rotate the secret, see
// the referral fee accrual of an order the Go test had filled on the dev
// chain, read why a pending order of the linked wallet waits and follow
// its cancel live, delete the webhook, sign out. Each view is audited at 1280 px
// (light) and 390 px (dark).

import { audit, newContext, openPage, viewportShot } from '../lib/page.mjs';
import { TestWallet } from '../lib/wallet.mjs';

export async function run({ browser, plan, outDir, audits, observations: obs }) {
  const ctx = await newContext(browser, 1280, 'light');
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: plan.baseURL });
  const page = await openPage(ctx);
  const wallet = new TestWallet(plan.walletKeys, plan.chainId);
  await wallet.install(page);
  const both = async (name) => {
    audits.push(await audit(page, outDir, `${name}-light`));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    audits.push(await audit(page, outDir, `${name}-dark`));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  };
  // step runs one part of the flow; when it fails, the page is pictured
  // and its text kept, so the report shows what the person would see.
  const step = async (name, fn) => {
    obs.lastStep = name;
    try {
      await fn();
    } catch (err) {
      await viewportShot(page, outDir, `failed-${name}`).catch(() => {});
      obs.failedView = await page.locator('main').innerText().catch(() => '');
      throw err;
    }
  };

  const flow = { page, wallet, plan, obs, both };
  const steps = { signIn, keys, builder, wallets, webhooks, platform, orders, deleteWebhook, signOut };
  for (const [name, fn] of Object.entries(steps)) await step(name, () => fn(flow));
  obs.apiErrors = page.apiErrors;
  obs.lastStep = 'done';
  await ctx.close();
}

// signIn signs in with the wallet's first account: a new free account.
async function signIn({ page, wallet, plan, obs, both }) {
  await page.goto(plan.baseURL + '/');
  await page.getByRole('button', { name: 'Sign in with your wallet' }).click();
  await page.waitForSelector('body[data-view="app"]');
  await page.waitForSelector('#tier-name');
  obs.signIn = {
    tier: await page.locator('#tier-name').innerText(),
    accountId: await page.locator('#account-summary dd code').first().innerText(),
    message: wallet.log.find((c) => c.method === 'personal_sign').params[0],
    walletCalls: wallet.log.map((c) => c.method),
  };
  await both('account');
}

// keys creates a key and sees it once (copied, gone after a reload),
// reissues it and disables another; Node calls the API with each secret.
async function keys({ page, plan, obs, both }) {
  await nav(page, 'API keys');
  obs.keys = {};
  const secretA = await createKey(page, 'ci');
  obs.keys.secretA = secretA;
  obs.keys.listed = await page.locator('#key-list tbody tr').first().innerText();
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  obs.keys.copied = await page.evaluate(() => navigator.clipboard.readText());
  obs.keys.statusA = await keyStatus(plan.baseURL, secretA);
  await both('keys');
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await page.reload();
  await page.waitForSelector('#key-list tbody tr');
  obs.keys.secretAfterReload = (await page.locator('body').innerText()).includes(secretA) || (await page.locator('input.secret').count()) > 0;
  await page.getByRole('button', { name: 'Reissue key ci' }).click();
  await page.locator('.confirm').getByRole('button', { name: 'Reissue' }).click();
  await page.waitForFunction((old) => { const i = document.querySelector('input.secret'); return i && i.value && i.value !== old; }, secretA);
  obs.keys.secretA2 = await page.locator('input.secret').inputValue();
  obs.keys.statusAAfterReissue = await keyStatus(plan.baseURL, secretA);
  obs.keys.statusA2 = await keyStatus(plan.baseURL, obs.keys.secretA2);
  await page.getByRole('button', { name: 'I have stored it' }).click();
  const secretB = await createKey(page, 'spare');
  await page.getByRole('button', { name: 'I have stored it' }).click();
  obs.keys.statusBBeforeDisable = await keyStatus(plan.baseURL, secretB);
  await page.getByRole('button', { name: 'Disable key spare' }).click();
  await page.locator('.confirm').getByRole('button', { name: 'Disable' }).click();
  await page.locator('#key-list tr', { hasText: 'spare' }).getByText('disabled').waitFor();
  obs.keys.statusB = await keyStatus(plan.baseURL, secretB);
  obs.keys.rows = await page.locator('#key-list tbody tr').allInnerTexts();
}

// builder applies for the builder tier, has the operator approve it through
// the admin API, and sees the new tier after a reload.
async function builder({ page, plan, obs, both }) {
  await nav(page, 'Account');
  await page.getByLabel('What are you building?').fill('A trading bot for the users of a wallet app.');
  await page.getByLabel('Expected volume').fill('2,000 orders a day');
  await page.getByRole('button', { name: 'Apply for the builder tier' }).click();
  await page.locator('#application-status', { hasText: 'pending' }).waitFor();
  await both('account-pending');
  const r = await fetch(`${plan.extra.adminURL}/admin/v1/tier-applications/${obs.signIn.accountId}/approve`, {
    method: 'POST', headers: { Authorization: `Bearer ${plan.extra.adminToken}` },
  });
  obs.approveStatus = r.status;
  await page.reload();
  await page.locator('#application-status', { hasText: 'approved' }).waitFor();
  obs.tierAfterApproval = await page.locator('#tier-name').innerText();
}

// wallets links the wallet's second account, then links and unlinks its
// third.
async function wallets({ page, wallet, obs, both }) {
  await nav(page, 'Wallets');
  const link = async (i) => {
    await wallet.select(i);
    await page.getByRole('button', { name: 'Link the selected wallet' }).click();
    await page.locator('#wallets-list td', { hasText: wallet.address }).waitFor();
  };
  await link(1);
  obs.linkMessage = wallet.log.filter((c) => c.method === 'personal_sign').at(-1).params[0];
  await link(2);
  const third = wallet.address;
  await page.getByRole('button', { name: `Unlink ${third}` }).click();
  await page.locator('.confirm').getByRole('button', { name: 'Unlink' }).click();
  await page.locator('#wallets-list td', { hasText: third }).waitFor({ state: 'detached' });
  obs.linked = await page.locator('#wallets-list tbody tr td:first-child code').allInnerTexts();
  await both('wallets');
}

// webhooks registers an endpoint for two events, sends a test event and
// waits for it in the delivery log, resends it, rotates the secret and
// sends another test event.
async function webhooks({ page, plan, obs, both }) {
  await nav(page, 'Webhooks');
  await page.getByLabel('Endpoint URL').fill(plan.extra.receiverURL);
  await page.getByLabel('Only the events chosen below').check();
  await page.getByLabel('test.ping').check();
  await page.getByLabel('order.filled').check();
  await page.getByRole('button', { name: 'Register endpoint' }).click();
  await page.waitForSelector('input.secret');
  obs.webhook = { secret1: await page.locator('input.secret').inputValue() };
  await page.getByRole('button', { name: 'I have stored it' }).click();
  obs.webhook.card = await page.locator('article.endpoint').first().innerText();
  await page.getByRole('button', { name: /^Send test event/ }).click();
  obs.webhook.deliveries = await waitDelivered(page, 1);
  await both('webhooks');
  const before = obs.webhook.deliveries;
  await page.locator('.delivery-log').getByRole('button', { name: /^Resend/ }).first().click();
  obs.webhook.afterResend = await waitDelivered(page, 1, (rows) => attempts(rows) > attempts(before));
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByLabel('Seconds both secrets sign').fill('3600');
  await page.getByRole('button', { name: 'Rotate', exact: true }).click();
  await page.waitForFunction((old) => { const i = document.querySelector('input.secret'); return i && i.value && i.value !== old; }, obs.webhook.secret1);
  obs.webhook.secret2 = await page.locator('input.secret').inputValue();
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await page.getByRole('button', { name: /^Send test event/ }).click();
  obs.webhook.afterRotate = await waitDelivered(page, 2);
}

// platform reads the fee accruals, their totals and the referees.
async function platform({ page, obs, both }) {
  await nav(page, 'Platform');
  await page.waitForSelector('#accrual-list tbody tr');
  await page.waitForSelector('#referee-list tbody tr');
  obs.platform = {
    totals: await rowsOf(page, '#accrual-totals'),
    accruals: await rowsOf(page, '#accrual-list'),
    referees: await rowsOf(page, '#referee-list'),
  };
  await both('platform');
}

// orders looks up a pending order of the linked wallet and reads why it
// waits, then has its maker cancel it (an OrderCancel the linked wallet
// signs, sent from Node with the account's key): the order.cancelled
// event appears in the live list, and the order shows closed.
async function orders({ page, wallet, plan, obs, both }) {
  await nav(page, 'Orders');
  await page.locator('#order-stream-status', { hasText: 'Following' }).waitFor();
  const hash = plan.extra.waitingOrder;
  await page.getByLabel('Order hash').fill(hash);
  await page.getByRole('button', { name: 'Show order' }).click();
  await page.waitForSelector('#order-waiting li');
  obs.orders = {
    waiting: await page.locator('#order-waiting li').evaluateAll((els) => els.map((e) => e.dataset.reason)),
    diagnostics: await page.locator('#order-diagnostics').innerText(),
  };
  await both('orders');
  const cfg = await (await fetch(plan.baseURL + '/v1/config')).json();
  const signature = await wallet.signTypedData(1, cfg.domain, { OrderCancel: [{ name: 'orderHash', type: 'bytes32' }] }, { orderHash: hash });
  const r = await fetch(`${plan.baseURL}/v1/orders/${hash}`, {
    method: 'DELETE', headers: { 'X-API-Key': obs.keys.secretA2, 'Content-Type': 'application/json' }, body: JSON.stringify({ signature }),
  });
  obs.orders.cancelStatus = r.status;
  await page.locator('#order-event-list tbody tr', { hasText: 'order.cancelled' }).waitFor();
  obs.orders.event = (await rowsOf(page, '#order-event-list'))[0];
  await page.getByRole('button', { name: `Show order ${hash}` }).click();
  await page.locator('#order-summary', { hasText: 'cancelled' }).waitFor();
  obs.orders.afterCancel = await page.locator('#order-diagnostics').innerText();
}

// deleteWebhook deletes the endpoint.
async function deleteWebhook({ page, obs }) {
  await nav(page, 'Webhooks');
  await page.getByRole('button', { name: /^Delete endpoint/ }).click();
  await page.locator('.confirm').getByRole('button', { name: 'Delete' }).click();
  await page.getByText('No endpoints yet.').waitFor();
  obs.webhookDeleted = true;
}

// signOut signs out; the session no longer answers.
async function signOut({ page, obs }) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForSelector('body[data-view="signin"]');
  obs.afterSignOut = await page.evaluate(() => fetch('/v1/account').then((r) => r.status));
}

// attempts adds up the attempts of a delivery log's rows.
function attempts(rows) {
  return rows.reduce((n, r) => n + (parseInt(r.attempts, 10) || 0), 0);
}

// nav follows a link of the dashboard's section navigation.
function nav(page, name) {
  return page.locator('#sections').getByRole('link', { name, exact: true }).click();
}

async function createKey(page, name) {
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.waitForSelector('input.secret');
  return page.locator('input.secret').inputValue();
}

// keyStatus calls GET /v1/stats with key from Node and returns the status.
async function keyStatus(baseURL, key) {
  const r = await fetch(baseURL + '/v1/stats', { headers: { 'X-API-Key': key } });
  return r.status;
}

// rowsOf reads a table's rows as {column label: cell text}.
async function rowsOf(page, selector) {
  return page.evaluate((sel) => [...document.querySelectorAll(`${sel} tbody tr`)].map((tr) =>
    Object.fromEntries([...tr.children].map((td) => [td.dataset.label, td.innerText.trim()]))), selector);
}

// waitDelivered refreshes the delivery log until at least n deliveries
// are delivered (and done(rows) holds), then returns the rows.
async function waitDelivered(page, n, done = () => true) {
  for (let i = 0; i < 60; i++) {
    const refresh = page.getByRole('button', { name: /deliveries$/ }).first();
    await refresh.click();
    await page.waitForFunction(() => !document.querySelector('.endpoint button[disabled]'));
    const rows = (await rowsOf(page, '.delivery-log')).map((r) => ({
      event: (r.Event || '').split('\n')[0], status: r.Status, response: r.Response, latency: r.Latency, attempts: r.Attempts, nextRetry: r['Next retry'],
    }));
    if (rows.filter((r) => r.status === 'delivered').length >= n && done(rows)) return rows;
    await page.waitForTimeout(250);
  }
  throw new Error('the delivery log did not show the delivery');
}
