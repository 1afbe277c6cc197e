import { AI_SUPPORTED_FILE_FORMATS, type Capabilities, CapabilitiesSchema, MAX_SOLVER_RETRIES } from '@tessera/contracts';
import type { AiProvider } from '../config.js';

/**
 * What this build really does (spec 02 §3). Each flag turns true only in the
 * issue that implements the feature: this build has no chat, streaming,
 * hybrid workflow, three-page mode or grid detection yet.
 */
export function buildCapabilities(version: string, provider: AiProvider): Capabilities {
  return CapabilitiesSchema.parse({
    langGraphEnabled: false,
    hybridWorkflowSupported: false,
    threePageModeSupported: false,
    streamingSupported: false,
    gridDetectionSupported: false,
    maxRetryAttempts: MAX_SOLVER_RETRIES,
    supportedFileFormats: [...AI_SUPPORTED_FILE_FORMATS],
    version,
    provider,
  });
}
