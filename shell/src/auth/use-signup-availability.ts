import { useEffect, useState } from 'react';
import { useServices } from '../services/services.context.js';
import { fetchAuthStatus } from './auth.api.js';

/** 'unknown' when the status call failed: the server has the last word on a signup. */
export type SignupAvailability = 'checking' | 'open' | 'closed' | 'unknown';

/** Whether signup is open (GET /api/v1/auth/status), asked once per mount. */
export function useSignupAvailability(): [SignupAvailability, (a: SignupAvailability) => void] {
  const services = useServices();
  const [availability, setAvailability] = useState<SignupAvailability>('checking');
  useEffect(() => {
    let current = true;
    fetchAuthStatus(services)
      .then((status) => current && setAvailability(status.signup_open ? 'open' : 'closed'))
      .catch((err: unknown) => {
        // Unmounted meanwhile (the page was left): nothing to say.
        if (!current) return;
        console.error('[shell] auth status unavailable', err);
        setAvailability('unknown');
      });
    return () => {
      current = false;
    };
  }, [services]);
  return [availability, setAvailability];
}
