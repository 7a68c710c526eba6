// Calls to the engine's API with the session cookie. A state-changing call
// carries the session's CSRF token (X-CSRF-Token), which arrives in the
// sign-in answer and in GET /v1/account; an error answer becomes an
// ApiError holding the API's own message, code and request id.

let csrfToken = '';
let onSessionEnded = () => {};

/** setCsrfToken keeps the session's CSRF token for the calls that follow. */
export function setCsrfToken(token) { csrfToken = token || ''; }

/** onUnauthorized sets what happens when a session call answers 401. */
export function onUnauthorized(fn) { onSessionEnded = fn; }

/** ApiError is an error answer of the API (or a failed request). */
export class ApiError extends Error {
  constructor(status, code, message, requestId) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

/**
 * api sends method path with an optional JSON body and returns the
 * decoded answer. options.headers adds headers; options.quiet401 keeps a
 * 401 from ending the session view (the first GET /v1/account).
 */
export async function api(method, path, body, options = {}) {
  const headers = { Accept: 'application/json', ...(options.headers || {}) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let resp;
  try {
    resp = await fetch(path, {
      method, headers, credentials: 'same-origin', cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, 'NETWORK', `The service could not be reached (${err.message}). Check your connection and try again.`, '');
  }
  const text = await resp.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!resp.ok) {
    const e = data && typeof data.error === 'string'
      ? new ApiError(resp.status, data.code || '', data.error, data.requestId || resp.headers.get('X-Request-ID') || '')
      : new ApiError(resp.status, '', `The service answered ${resp.status} ${resp.statusText}.`, resp.headers.get('X-Request-ID') || '');
    if (resp.status === 401 && !options.quiet401) onSessionEnded(e);
    throw e;
  }
  return data;
}

/** errorText is what a person reads about err: the API's message, its code
 * and the request id to quote to support. */
export function errorText(err) {
  if (err instanceof ApiError) {
    const ref = [err.code, err.requestId && `request ${err.requestId}`].filter(Boolean).join(', ');
    return ref ? `${err.message} (${ref})` : err.message;
  }
  return err && err.message ? err.message : String(err);
}

/** idempotencyKey returns a fresh random Idempotency-Key value. */
export function idempotencyKey() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return 'dash-' + [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}
