// The browser wallet through EIP-1193 (window.ethereum): the selected
// account, the chain id, and personal_sign of EIP-4361 messages. Wallet
// errors become sentences a person can act on.

import { checksumAddress } from '../lib/keccak.js';

/** hasWallet reports whether the browser has an injected wallet. */
export function hasWallet() {
  return typeof window.ethereum === 'object' && window.ethereum !== null && typeof window.ethereum.request === 'function';
}

/** walletError turns a provider error into an Error with a clear message. */
export function walletError(err) {
  const code = err && err.code;
  if (code === 4001) return new Error('You declined the request in your wallet. Nothing was signed.');
  if (code === 4100) return new Error('Your wallet has not authorised this site for that account. Connect it and try again.');
  if (code === -32002) return new Error('Your wallet already has a request open: finish or close it in the wallet, then try again.');
  return new Error(`Your wallet answered: ${err && err.message ? err.message : String(err)}`);
}

async function request(method, params) {
  if (!hasWallet()) throw new Error('No browser wallet was found. Install or enable a wallet extension (EIP-1193, window.ethereum) and reload this page.');
  try {
    return await window.ethereum.request({ method, params });
  } catch (err) {
    throw walletError(err);
  }
}

/** selectedAccount asks the wallet for access and returns the account it
 * offers, EIP-55 checksummed. */
export async function selectedAccount() {
  const accounts = await request('eth_requestAccounts', []);
  if (!Array.isArray(accounts) || !accounts.length) throw new Error('Your wallet offered no account: unlock it and try again.');
  return checksumAddress(accounts[0]);
}

/** walletChainId returns the chain id the wallet is on. */
export async function walletChainId() {
  return parseInt(await request('eth_chainId', []), 16);
}

/** personalSign asks address to sign message (EIP-191 personal_sign). */
export async function personalSign(message, address) {
  const bytes = new TextEncoder().encode(message);
  const hex = '0x' + [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return request('personal_sign', [hex, address]);
}

/** onAccountsChanged calls fn when the person picks another account. */
export function onAccountsChanged(fn) {
  if (hasWallet() && typeof window.ethereum.on === 'function') window.ethereum.on('accountsChanged', fn);
}
