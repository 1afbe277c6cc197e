import { NO_MODEL_CONFIGURED_MESSAGE } from '@tessera/contracts';
import type { AiProvider } from '../provider.js';

/**
 * AI_PROVIDER=builtin (the default): no language model. Asked anything, it says so and how to
 * configure one; the sheet requests it does handle are parsed in sheet-request.parser.ts, and
 * schedule requests, tried first, in src/schedule/input/schedule-request.parser.ts (AI Powered).
 */
export function createBuiltinProvider(): AiProvider {
  return {
    name: 'builtin',
    model: null,
    async *stream(): AsyncIterable<string> {
      yield NO_MODEL_CONFIGURED_MESSAGE;
    },
  };
}
