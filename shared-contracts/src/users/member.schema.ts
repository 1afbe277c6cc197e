import { z } from 'zod';
import { ApiTokenScopeSchema } from '../auth/api-token.schema.js';
import { RoleSchema } from './role.js';
import { CreateUserBodySchema, EmailSchema, NicknameSchema, PasswordSchema } from './user.schema.js';

/** An optional text field of an update: a blank string (or null) clears it. */
const clearableText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullable().optional());

/**
 * PUT /api/v1/users/{id} (spec 01 §7): only the fields sent change. nickname and email
 * (one's own, or anyone's for admin-like users); password (another user's, admin-like
 * only: one's own needs the current password at /auth/change-password); role, whose only
 * settable value is admin (promote).
 */
export const UpdateUserBodySchema = z
  .strictObject({
    nickname: clearableText(NicknameSchema),
    email: clearableText(EmailSchema),
    password: PasswordSchema.optional(),
    role: z
      .preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.literal('admin', 'Role can only be set to admin (promote)'))
      .optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Nothing to update' });
export type UpdateUserBody = z.infer<typeof UpdateUserBodySchema>;

/** GET /api/v1/auth/session: the token's user as the api knows them now (checked by other services). */
export const SessionInfoSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.string(),
  /** Present when the caller is a personal API token: what it may do (issue 21). */
  api_token_scope: ApiTokenScopeSchema.optional(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

/**
 * What POST /api/v1/users accepts on the wire: any known role, so that asking for host or
 * superadmin is refused as a permission (403) rather than as bad input; clients send
 * CreateUserBody (user or admin).
 */
export const CreateUserRequestSchema = CreateUserBodySchema.extend({ role: RoleSchema.default('user') });
