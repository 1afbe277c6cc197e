/**
 * A model provider refused or failed. The message is the provider's own error text, shown to
 * the user as is (spec 02 §8); an HTTP refusal reads 'HTTP {status}: {the provider's message}'.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';

  constructor(
    message: string,
    /** The provider's HTTP status, when it answered with one. */
    readonly status?: number,
  ) {
    super(message);
  }
}
