import { type AiConfig, ConfigError } from '../config.js';
import { createBuiltinProvider } from './builtin/builtin.provider.js';
import { createOpenAiProvider } from './openai.provider.js';
import { createVertexProvider } from './vertex.provider.js';

export { ProviderError } from './provider-error.js';

/** One message of a conversation, as every provider takes it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface StreamOptions {
  /** Aborting it cancels the provider's HTTP request (Stop, the 10-minute timeout). */
  signal?: AbortSignal;
  temperature?: number;
}

/**
 * The one interface behind every model (DESIGN.md § AI), chosen by AI_PROVIDER. Keep this
 * shape stable: the chat sessions, /vertex/* routes and the hybrid modes all call it.
 */
export interface AiProvider {
  readonly name: 'builtin' | 'openai' | 'vertex';
  /** The model the provider calls; null for builtin, which has none. */
  readonly model: string | null;
  /**
   * The reply's text, chunk by chunk. Throws ProviderError (message = the provider's error
   * text) when the provider refuses or fails; an aborted signal ends it with the abort reason.
   * builtin has no model: it yields NO_MODEL_CONFIGURED_MESSAGE, whatever is asked.
   */
  stream(messages: ChatMessage[], options?: StreamOptions): AsyncIterable<string>;
}

/** The settings createProvider reads: AI_PROVIDER and the chosen provider's own settings. */
export type ProviderConfig = Pick<AiConfig, 'provider' | 'openai' | 'vertex'>;

/** The provider AI_PROVIDER names; a model provider without its settings is a configuration error. */
export function createProvider(config: ProviderConfig): AiProvider {
  switch (config.provider) {
    case 'builtin':
      return createBuiltinProvider();
    case 'openai':
      if (!config.openai) throw new ConfigError('AI_PROVIDER=openai needs AI_MODEL (and AI_BASE_URL, AI_API_KEY)');
      return createOpenAiProvider(config.openai);
    case 'vertex':
      if (!config.vertex) throw new ConfigError('AI_PROVIDER=vertex needs AI_API_KEY');
      return createVertexProvider(config.vertex);
  }
}

/** The whole reply as one text (JSON replies, code writing). */
export async function complete(provider: AiProvider, messages: ChatMessage[], options?: StreamOptions): Promise<string> {
  let text = '';
  for await (const chunk of provider.stream(messages, options)) text += chunk;
  return text;
}
