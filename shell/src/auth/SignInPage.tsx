import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { MESSAGES, SSO_TEXTS, clientErrorMessage, errorStatus, type SignInOptions } from '@tessera/contracts';
import { useServices } from '../services/services.context.js';
import { login } from './auth.api.js';
import { FALLBACK_SIGN_IN_OPTIONS, fetchSignInOptions, finishSso, isSsoReply, serverErrorText, startSso, takeSsoReturnPath } from './sso.api.js';
import type { ReturnState } from './return-path.js';
import { GateField } from './GateField.js';
import { useAuth } from './use-auth.js';
import { useSignupAvailability } from './use-signup-availability.js';

/** Which ways to sign in the api offers (GET /auth/sign-in-options); null while it has not said. */
function useSignInOptions(): SignInOptions | null {
  const services = useServices();
  const [options, setOptions] = useState<SignInOptions | null>(null);
  useEffect(() => {
    let current = true;
    fetchSignInOptions(services)
      .then((o) => current && setOptions(o))
      .catch((err: unknown) => {
        // Unmounted meanwhile (the page was left): nothing to say.
        if (!current) return;
        console.error('[shell] sign-in options unavailable', err);
        setOptions(FALLBACK_SIGN_IN_OPTIONS);
      });
    return () => {
      current = false;
    };
  }, [services]);
  return options;
}

/**
 * Sign-in screen (spec 01 §2). Success flips the auth phase; GuestOnly then leaves this page.
 * With single sign-on (issue 21) it also has 'Sign in with <name>', and it is where the provider
 * sends the browser back (/login?code=…&state=…): that reply is handed to the api once.
 */
export default function SignInPage() {
  const services = useServices();
  const { notice } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const options = useSignInOptions();
  // Until the api says, the password form shows (as before single sign-on existed).
  const offered = options ?? FALLBACK_SIGN_IN_OPTIONS;
  const reply = useRef<string | null>(isSsoReply(location.search) ? location.search : null);
  const [finishing, setFinishing] = useState(reply.current !== null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The Sign up link shows only when the server says signup is open.
  const signupOpen = useSignupAvailability()[0] === 'open';

  useEffect(() => {
    const search = reply.current;
    if (search === null) return;
    reply.current = null; // once, also under StrictMode's second run
    // The reply leaves the address bar; where the user was going comes back into the router state.
    const from = takeSsoReturnPath();
    navigate('/login', { replace: true, state: from ? ({ from } satisfies ReturnState) : location.state });
    finishSso(services, search).catch((err: unknown) => {
      setError(serverErrorText(err, MESSAGES.unknownError));
      setFinishing(false);
    });
  }, [services, navigate, location.state]);

  const onSso = async () => {
    setBusy(true);
    setError(null);
    try {
      await startSso(services, (location.state as ReturnState | null)?.from);
    } catch (err) {
      setError(serverErrorText(err, MESSAGES.unknownError));
      setBusy(false);
    }
  };

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
        {finishing && (
          <p className="gate-notice" role="status">
            Signing in...
          </p>
        )}
        {offered.password_login && (
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
            <button className="gate-button" type="submit" disabled={busy || finishing}>
              {busy ? 'Signing in...' : 'Sign in'}
            </button>
          </form>
        )}
        {!offered.password_login && error && (
          <p className="gate-error" role="alert">
            {error}
          </p>
        )}
        {offered.sso && (
          <button className="gate-button secondary" type="button" disabled={busy || finishing} onClick={onSso}>
            {SSO_TEXTS.button(offered.sso.name)}
          </button>
        )}
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
