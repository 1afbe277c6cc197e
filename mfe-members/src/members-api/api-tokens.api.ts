import {
  type ApiToken,
  ApiTokenListSchema,
  API_TOKENS_PATH,
  type CreateApiTokenBody,
  type CreatedApiToken,
  CreatedApiTokenSchema,
  ApiTokenSchema,
  type ShellContext,
} from '@tessera/contracts';

type Api = ShellContext['api'];

/** GET /api/v1/auth/api-tokens: one's own tokens, newest first, without secrets. */
export async function listApiTokens(api: Api): Promise<ApiToken[]> {
  const res = await api.get(API_TOKENS_PATH);
  return ApiTokenListSchema.parse(res.data).tokens;
}

/** POST: the reply holds the token itself, this once. */
export async function createApiToken(api: Api, body: CreateApiTokenBody): Promise<CreatedApiToken> {
  const res = await api.post(API_TOKENS_PATH, body);
  return CreatedApiTokenSchema.parse(res.data);
}

/** DELETE /{id}: revoked at once. */
export async function revokeApiToken(api: Api, id: string): Promise<ApiToken> {
  const res = await api.delete(`${API_TOKENS_PATH}/${encodeURIComponent(id)}`);
  return ApiTokenSchema.parse(res.data);
}
