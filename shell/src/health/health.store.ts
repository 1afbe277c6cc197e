import { createStore } from 'zustand';
import type { HealthStatus } from '@tessera/contracts';

/** Latest health of each service, by service name. */
export type HealthState = Record<string, HealthStatus>;

export const healthStore = createStore<HealthState>(() => ({}));

export const recordHealth = (status: HealthStatus) => healthStore.setState({ [status.service]: status });
