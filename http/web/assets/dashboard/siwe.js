// EIP-4361 (Sign-In with Ethereum) messages for this site: sign-in, and
// the link message a wallet signs to join an account. The server checks
// the domain, the URI's origin, the version, the chain id, the single-use
// nonce and the times.

import { api } from './api.js';

/** linkStatement is the statement of a link message for account id (the
 * server requires exactly this text). */
export function linkStatement(accountId) {
  return `Link this wallet to account ${accountId}.`;
}

/**
 * siweMessage renders the message text: host, address (EIP-55), statement,
 * then the fields in EIP-4361's order, lines separated by LF.
 */
export function siweMessage({ domain, address, statement, uri, chainId, nonce, issuedAt, expirationTime }) {
  const lines = [`${domain} wants you to sign in with your Ethereum account:`, address, ''];
  if (statement) lines.push(statement, '');
  lines.push(`URI: ${uri}`, 'Version: 1', `Chain ID: ${chainId}`, `Nonce: ${nonce}`, `Issued At: ${issuedAt}`);
  if (expirationTime) lines.push(`Expiration Time: ${expirationTime}`);
  return lines.join('\n');
}

/** freshMessage fetches a nonce and builds a message for this page's
 * site, valid for ten minutes. */
export async function freshMessage(address, chainId, statement) {
  const { nonce } = await api('GET', '/v1/auth/nonce');
  const now = new Date();
  const iso = (d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return siweMessage({
    domain: location.host,
    address,
    statement,
    uri: location.origin + '/',
    chainId,
    nonce,
    issuedAt: iso(now),
    expirationTime: iso(new Date(now.getTime() + 10 * 60 * 1000)),
  });
}
