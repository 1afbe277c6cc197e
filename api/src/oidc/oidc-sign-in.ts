import { ERROR_CODES, SSO_REDIRECT_PATH, SSO_TEXTS } from '@tessera/contracts';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { OidcConfig } from '../config.js';
import type { UserRow } from '../db/schema.js';
import { HttpError } from '../http/http-error.js';
import type { TokenEpochs } from '../auth/token-epochs.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { OidcAccounts } from './oidc-accounts.js';
import { OidcClient, type PendingSignIn, ProviderUnavailableError } from './oidc-client.js';
import { profileFromClaims, roleFromClaims } from './oidc-profile.js';

/** Longest provider error text repeated to the user. */
const PROVIDER_REASON_MAX = 200;

/**
 * The browser's address of Tessera: the shell server forwards the browser's scheme and host
 * (X-Forwarded-Proto/-Host, believed from TRUST_PROXY only), so this is the origin the user sees.
 */
export function publicOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The ID token claim a verification failed on: openid-client nests it in the error's causes ({ claim }). */
function failedClaim(err: unknown): string | undefined {
  for (let at = err, depth = 0; at && typeof at === 'object' && depth < 5; at = (at as { cause?: unknown }).cause, depth++) {
    const claim = (at as { claim?: unknown }).claim;
    if (typeof claim === 'string') return claim;
  }
  return undefined;
}

/** Single sign-on's steps, turned into the api's answers (HttpError with the texts of SSO_TEXTS). */
export class OidcSignIn {
  readonly client: OidcClient;

  constructor(
    readonly config: OidcConfig,
    private readonly accounts: OidcAccounts,
    private readonly users: UsersRepository,
    private readonly tokenEpochs: TokenEpochs,
    private readonly passwordLogin: boolean,
  ) {
    this.client = new OidcClient(config);
  }

  #unavailable(): HttpError {
    const hint = this.passwordLogin ? ` ${SSO_TEXTS.providerDownPasswordHint}` : '';
    return new HttpError(503, ERROR_CODES.unavailable, `${SSO_TEXTS.providerDown(this.config.name)}${hint}`);
  }

  async start(request: FastifyRequest): Promise<{ url: string; pending: PendingSignIn }> {
    try {
      return await this.client.start(`${publicOrigin(request)}${SSO_REDIRECT_PATH}`);
    } catch (err) {
      if (err instanceof ProviderUnavailableError) {
        request.log.warn({ err: err.cause }, 'identity provider unreachable: single sign-on unavailable');
        throw this.#unavailable();
      }
      throw err;
    }
  }

  /** Checks the provider's reply against the pending sign-in, then finds or makes the member. */
  async finish(rawQuery: string, pending: PendingSignIn, log: FastifyBaseLogger): Promise<UserRow> {
    const query = new URLSearchParams(rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery);
    // Checked here too (openid-client checks it again) so that a foreign reply gets its own text.
    if (query.get('state') !== pending.state) throw HttpError.badRequest(SSO_TEXTS.stateMismatch);
    const providerError = query.get('error');
    if (providerError) {
      const reason = (query.get('error_description') || providerError).slice(0, PROVIDER_REASON_MAX);
      throw HttpError.badRequest(SSO_TEXTS.providerRefused(reason));
    }
    let subject: string;
    let claims: Record<string, unknown>;
    try {
      ({ subject, claims } = await this.client.finish(query, pending));
    } catch (err) {
      if (err instanceof ProviderUnavailableError) {
        log.warn({ err: err.cause }, 'identity provider unreachable during sign-in');
        throw this.#unavailable();
      }
      log.warn({ err }, 'single sign-on reply refused');
      throw HttpError.badRequest(failedClaim(err) === 'nonce' ? SSO_TEXTS.nonceMismatch : SSO_TEXTS.verificationFailed);
    }
    const mapped = roleFromClaims(this.config, claims);
    // A provider's first member would close signup and leave Tessera without an admin, unless it is one.
    if (mapped !== 'admin' && !(await this.users.anyExists())) throw HttpError.forbidden(SSO_TEXTS.firstAccountFirst);
    const { user, created } = await this.accounts.findOrCreate(this.config.issuer, subject, profileFromClaims(subject, claims), mapped ?? 'user');
    if (created) {
      log.info({ userId: user.id, role: user.role }, 'member created by single sign-on');
      return user;
    }
    // With a role claim the provider decides the role at every sign-in (a change ends older tokens).
    if (mapped && mapped !== user.role) {
      const updated = await this.users.update(user.id, { role: mapped });
      if (updated) {
        this.tokenEpochs.changed(user.id);
        log.info({ userId: user.id, from: user.role, to: mapped }, 'role changed by the identity provider');
        return updated;
      }
    }
    return user;
  }

  /** Where to send a signing-out member of this provider, or undefined (not theirs, no endpoint, down). */
  async endSessionUrl(userId: string, request: FastifyRequest): Promise<string | undefined> {
    if (!(await this.accounts.isLinked(userId))) return undefined;
    return this.client.endSessionUrl(`${publicOrigin(request)}${SSO_REDIRECT_PATH}`);
  }
}
