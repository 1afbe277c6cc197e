import { installGlobalErrorHandlers } from './global-errors.js';

describe('global error handlers', () => {
  it('log uncaught errors and unhandled rejections, and can be removed', () => {
    const log = jest.fn();
    // jest's jsdom environment fails the test on an error event nobody cancelled.
    const cancel = (event: Event) => event.preventDefault();
    window.addEventListener('error', cancel);
    const remove = installGlobalErrorHandlers(window, log);
    const boom = new Error('timer blew up');
    window.dispatchEvent(new ErrorEvent('error', { error: boom, message: boom.message }));
    const rejection = new Event('unhandledrejection', { cancelable: true }) as PromiseRejectionEvent;
    Object.assign(rejection, { reason: 'nobody awaited me' });
    window.dispatchEvent(rejection);
    expect(log).toHaveBeenCalledWith('[shell] uncaught error', boom);
    expect(log).toHaveBeenCalledWith('[shell] unhandled rejection', 'nobody awaited me');
    expect(rejection.defaultPrevented).toBe(true);

    remove();
    window.dispatchEvent(new ErrorEvent('error', { error: boom }));
    expect(log).toHaveBeenCalledTimes(2);
    window.removeEventListener('error', cancel);
  });
});
