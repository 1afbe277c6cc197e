import { useStore } from 'zustand';
import { useServices } from '../services/services.context.js';
import type { AuthState } from './auth.store.js';

export function useAuth(): AuthState {
  const { auth } = useServices();
  return useStore(auth);
}
