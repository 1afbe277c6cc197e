import '@testing-library/jest-dom';
import { cleanup, configure } from '@testing-library/react';
import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks these; react-router and the token decoder use them.
Object.assign(globalThis, { TextEncoder: globalThis.TextEncoder ?? TextEncoder, TextDecoder: globalThis.TextDecoder ?? TextDecoder });

// jsdom lacks the layout APIs Chakra's (Ark/Zag) components call.
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

// First renders of Chakra under a loaded machine can take over the default 1 s of patience.
configure({ asyncUtilTimeout: 5000 });

afterEach(cleanup);
