import { GitFunctionsResponseSchema, type GitFunctionsResponse, type SelectedFunction, type GitFunction, type ShellContext } from '@tessera/contracts';

/** GET /git/functions (spec 02 §7): the functions of the repository's .py and .ts files at the head. */
export async function loadGitFunctions(ai: ShellContext['ai'], signal?: AbortSignal): Promise<GitFunctionsResponse> {
  const { data } = await ai.get<unknown>('/git/functions', { signal });
  return GitFunctionsResponseSchema.parse(data);
}

/** A picked function as the workspace context carries it (spec 02 §3 selected_functions). */
export function toSelectedFunction(fn: GitFunction): SelectedFunction {
  return { id: fn.id, name: fn.name, file_path: fn.filePath, ...(fn.description ? { description: fn.description.slice(0, 2000) } : {}) };
}
