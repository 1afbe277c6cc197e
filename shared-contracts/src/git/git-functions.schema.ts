import { z } from 'zod';

/** Git function (spec 02 §3): a function found in a .py or .ts file at the head. */
export const GitFunctionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  filePath: z.string(),
  code: z.string(),
  language: z.enum(['python', 'typescript']),
  /** 1-based line where the definition starts. */
  line: z.number().int().positive(),
});
export type GitFunction = z.infer<typeof GitFunctionSchema>;

export const GitFunctionsResponseSchema = z.object({
  functions: z.array(GitFunctionSchema),
  count: z.number().int().nonnegative(),
  truncated: z.boolean(),
});
export type GitFunctionsResponse = z.infer<typeof GitFunctionsResponseSchema>;

/** Spec 02 §8: the chat's function picker could not read GET /git/functions (a warning; sending still works). */
export const FAILED_TO_LOAD_GIT_FUNCTIONS = 'Failed to load git functions';
