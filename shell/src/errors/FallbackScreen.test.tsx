import { fireEvent, render, screen } from '@testing-library/react';
import { ErrorBoundary } from './ErrorBoundary.js';
import { FallbackScreen } from './FallbackScreen.js';

let shouldThrow = true;
function Flaky() {
  if (shouldThrow) throw new Error('grid exploded');
  return <p>Recovered content</p>;
}

beforeEach(() => {
  shouldThrow = true;
  jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

describe('generic fallback screen', () => {
  it('replaces a crashed subtree with the spec texts, the error details and both buttons', () => {
    const refresh = jest.fn();
    render(
      <ErrorBoundary fallback={(error, reset) => <FallbackScreen error={error} onTryAgain={reset} onRefresh={refresh} />}>
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('An unexpected error occurred. Please refresh the page to continue.')).toBeInTheDocument();
    expect(screen.getByText(/grid exploded/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Refresh Page' }));
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('Try Again renders the children again', () => {
    render(
      <ErrorBoundary fallback={(error, reset) => <FallbackScreen error={error} onTryAgain={reset} onRefresh={() => {}} />}>
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.queryByText('Recovered content')).not.toBeInTheDocument();
    shouldThrow = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('Recovered content')).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();
  });
});
