import { AI_SUPPORTED_FILE_FORMATS, type Capabilities, CapabilitiesSchema, MAX_SOLVER_RETRIES } from '@tessera/contracts';
import type { AiProviderName } from '../config.js';

/**
 * What this build really does (spec 02 §3). Each flag turns true only in the issue that
 * implements the feature: /hybrid/forward streams its stages (SSE), runs the hybrid
 * workflow (Direct Exec, AI Powered) and extracts grids from results; there is no LangGraph
 * and no three-page mode.
 */
export function buildCapabilities(version: string, provider: AiProviderName, model: string | null = null): Capabilities {
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
  });
}
