/** Shown while the session is being restored, and while the main screen's code loads. */
export function StartupScreen() {
  return (
    <main className="gate" aria-busy="true" data-testid="startup-screen">
      <p className="gate-muted">Loading...</p>
    </main>
  );
}
