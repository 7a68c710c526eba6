// The test wallet: an EIP-1193 provider injected into the page as
// window.ethereum, whose accounts are dev-chain keys held in Node. The page
// asks it for accounts, the chain id and personal_sign signatures as it
// would ask a browser wallet; ethers signs here, outside the page, so no
// key ever reaches the browser.

import { Wallet, getBytes, isHexString, toUtf8String } from 'ethers';

// provider is the page side: it forwards every request to the Node side
// (the exposed __walletRequest) and emits accountsChanged when a test
// selects another account.
const provider = `
  (() => {
    const listeners = {};
    const ethereum = {
      isOrderEngineTestWallet: true,
      request: ({ method, params }) => window.__walletRequest(method, params || []).then((r) => {
        if (r && r.error) { const e = new Error(r.error.message); e.code = r.error.code; throw e; }
        return r.result;
      }),
      on: (ev, fn) => { (listeners[ev] = listeners[ev] || []).push(fn); },
      removeListener: (ev, fn) => { listeners[ev] = (listeners[ev] || []).filter((f) => f !== fn); },
    };
    window.ethereum = ethereum;
    window.__walletEmit = (ev, arg) => (listeners[ev] || []).forEach((fn) => fn(arg));
  })();
`;

/**
 * TestWallet holds the keys and answers the page's requests. Each request
 * is kept in log (method and, for signatures, the message signed).
 */
export class TestWallet {
  constructor(keys, chainId) {
    this.accounts = keys.map((k) => new Wallet(k));
    this.selected = 0;
    this.chainId = chainId;
    this.log = [];
    this.reject = false;
  }

  get address() { return this.accounts[this.selected].address; }

  /** install injects the provider into every document of page. */
  async install(page) {
    this.page = page;
    await page.exposeFunction('__walletRequest', (method, params) => this.handle(method, params));
    await page.addInitScript(provider);
  }

  /** select makes account i the one the wallet offers, as a person
   * switching accounts in their wallet would, and tells the page. */
  async select(i) {
    this.selected = i;
    await this.page.evaluate((a) => window.__walletEmit && window.__walletEmit('accountsChanged', [a]), this.address);
  }

  /** signTypedData signs EIP-712 typed data with account i, outside the
   * page: what the person's wallet does for an order cancel. */
  signTypedData(i, domain, types, value) {
    return this.accounts[i].signTypedData(domain, types, value);
  }

  async handle(method, params) {
    this.log.push({ method, params: method === 'personal_sign' ? [decode(params[0]), params[1]] : params });
    try {
      return { result: await this.answer(method, params) };
    } catch (e) {
      return { error: { code: e.code || -32603, message: e.message } };
    }
  }

  async answer(method, params) {
    switch (method) {
      case 'eth_requestAccounts':
        if (this.reject) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
        return [this.address];
      case 'eth_accounts':
        return [this.address];
      case 'eth_chainId':
        return '0x' + this.chainId.toString(16);
      case 'personal_sign': {
        if (this.reject) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
        const [data, from] = params;
        const signer = this.accounts.find((w) => w.address.toLowerCase() === String(from).toLowerCase());
        if (!signer) throw Object.assign(new Error(`unknown account ${from}`), { code: 4100 });
        return signer.signMessage(isHexString(data) ? getBytes(data) : data);
      }
      default:
        throw Object.assign(new Error(`method ${method} is not supported by the test wallet`), { code: 4200 });
    }
  }
}

function decode(data) {
  try { return isHexString(data) ? toUtf8String(data) : String(data); } catch { return String(data); }
}
