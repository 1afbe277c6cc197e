import { ERROR_CODES, TRANSFER_TEXTS, type TransferKind } from '@tessera/contracts';
import { HttpError } from '../http/http-error.js';

/**
 * Imports (or exports) under way, per member and in the process: a slot is taken before the
 * request reads anything and given back when its reply is done, so no member's loop of requests
 * can hold the api's memory (each holds a whole upload or sheet text) or keep others waiting.
 */
export class TransferSlots {
  readonly #byUser = new Map<string, number>();
  #total = 0;

  constructor(
    private readonly kind: TransferKind,
    private readonly perUser: number,
    private readonly total: number,
  ) {}

  /** Takes a slot for `userId`, or throws 429 with the text that says whose limit it is; returns its release (once is enough, twice is harmless). */
  take(userId: string): () => void {
    const mine = this.#byUser.get(userId) ?? 0;
    if (mine >= this.perUser) throw new HttpError(429, ERROR_CODES.tooManyRequests, TRANSFER_TEXTS.userBusy(this.kind));
    if (this.#total >= this.total) throw new HttpError(429, ERROR_CODES.tooManyRequests, TRANSFER_TEXTS.serverBusy(this.kind));
    this.#byUser.set(userId, mine + 1);
    this.#total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const left = (this.#byUser.get(userId) ?? 1) - 1;
      if (left === 0) this.#byUser.delete(userId);
      else this.#byUser.set(userId, left);
    };
  }

  /** Slots taken now (by everyone). */
  get inUse(): number {
    return this.#total;
  }
}
