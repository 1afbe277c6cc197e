import { z } from 'zod';

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
});
export type Capabilities = z.infer<typeof CapabilitiesSchema>;
