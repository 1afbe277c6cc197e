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
});
export type Capabilities = z.infer<typeof CapabilitiesSchema>;
