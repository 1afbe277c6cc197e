import { z } from 'zod';
import { RoleSchema } from '../users/role.js';
import {
  EmailSchema,
  NicknameSchema,
  PASSWORD_MAX_LENGTH,
  PasswordSchema,
  UserSchema,
  UsernameSchema,
  optionalText,
} from '../users/user.schema.js';

/** Claims read from an access token (spec 01 §3): sub, username, role, exp. */
export const TokenClaimsSchema = z.object({
  sub: z.string().min(1),
  username: z.string().min(1),
  role: RoleSchema,
  exp: z.number().int(),
});
export type TokenClaims = z.infer<typeof TokenClaimsSchema>;

/** The signed-in user as the client holds it; all three fields must be present. */
export const AuthUserSchema = z.object({
  id: z.string().min(1),
  username: z.string().min(1),
  role: RoleSchema,
});
export type AuthUser = z.infer<typeof AuthUserSchema>;

export const LoginBodySchema = z.strictObject({
  // Sign-in checks credentials, not the signup rules: any non-empty name may be tried.
  username: z.string().trim().min(1, 'Username is required').max(256),
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const SignupBodySchema = z.strictObject({
  username: UsernameSchema,
  password: PasswordSchema,
  email: optionalText(EmailSchema),
  nickname: optionalText(NicknameSchema),
});
export type SignupBody = z.infer<typeof SignupBodySchema>;

/** Reply of login, signup and refresh; the spec's clients read access_token or accessToken. */
export const TokenResponseSchema = z
  .object({
    access_token: z.string().optional(),
    accessToken: z.string().optional(),
    user: UserSchema.optional(),
  })
  .refine((r) => !!(r.access_token ?? r.accessToken), { message: 'access_token missing' })
  .transform((r) => ({ access_token: (r.access_token ?? r.accessToken) as string, user: r.user }));
export type TokenResponse = z.output<typeof TokenResponseSchema>;
/** What signup, login and refresh send (TokenResponseSchema above also reads older replies). */
export const SessionResponseSchema = z.object({ access_token: z.string(), user: UserSchema });

export const AuthStatusSchema = z.object({ signup_open: z.boolean() });
export type AuthStatus = z.infer<typeof AuthStatusSchema>;

/** A JSON Web Key Set as served at /api/v1/auth/jwks.json. */
export const JwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())).min(1) });
