/** The fields the user menu may know of; the shell's user carries username and role. */
export interface UserLabelSource {
  username?: string | null;
  nickname?: string | null;
  email?: string | null;
  role?: string | null;
}

const present = (value: string | null | undefined): value is string => !!value && value.trim() !== '';

/** Spec 01 §2: the nickname, else the username, else 'User'. */
export function userDisplayName(user: UserLabelSource): string {
  if (present(user.nickname)) return user.nickname;
  if (present(user.username)) return user.username;
  return 'User';
}

/** Spec 01 §2: the email, else the role, else 'Member'. */
export function userSubtitle(user: UserLabelSource): string {
  if (present(user.email)) return user.email;
  if (present(user.role)) return user.role;
  return 'Member';
}
