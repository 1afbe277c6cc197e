import { GroupTreeSchema, NAVIGATION_SERVICE_RETRY, type GroupTree } from '@tessera/contracts';
import type { ShellContext } from '@tessera/contracts';

type Api = ShellContext['api'];

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * GET /api/v1/groups/tree with the navigation retry of spec 01 §8: 3 attempts, waiting
 * 1 s then 2 s, on any failed reply. A reply that does not match the schema is not retried
 * (asking again would return the same body).
 */
export async function fetchNavigationTree(
  api: Api,
  delaysMs: readonly number[] = NAVIGATION_SERVICE_RETRY.delaysMs,
): Promise<GroupTree> {
  let lastError: unknown;
  for (let attempt = 0; attempt < NAVIGATION_SERVICE_RETRY.attempts; attempt++) {
    if (attempt > 0) await wait(delaysMs[attempt - 1] ?? 0);
    try {
      const { data } = await api.get<unknown>('/api/v1/groups/tree');
      return GroupTreeSchema.parse(data);
    } catch (error) {
      if (!isRequestError(error)) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

/** Failed replies and network errors come from axios; schema errors do not. */
const isRequestError = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { isAxiosError?: boolean }).isAxiosError === true;
