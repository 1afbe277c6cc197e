import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { MESSAGES, clientErrorMessage, errorStatus } from '@tessera/contracts';
import { useServices } from '../services/services.context.js';
import { login } from './auth.api.js';
import { GateField } from './GateField.js';
import { useAuth } from './use-auth.js';
import { useSignupAvailability } from './use-signup-availability.js';

/** Sign-in screen (spec 01 §2). Success flips the auth phase; GuestOnly then leaves this page. */
export default function SignInPage() {
  const services = useServices();
  const { notice } = useAuth();
  const location = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The Sign up link shows only when the server says signup is open.
  const signupOpen = useSignupAvailability()[0] === 'open';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await login(services, { username, password });
    } catch (err) {
      // A 401 is always the spec's text; another 4xx may say what was wrong with the input.
      setError(errorStatus(err) === 401 ? MESSAGES.invalidCredentials : (clientErrorMessage(err) ?? MESSAGES.invalidCredentials));
      setBusy(false);
    }
  };

  return (
    <main className="gate">
      <section className="gate-card" aria-labelledby="signin-heading">
        <h1 id="signin-heading">Sign in</h1>
        <p className="gate-subtitle">Welcome back</p>
        <p className="gate-help">Enter your credentials to access your account.</p>
        {notice && (
          <p className="gate-notice" role="status">
            {notice}
          </p>
        )}
        <form className="gate-form" onSubmit={onSubmit}>
          <GateField label="Username" name="username" autoComplete="username" required value={username} onChange={setUsername} />
          <GateField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={setPassword}
          />
          {error && (
            <p className="gate-error" role="alert">
              {error}
            </p>
          )}
          <button className="gate-button" type="submit" disabled={busy}>
            {busy ? 'Signing in...' : 'Sign in'}
          </button>
        </form>
        {signupOpen && (
          <p className="gate-switch">
            Don&apos;t have an account?{' '}
            <Link to="/signup" state={location.state}>
              Sign up
            </Link>
          </p>
        )}
      </section>
    </main>
  );
}
