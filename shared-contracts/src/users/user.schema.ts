import { z } from 'zod';
import { CREATABLE_ROLES, RoleSchema } from './role.js';

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 64;
export const PASSWORD_MIN_LENGTH = 8;
/** Bounded so a hash request cannot be used to burn CPU. */
export const PASSWORD_MAX_LENGTH = 256;
export const NICKNAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;

/**
 * Usernames: trimmed, 3 to 64 characters, each a Unicode letter or digit or one of . _ @ -
 * (so an email address works as a username). Unique regardless of case.
 */
export const UsernameSchema = z
  .string()
  .trim()
  .min(1, 'Username is required')
  .min(USERNAME_MIN_LENGTH, `Username must be at least ${USERNAME_MIN_LENGTH} characters`)
  .max(USERNAME_MAX_LENGTH, `Username cannot exceed ${USERNAME_MAX_LENGTH} characters`)
  .regex(/^[\p{L}\p{N}._@-]+$/u, 'Username may contain letters, digits and . _ @ - only');

export const PasswordSchema = z
  .string()
  .min(1, 'Password is required')
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password cannot exceed ${PASSWORD_MAX_LENGTH} characters`);

/** Optional text fields: an empty string means "not given". */
const optionalText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

export const EmailSchema = z.email('Email must be a valid email address').max(EMAIL_MAX_LENGTH);
export const NicknameSchema = z.string().trim().max(NICKNAME_MAX_LENGTH, `Nickname cannot exceed ${NICKNAME_MAX_LENGTH} characters`);

/** A member as the API returns it: never a password or a hash. */
export const UserSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: RoleSchema,
  email: z.string().nullish(),
  nickname: z.string().nullish(),
  created_at: z.string().optional(),
});
export type User = z.infer<typeof UserSchema>;

export const UserListSchema = z.array(UserSchema);

export const CreateUserBodySchema = z.strictObject({
  username: UsernameSchema,
  password: PasswordSchema,
  email: optionalText(EmailSchema),
  nickname: optionalText(NicknameSchema),
  role: z.enum(CREATABLE_ROLES).default('user'),
});
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

export const ChangePasswordBodySchema = z.strictObject({
  old_password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
  new_password: PasswordSchema,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export { optionalText };
