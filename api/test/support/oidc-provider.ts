/// <reference path="./oidc-provider-module.d.ts" />
// (the reference: e2e's global setup imports this file too)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider (oidc-provider, the certified Node implementation) on 127.0.0.1, with
 * its development login and consent pages: any login name signs in as that subject, whose
 * claims come from `accounts` (missing ones get a name and an email from the login).
 */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Claims by subject (= the login name typed on the provider's page); change them between sign-ins. */
  accounts: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

export interface TestProviderOptions {
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  /** 0 (any free port) unless given. */
  port?: number;
  /** Claims a subject has before `accounts` adds its own (the e2e stack gives admins by login name). */
  claimsFor?: (sub: string) => Record<string, unknown>;
}

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'tessera';
  const clientSecret = 'tessera-test-client-secret';
  const accounts = new Map<string, Record<string, unknown>>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username', 'groups'],
      email: ['email', 'email_verified'],
    },
    cookies: { keys: ['tessera-oidc-test-cookie-key'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
    async findAccount(_ctx: unknown, sub: string) {
      return {
        accountId: sub,
        async claims() {
          return { sub, name: `${sub} Example`, email: `${sub}@example.com`, email_verified: true, ...options.claimsFor?.(sub), ...accounts.get(sub) };
        },
      };
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's cookies for one origin, enough for the provider's pages. */
class CookieJar {
  readonly #cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** The hidden inputs and action of the first form on a provider page. */
function formOf(html: string, base: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form on the provider's page:\n${html.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields[m[1]] = m[2];
  return { action: new URL(action.replace(/&amp;/g, '&'), base).href, fields };
}

/**
 * Drives the provider like a browser: from the authorization URL through its login page (as
 * `login`) and consent page, following redirects, until it sends the browser back to
 * `redirectUri`; returns that URL's query. A fresh jar each time: no provider session is reused.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, redirectUri: string): Promise<string> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let method = 'GET';
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const res = await fetch(url, { method, body, redirect: 'manual', headers: { cookie: jar.header(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) } });
    jar.take(res);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.arrayBuffer();
      const next = new URL(location, url);
      if (next.href.startsWith(`${redirectUri}?`)) return next.search;
      url = next.href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`provider answered ${res.status}: ${html.slice(0, 500)}`);
    const form = formOf(html, url);
    body = new URLSearchParams(form.fields);
    if (/name="login"/.test(html)) {
      body.set('login', login);
      body.set('password', 'any');
    }
    url = form.action;
    method = 'POST';
  }
  throw new Error('the provider never sent the browser back');
}
