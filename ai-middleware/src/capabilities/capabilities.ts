import {
  AI_SUPPORTED_FILE_FORMATS,
  type Capabilities,
  CapabilitiesSchema,
  DEFAULT_FLAGS,
  type FeatureFlags,
  MAX_SOLVER_RETRIES,
} from '@tessera/contracts';
import type { AiProviderName } from '../config.js';

/**
 * What this build really does (spec 02 §3). Each flag turns true only in the issue that
 * implements the feature: /hybrid/forward streams its stages (SSE), runs the hybrid
 * workflow (Direct Exec, AI Powered) and extracts grids from results; there is no LangGraph
 * and no three-page mode. `flags` are the feature flags this instance runs with (FEATURE_* env),
 * which the shell hands to every remote.
 */
export function buildCapabilities(
  version: string,
  provider: AiProviderName,
  model: string | null = null,
  flags: FeatureFlags = DEFAULT_FLAGS,
): Capabilities {
  return CapabilitiesSchema.parse({
    langGraphEnabled: false,
    hybridWorkflowSupported: true,
    threePageModeSupported: false,
    streamingSupported: true,
    gridDetectionSupported: true,
    maxRetryAttempts: MAX_SOLVER_RETRIES,
    supportedFileFormats: [...AI_SUPPORTED_FILE_FORMATS],
    version,
    provider,
    model,
    flags,
  });
}
