import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface ErrorBoundaryProps {
  /** Renders the fallback; `reset` clears the error and renders the children again. */
  fallback(error: Error, reset: () => void): ReactNode;
  /** When this value changes, a caught error is cleared (e.g. a new load attempt). */
  resetKey?: unknown;
  /** Reports the error (default: console.error). */
  onError?(error: Error, info: ErrorInfo): void;
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: Error | null;
  resetKey: unknown;
}

const asError = (value: unknown): Error => (value instanceof Error ? value : new Error(String(value)));

/** Keeps a render error in its subtree: the rest of the page keeps working. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error: asError(error) };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    return Object.is(props.resetKey, state.resetKey) ? null : { error: null, resetKey: props.resetKey };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    if (this.props.onError) this.props.onError(asError(error), info);
    else console.error('[shell] render error caught', error, info.componentStack);
  }

  reset = (): void => this.setState({ error: null });

  render(): ReactNode {
    return this.state.error ? this.props.fallback(this.state.error, this.reset) : this.props.children;
  }
}
