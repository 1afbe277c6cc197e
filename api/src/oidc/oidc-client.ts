import * as client from 'openid-client';
import type { OidcConfig } from '../config.js';

/** How long one request to the provider may take before it counts as down. */
const PROVIDER_TIMEOUT_S = 5;

/** The provider could not be reached (network, timeout, or its discovery document did not answer). */
export class ProviderUnavailableError extends Error {
  constructor(cause: unknown) {
    super('identity provider unreachable', { cause });
    this.name = 'ProviderUnavailableError';
  }
}

export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

export interface ProviderClaims {
  subject: string;
  claims: Record<string, unknown>;
}

/** A failure that says the provider is away rather than that its reply was wrong. */
function isUnreachable(err: unknown): boolean {
  if (err instanceof TypeError) return true; // fetch failed: refused, reset, DNS
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return true;
  const code = (err as { code?: unknown } | null)?.code;
  // A 5xx or an HTML error page where JSON was expected: a proxy in front of a stopped provider.
  return code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON';
}

/**
 * The relying party: openid-client's authorization code flow with PKCE, state and nonce.
 * The provider's metadata is discovered on first use and kept; a failed discovery is retried on
 * the next sign-in, so a provider that is down at the api's start does not stop it.
 */
export class OidcClient {
  #configuration: Promise<client.Configuration> | null = null;

  constructor(readonly config: OidcConfig) {}

  async #discover(): Promise<client.Configuration> {
    this.#configuration ??= (async () => {
      const issuer = new URL(this.config.issuer);
      const auth = this.config.clientSecret ? client.ClientSecretBasic(this.config.clientSecret) : client.None();
      const configuration = await client.discovery(issuer, this.config.clientId, undefined, auth, {
        timeout: PROVIDER_TIMEOUT_S,
        // http:// is allowed by config.ts only for a provider on the loopback interface.
        ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
      });
      configuration.timeout = PROVIDER_TIMEOUT_S;
      return configuration;
    })();
    try {
      return await this.#configuration;
    } catch (err) {
      this.#configuration = null;
      throw new ProviderUnavailableError(err);
    }
  }

  /** A new sign-in: where to send the browser, and what to keep until it comes back. */
  async start(redirectUri: string): Promise<{ url: string; pending: PendingSignIn }> {
    const configuration = await this.#discover();
    const pending: PendingSignIn = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
      redirectUri,
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.config.scopes.join(' '),
      response_type: 'code',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, pending };
  }

  /**
   * Exchanges the code (checking state, nonce, PKCE, the ID token's signature, issuer, audience
   * and times) and returns the subject and its claims: the ID token's, completed by userinfo.
   * Throws ProviderUnavailableError when the provider cannot be reached; other errors are
   * openid-client's verdict on the reply.
   */
  async finish(query: URLSearchParams, pending: PendingSignIn): Promise<ProviderClaims> {
    const configuration = await this.#discover();
    const currentUrl = new URL(pending.redirectUri);
    currentUrl.search = query.toString();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw isUnreachable(err) ? new ProviderUnavailableError(err) : err;
    }
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('no ID token');
    let userinfo: Record<string, unknown> = {};
    if (configuration.serverMetadata().userinfo_endpoint) {
      try {
        userinfo = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
      } catch (err) {
        throw isUnreachable(err) ? new ProviderUnavailableError(err) : err;
      }
    }
    // The ID token has the last word on what it states; userinfo adds what it left out.
    return { subject: idClaims.sub, claims: { ...userinfo, ...idClaims } };
  }

  /** The provider's RP-initiated logout URL, or undefined when it offers none (or is down). */
  async endSessionUrl(postLogoutRedirectUri: string): Promise<string | undefined> {
    let configuration: client.Configuration;
    try {
      configuration = await this.#discover();
    } catch {
      return undefined;
    }
    if (!configuration.serverMetadata().end_session_endpoint) return undefined;
    return client
      .buildEndSessionUrl(configuration, { client_id: this.config.clientId, post_logout_redirect_uri: postLogoutRedirectUri })
      .href;
  }
}
