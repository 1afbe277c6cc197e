import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { MESSAGES, clientErrorMessage, errorStatus } from '@tessera/contracts';
import { useServices } from '../services/services.context.js';
import { signup } from './auth.api.js';
import { GateField } from './GateField.js';
import { useSignupAvailability } from './use-signup-availability.js';

/** Sign-up screen (spec 01 §2): only the first account may sign up; it becomes admin. */
export default function SignUpPage() {
  const services = useServices();
  const location = useLocation();
  const [availability, setAvailability] = useSignupAvailability();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [email, setEmail] = useState('');
  const [nickname, setNickname] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signup(services, {
        username,
        password,
        email: email.trim() || undefined,
        nickname: nickname.trim() || undefined,
      });
    } catch (err) {
      // Someone else created the first account meanwhile: signup is closed now.
      if (errorStatus(err) === 403) setAvailability('closed');
      else setError(clientErrorMessage(err) ?? MESSAGES.signupFailed);
      setBusy(false);
    }
  };

  return (
    <main className="gate">
      <section className="gate-card" aria-labelledby="signup-heading">
        <h1 id="signup-heading">Create your account</h1>
        {availability === 'checking' && <p className="gate-muted">Loading...</p>}
        {availability === 'closed' && (
          <p className="gate-muted" role="status">
            {MESSAGES.signupClosed}
          </p>
        )}
        {(availability === 'open' || availability === 'unknown') && (
          <>
            <p className="gate-banner">Create admin first account</p>
            <form className="gate-form" onSubmit={onSubmit}>
              <GateField label="Username" name="username" autoComplete="username" required value={username} onChange={setUsername} />
              <GateField
                label="Password"
                name="password"
                type="password"
                autoComplete="new-password"
                required
                value={password}
                onChange={setPassword}
              />
              <GateField label="Email" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} />
              <GateField label="Nickname" name="nickname" autoComplete="nickname" value={nickname} onChange={setNickname} />
              {error && (
                <p className="gate-error" role="alert">
                  {error}
                </p>
              )}
              <button className="gate-button" type="submit" disabled={busy}>
                {busy ? 'Signing up...' : 'Sign up'}
              </button>
            </form>
          </>
        )}
        <p className="gate-switch">
          Already have an account?{' '}
          <Link to="/login" state={location.state}>
            Sign in
          </Link>
        </p>
      </section>
    </main>
  );
}
