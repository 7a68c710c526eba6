// The dashboard before sign-in, at 1280 px (light) and 390 px (dark): the
// sign-in view, a browser without a wallet, and a wallet whose owner
// declines. Nothing here needs a session.

import { newContext, openPage, audit } from '../lib/page.mjs';
import { TestWallet } from '../lib/wallet.mjs';

export async function run({ browser, plan, outDir, audits, observations }) {
  for (const [width, scheme] of [[1280, 'light'], [390, 'dark']]) {
    const ctx = await newContext(browser, width, scheme);
    observations[`noWallet${width}`] = await noWallet(ctx, plan, outDir, audits, scheme);
    observations[`declined${width}`] = await declined(ctx, plan, outDir, audits, scheme);
    await ctx.close();
  }
}

// noWallet opens / in a browser without window.ethereum and presses the
// sign-in button.
async function noWallet(ctx, plan, outDir, audits, scheme) {
  const page = await openPage(ctx);
  await page.goto(plan.baseURL + '/');
  await page.waitForSelector('body[data-view="signin"]');
  const out = await page.evaluate(() => ({
    heading: document.querySelector('main h1').textContent,
    noWalletNotice: (document.getElementById('no-wallet') || {}).textContent || '',
    sectionsHidden: document.getElementById('sections').hidden,
    docsLinks: [...document.querySelectorAll('a[href="/docs"]')].length,
  }));
  await page.keyboard.press('Tab');
  out.firstTab = await page.evaluate(() => document.activeElement.textContent.trim());
  audits.push(await audit(page, outDir, `signin-${scheme}`));
  await page.getByRole('button', { name: 'Sign in with your wallet' }).click();
  out.alert = await page.getByRole('alert').innerText();
  out.apiErrors = page.apiErrors;
  await page.close();
  return out;
}

// declined injects the test wallet with its owner declining every
// request: the page says so and asks for no signature.
async function declined(ctx, plan, outDir, audits, scheme) {
  const page = await openPage(ctx);
  const wallet = new TestWallet(plan.walletKeys, plan.chainId);
  wallet.reject = true;
  await wallet.install(page);
  await page.goto(plan.baseURL + '/');
  await page.waitForSelector('body[data-view="signin"]');
  const out = { noWalletNotice: await page.locator('#no-wallet').count() };
  await page.getByRole('button', { name: 'Sign in with your wallet' }).click();
  out.alert = await page.getByRole('alert').innerText();
  out.buttonEnabled = await page.getByRole('button', { name: 'Sign in with your wallet' }).isEnabled();
  out.walletCalls = wallet.log.map((c) => c.method);
  audits.push(await audit(page, outDir, `signin-declined-${scheme}`));
  await page.close();
  return out;
}
