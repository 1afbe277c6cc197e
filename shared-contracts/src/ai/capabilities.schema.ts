import { z } from 'zod';
import type { FeatureFlag } from '../shell/shell-context.js';

/** The feature flags as /config reports them: each of spec 02 §9's flags, on or off. */
export const FeatureFlagsSchema = z.object({
  contextWindow: z.boolean(),
  enhancedChat: z.boolean(),
  debugLogging: z.boolean(),
  enhancedTableParsing: z.boolean(),
  autoSheetCreation: z.boolean(),
}) satisfies z.ZodType<Record<FeatureFlag, boolean>>;
export type FeatureFlags = z.infer<typeof FeatureFlagsSchema>;

/**
 * The Python that runs code (issue 19): its engine (gvisor: CPython with pandas & co. in gVisor;
 * pyodide: the standard library only), null while the start-up self-test runs or when no code can
 * run, and the packages it offers beyond the standard library (distribution name → version).
 */
export const CodeRunnerInfoSchema = z.object({
  engine: z.enum(['gvisor', 'pyodide']).nullable(),
  packages: z.record(z.string(), z.string()),
});
export type CodeRunnerInfo = z.infer<typeof CodeRunnerInfoSchema>;

/** Middleware capabilities (spec 02 §3), served at GET /config. */
export const CapabilitiesSchema = z.object({
  langGraphEnabled: z.boolean(),
  hybridWorkflowSupported: z.boolean(),
  threePageModeSupported: z.boolean(),
  streamingSupported: z.boolean(),
  gridDetectionSupported: z.boolean(),
  maxRetryAttempts: z.number().int().nonnegative(),
  supportedFileFormats: z.array(z.string()),
  version: z.string(),
  /** builtin, openai or vertex (AI_PROVIDER). */
  provider: z.string(),
  /** The model the provider calls (AI_MODEL); null with builtin, which has none. */
  model: z.string().nullable().optional(),
  /** The feature flags this instance runs with (FEATURE_* env); an older middleware leaves them out (defaults apply). */
  flags: FeatureFlagsSchema.optional(),
  /** The live code-runner engine and its packages; an older middleware leaves it out. */
  codeRunner: CodeRunnerInfoSchema.optional(),
});
export type Capabilities = z.infer<typeof CapabilitiesSchema>;
