import { EmailSchema, NicknameSchema, type Role, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '@tessera/contracts';
import type { OidcConfig } from '../config.js';

/** What a provider's claims give a new member. */
export interface OidcProfile {
  /** The wanted username; made unique when the member is created. */
  username: string;
  email: string | null;
  nickname: string | null;
}

/** Room left after the base for a '-<n>' that makes it unique. */
const SUFFIX_ROOM = 7;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** The characters UsernameSchema allows; anything else becomes '-'. */
function usernameFrom(raw: string): string | undefined {
  const cleaned = raw
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._@-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, USERNAME_MAX_LENGTH - SUFFIX_ROOM);
  return cleaned.length >= USERNAME_MIN_LENGTH ? cleaned : undefined;
}

/** preferred_username, else email, else the subject; nickname from name (or given + family), email when valid. */
export function profileFromClaims(subject: string, claims: Record<string, unknown>): OidcProfile {
  const email = str(claims.email);
  const validEmail = email && EmailSchema.safeParse(email).success ? email : null;
  const fullName = str(claims.name) ?? ([str(claims.given_name), str(claims.family_name)].filter(Boolean).join(' ') || undefined) ?? str(claims.nickname);
  const nickname = fullName ? NicknameSchema.parse(fullName.slice(0, 100)) : null;
  const preferred = str(claims.preferred_username);
  const username =
    (preferred && usernameFrom(preferred)) ?? (validEmail && usernameFrom(validEmail)) ?? usernameFrom(`sso-${subject}`) ?? 'sso-member';
  return { username, email: validEmail, nickname: nickname || null };
}

/** `base`, then base-2, base-3, …: the names tried in turn until one is free. */
export function usernameCandidates(base: string, count: number): string[] {
  return [base, ...Array.from({ length: count - 1 }, (_, i) => `${base}-${i + 2}`)];
}

/** Reads a claim by name or dotted path (realm_access.roles). */
function claimAt(claims: Record<string, unknown>, path: string): unknown {
  if (path in claims) return claims[path];
  let at: unknown = claims;
  for (const part of path.split('.')) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/**
 * The role OIDC_ROLE_MAP gives these claims: the claim may hold one string or a list; when
 * several values match, admin wins; none → 'user'. Undefined when no role claim is configured.
 */
export function roleFromClaims(config: OidcConfig, claims: Record<string, unknown>): Role | undefined {
  if (!config.roleClaim || !config.roleMap) return undefined;
  const raw = claimAt(claims, config.roleClaim);
  const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
  const roles = config.roleMap.filter((e) => values.includes(e.value)).map((e) => e.role);
  return roles.includes('admin') ? 'admin' : 'user';
}
