// The hub's only door to the server: every call carries the bearer token.

const TOKEN_KEY = 'charter.token';
const OPEN_KEY = 'charter.open';

// session holds the token and whether `charter serve --open` opened this tab.
export const session = { token: '', opened: false };

// readSession takes the token from the URL fragment (#token=…&open=1) and
// removes it from the address bar at once, so it never lands in history
// or a bookmark. It is kept in sessionStorage: a reload of this tab still
// works, and the tab's storage dies with the tab.
export function readSession() {
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.has('token')) {
    sessionStorage.setItem(TOKEN_KEY, frag.get('token'));
    sessionStorage.setItem(OPEN_KEY, frag.get('open') === '1' ? '1' : '');
    history.replaceState(history.state, '', location.pathname + location.search);
  }
  session.token = sessionStorage.getItem(TOKEN_KEY) || '';
  session.opened = sessionStorage.getItem(OPEN_KEY) === '1';
  return session;
}

// ApiError is any answer that is not 2xx, in the server's one error shape.
export class ApiError extends Error {
  constructor(status, error, etag) {
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || 'unknown';
    this.error = error;
    this.etag = etag;
  }
}

// parseExact parses JSON but keeps every number as the text the server
// wrote (12.5 stays "12.5", 0.1 stays "0.1"): decimals must never pass
// through a float on their way to the form.
export function parseExact(text) {
  return JSON.parse(text, (key, value, ctx) =>
    typeof value === 'number' ? (ctx && ctx.source) || String(value) : value);
}

// request sends one API call. body is a value to encode or, for bodies
// that must keep exact number text, a string that is already JSON.
export async function request(method, path, { body, headers = {}, exact = false } = {}) {
  const init = { method, headers: { Authorization: `Bearer ${session.token}`, ...headers }, cache: 'no-store' };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  let resp;
  try {
    resp = await fetch(`/api/v1/${path}`, init);
  } catch {
    throw new ApiError(0, { code: 'unreachable', message: 'The charter server does not answer. It may have stopped: run charter serve again and open the link it prints.' });
  }
  const text = await resp.text();
  let data = null;
  try {
    data = text ? (exact ? parseExact(text) : JSON.parse(text)) : null;
  } catch {
    data = null;
  }
  const etag = resp.headers.get('ETag');
  if (!resp.ok) {
    throw new ApiError(resp.status, (data && data.error) || { message: `HTTP ${resp.status}` }, etag);
  }
  return { data, etag };
}

// beaconShutdown asks the server to stop as the page goes away. A beacon
// cannot carry headers, so this one endpoint takes the token in the query.
export function beaconShutdown() {
  if (session.token) {
    navigator.sendBeacon(`/api/v1/shutdown?token=${encodeURIComponent(session.token)}`);
  }
}
