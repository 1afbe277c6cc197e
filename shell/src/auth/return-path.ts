import type { Location } from 'react-router';

/** Where a signed-out user was going, kept in the router state by RequireAuth. */
export interface ReturnState {
  from?: string;
}

export const DEFAULT_SIGNED_IN_PATH = '/sheets';

/** The path to open after sign-in: the intended one when it is a path of this app. */
export function returnPath(location: Location): string {
  const from = (location.state as ReturnState | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : DEFAULT_SIGNED_IN_PATH;
}
