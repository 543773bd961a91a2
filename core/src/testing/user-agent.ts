// A browserless user agent (cookie jar, manual redirects) that walks login forms the way a browser
// does: protocol tests of the identity provider and the authentication proxy need no Chromium, and the
// bench logs in with it to measure calls that carry a session cookie.
/** A user agent with a cookie jar that follows redirects itself, so each hop can be inspected. */
export function createUserAgent() {
  const jar = new Map<string, Map<string, string>>();
  const cookieHeader = (url: URL) => [...(jar.get(url.host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  async function fetchRaw(url: string | URL, init: RequestInit & { form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookies = cookieHeader(target);
    if (cookies) headers.set('cookie', cookies);
    let body = init.body;
    if (init.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(target, { ...init, headers, body: body ?? null, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';', 1) as [string];
      const eq = pair.indexOf('=');
      const store = jar.get(target.host) ?? new Map<string, string>();
      jar.set(target.host, store);
      const expired = /max-age=0|expires=Thu, 01 Jan 1970/i.test(line);
      if (expired) store.delete(pair.slice(0, eq));
      else store.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  }
  /** Follows redirects until a page answers or `stopAt` matches the next location (returned, not fetched). */
  async function follow(url: string | URL, init: RequestInit & { form?: Record<string, string> } = {}, stopAt?: (location: URL) => boolean) {
    let res = await fetchRaw(url, init);
    let current = new URL(url);
    for (let hops = 0; hops < 20 && res.status >= 300 && res.status < 400; hops++) {
      const next = new URL(res.headers.get('location')!, current);
      if (stopAt?.(next)) return { res, url: next, stopped: true };
      current = next;
      res = await fetchRaw(next, init.headers ? { headers: init.headers } : {});
    }
    return { res, url: current, stopped: false };
  }
  return { fetch: fetchRaw, follow, jar };
}
export type UserAgent = ReturnType<typeof createUserAgent>;

/** The hidden CSRF field and the form action of an IdP page. */
export function formOf(html: string): { action: string; csrf: string } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return { action: action.replace(/&amp;/g, '&'), csrf };
}
