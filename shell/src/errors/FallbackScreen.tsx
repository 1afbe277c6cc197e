import { MESSAGES } from '@tessera/contracts';

export interface FallbackScreenProps {
  error: Error;
  onTryAgain(): void;
  /** Reloads the page; injectable for tests. */
  onRefresh?(): void;
}

/** The generic fallback screen (spec 01 §2, spec 02 §2), in plain HTML: it must render whatever failed. */
export function FallbackScreen({ error, onTryAgain, onRefresh = () => window.location.reload() }: FallbackScreenProps) {
  const details = [error.message, error.stack].filter(Boolean).join('\n\n');
  return (
    <main className="gate" role="alert" data-testid="fallback-screen">
      <section className="gate-card">
        <h1>{MESSAGES.genericFallbackTitle}</h1>
        <p className="gate-help">{MESSAGES.genericFallbackBody}</p>
        <details open>
          <summary>Error details</summary>
          <pre className="gate-details">{details || 'No details'}</pre>
        </details>
        <div className="gate-actions">
          <button className="gate-button" type="button" onClick={onRefresh}>
            Refresh Page
          </button>
          <button className="gate-button secondary" type="button" onClick={onTryAgain}>
            Try Again
          </button>
        </div>
      </section>
    </main>
  );
}
