import { type GitFunction, type GitFunctionsResponse } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { extensionOf, isExcluded } from './listing-rules.js';
import { findPythonFunctions } from './python-functions.js';
import type { GitRepository } from './repository.service.js';
import { findTypeScriptFunctions } from './typescript-functions.js';

export const MAX_FUNCTIONS = 1000;
const utf8 = new TextDecoder('utf-8');

const FINDERS = {
  py: { language: 'python', find: findPythonFunctions },
  ts: { language: 'typescript', find: findTypeScriptFunctions },
} as const;

/** Functions of every .py and .ts file at the head, by path then line; computed once per head. */
export async function listFunctions(repo: GitRepository, head: string | null): Promise<GitFunctionsResponse> {
  const files = (await repo.files(head))
    .filter((f) => !isExcluded(f.path) && (extensionOf(f.path) === 'py' || extensionOf(f.path) === 'ts'))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const functions: GitFunction[] = [];
  let truncated = false;
  for (const file of files) {
    const finder = FINDERS[extensionOf(file.path) as keyof typeof FINDERS];
    for (const fn of finder.find(utf8.decode(await repo.store.blob(file.oid)))) {
      if (functions.length === MAX_FUNCTIONS) {
        truncated = true;
        break;
      }
      functions.push({ id: `${file.path}:${fn.name}:${fn.line}`, filePath: file.path, language: finder.language, ...fn });
    }
    if (truncated) break;
  }
  return { functions, count: functions.length, truncated };
}

/** GET /git/functions. */
export function registerFunctionsRoute(scope: FastifyInstance, repo: GitRepository): void {
  let memo: { head: string | null; result: Promise<GitFunctionsResponse> } | null = null;
  scope.get('/git/functions', async (): Promise<GitFunctionsResponse> => {
    const head = await repo.head();
    if (memo?.head !== head) {
      const result = listFunctions(repo, head);
      memo = { head, result };
      result.catch(() => {
        if (memo?.result === result) memo = null;
      });
    }
    return memo.result;
  });
}
