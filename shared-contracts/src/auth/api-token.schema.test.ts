import { API_TOKEN_MAX_DAYS, API_TOKEN_PATTERN, API_TOKEN_TEXTS, CreateApiTokenBodySchema, isApiToken } from './api-token.schema.js';

describe('API token contract', () => {
  it('accepts a name, a scope and an expiry of 1 to 365 days; trims the name', () => {
    expect(CreateApiTokenBodySchema.parse({ name: '  CI  ', scope: 'read', expires_in_days: API_TOKEN_MAX_DAYS })).toEqual({
      name: 'CI',
      scope: 'read',
      expires_in_days: 365,
    });
  });

  it('refuses an expiry beyond a year, an unknown scope and unknown keys, with the texts the api sends', () => {
    const issue = (body: unknown) => CreateApiTokenBodySchema.safeParse(body).error?.issues[0]?.message;
    expect(issue({ name: 'x', scope: 'read', expires_in_days: 366 })).toBe(API_TOKEN_TEXTS.expiryRange);
    expect(issue({ name: 'x', scope: 'admin', expires_in_days: 1 })).toBe("Scope must be 'read' or 'read-write'");
    expect(issue({ name: 'x', scope: 'read', expires_in_days: 1, user_id: 'u' })).toMatch(/user_id/);
  });

  it('tells a tsr_ token from a JWT, and the pattern holds exactly the shape the api makes', () => {
    const token = `tsr_0123456789ab_${'A'.repeat(43)}`;
    expect(isApiToken(token)).toBe(true);
    expect(isApiToken('eyJhbGciOiJFZERTQSJ9.e30.sig')).toBe(false);
    expect(API_TOKEN_PATTERN.test(token)).toBe(true);
    expect(API_TOKEN_PATTERN.test(`${token}A`)).toBe(false);
    expect(API_TOKEN_PATTERN.test(token.replace('0123', 'ZZZZ'))).toBe(false);
  });
});
