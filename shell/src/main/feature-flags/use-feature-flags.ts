import { useEffect, useState } from 'react';
import {
  CAPABILITY_DISCOVERY_TIMEOUT_MS,
  CapabilitiesSchema,
  DEFAULT_FLAGS,
  type AxiosInstance,
  type FeatureFlag,
} from '@tessera/contracts';

export type Flags = Record<FeatureFlag, boolean>;

/**
 * The feature flags (spec 02 §9) as the ai-middleware's GET /config reports them (its FEATURE_*
 * env). Any failure — the middleware down, a reply that is not its capabilities, one without
 * flags — gives the defaults (all on): flags only switch features off, never block the page.
 */
export async function fetchFeatureFlags(ai: AxiosInstance): Promise<Flags> {
  try {
    const { data } = await ai.get<unknown>('/config', { timeout: CAPABILITY_DISCOVERY_TIMEOUT_MS });
    const parsed = CapabilitiesSchema.safeParse(data);
    return parsed.success && parsed.data.flags ? parsed.data.flags : DEFAULT_FLAGS;
  } catch {
    return DEFAULT_FLAGS;
  }
}

/** The flags for the signed-in user's page: the defaults until /ai/config answers, read once per sign-in. */
export function useFeatureFlags(ai: AxiosInstance, userId: string): Flags {
  const [flags, setFlags] = useState<Flags>(DEFAULT_FLAGS);
  useEffect(() => {
    let current = true;
    void fetchFeatureFlags(ai).then((loaded) => current && setFlags(loaded));
    return () => {
      current = false;
    };
  }, [ai, userId]);
  return flags;
}
