/**
 * Errors that escape every handler (a throwing timer, a rejected promise nobody
 * awaits) are logged. They never unmount React, so the page never goes blank.
 * Returns a function that removes the handlers.
 */
export function installGlobalErrorHandlers(target: Window, log: (...args: unknown[]) => void = console.error): () => void {
  const onError = (event: ErrorEvent) => log('[shell] uncaught error', event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => {
    log('[shell] unhandled rejection', event.reason);
    // Logged here; the browser's own "Uncaught (in promise)" report would repeat it.
    event.preventDefault();
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
