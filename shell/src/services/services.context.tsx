import { createContext, useContext, type ReactNode } from 'react';
import type { ShellServices } from './shell-services.js';

const ServicesContext = createContext<ShellServices | null>(null);

export function ServicesProvider({ services, children }: { services: ShellServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): ShellServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside ServicesProvider');
  return services;
}
