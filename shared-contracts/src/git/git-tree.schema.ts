import { z } from 'zod';

/** Repository file entry (spec 02 §3). `modified` is the ISO time of the last commit that changed the file. */
export const GitFileEntrySchema = z.object({
  path: z.string(),
  type: z.literal('file'),
  size: z.number().int().nonnegative(),
  modified: z.string(),
});
export type GitFileEntry = z.infer<typeof GitFileEntrySchema>;

export interface GitTreeNode {
  name: string;
  path: string;
  type: 'file' | 'directory';
  children?: GitTreeNode[];
}
export const GitTreeNodeSchema: z.ZodType<GitTreeNode> = z.lazy(() =>
  z.object({
    name: z.string(),
    path: z.string(),
    type: z.enum(['file', 'directory']),
    children: z.array(GitTreeNodeSchema).optional(),
  }),
);

export const GitRepositoryInfoSchema = z.object({
  branch: z.string(),
  head: z.string().nullable(),
  empty: z.boolean(),
});
export type GitRepositoryInfo = z.infer<typeof GitRepositoryInfoSchema>;

/** GET /git/tree: the listed files (spec 02 §5 rules), the same files as a folder tree, the repository and how the list was made. */
export const GitTreeResponseSchema = z.object({
  files: z.array(GitFileEntrySchema),
  tree: z.array(GitTreeNodeSchema),
  repository: GitRepositoryInfoSchema,
  metadata: z.object({
    /** Every file at the head. */
    total_files: z.number().int().nonnegative(),
    /** Files that passed the rules (extensions, or relaxed) before the cap. */
    matched_files: z.number().int().nonnegative(),
    /** True when no file had a listed extension and the relaxed list was used. */
    relaxed: z.boolean(),
    truncated: z.boolean(),
    cap: z.number().int().positive(),
  }),
});
export type GitTreeResponse = z.infer<typeof GitTreeResponseSchema>;

/** File content (spec 02 §3): GET /git/code-content?identifier={path}&commit={hash}. */
export const GitFileContentSchema = z.object({
  identifier: z.string(),
  content: z.string(),
  commit_hash: z.string(),
  metadata: z.object({
    size: z.number().int().nonnegative(),
    blob: z.string(),
    language: z.string(),
    /** False when the bytes are not valid UTF-8 (content is then a lossy decoding). */
    utf8: z.boolean(),
  }),
});
export type GitFileContent = z.infer<typeof GitFileContentSchema>;
