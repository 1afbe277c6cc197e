import { ERROR_CODES, SHEET_READ_SLOT_MIN_BYTES, TRANSFER_BOUNDS, TRANSFER_TEXTS, type TransferKind } from '@tessera/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../http/auth-guard.js';
import { HttpError } from '../http/http-error.js';

type Bounds = Readonly<Record<TransferKind, { perUser: number; atOnce: number }>>;

/**
 * Requests under way that each hold a whole upload, sheet or version in memory (imports, exports,
 * whole sheet reads, copies, restores: contracts TRANSFER_BOUNDS), per member and in the process,
 * by kind: a slot is taken before the request reads anything and given back when its reply is
 * done, so no member's loop of requests can hold the api's memory or keep others waiting.
 */
export class TransferSlots {
  readonly #byUser = new Map<string, number>();
  readonly #total = new Map<TransferKind, number>();
  /** Callers of `wait`, first come first served, given a slot as soon as one is free. */
  readonly #waiting = new Map<TransferKind, (() => void)[]>();

  constructor(private readonly bounds: Bounds = TRANSFER_BOUNDS) {}

  /** Takes a `kind` slot for `userId`, or throws 429 with the text that says whose limit it is; returns its release (once is enough, twice is harmless). */
  take(kind: TransferKind, userId: string): () => void {
    const key = `${kind}\u0000${userId}`;
    const mine = this.#byUser.get(key) ?? 0;
    const total = this.#total.get(kind) ?? 0;
    if (mine >= this.bounds[kind].perUser) throw new HttpError(429, ERROR_CODES.tooManyRequests, TRANSFER_TEXTS.userBusy(kind));
    if (total >= this.bounds[kind].atOnce) throw new HttpError(429, ERROR_CODES.tooManyRequests, TRANSFER_TEXTS.serverBusy(kind));
    this.#byUser.set(key, mine + 1);
    this.#total.set(kind, total + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#giveBack(kind);
      const left = (this.#byUser.get(key) ?? 1) - 1;
      if (left === 0) this.#byUser.delete(key);
      else this.#byUser.set(key, left);
    };
  }

  /**
   * A `kind` slot of the process for work that cannot be refused (no member's: the live socket's
   * whole-sheet sync, which every whole page on the sheet must get): waits while the process holds
   * `atOnce` of them, in arrival order, before a request's `take` (refused meanwhile: the waiters
   * are served first). Resolves with its release (once is enough, twice is harmless).
   */
  async wait(kind: TransferKind): Promise<() => void> {
    if ((this.#total.get(kind) ?? 0) >= this.bounds[kind].atOnce || (this.#waiting.get(kind)?.length ?? 0) > 0) {
      await new Promise<void>((resolve) => {
        const queue = this.#waiting.get(kind) ?? [];
        queue.push(resolve);
        this.#waiting.set(kind, queue);
      });
    } else {
      this.#total.set(kind, (this.#total.get(kind) ?? 0) + 1);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#giveBack(kind);
    };
  }

  /** A slot given back: the first waiter takes it over (the count stays), or it is free. */
  #giveBack(kind: TransferKind): void {
    const next = this.#waiting.get(kind)?.shift();
    if (next) next();
    else this.#total.set(kind, (this.#total.get(kind) ?? 1) - 1);
  }

  /** A slot for the request's member, given back when its reply closes (sent, failed, or the client gone). */
  hold(kind: TransferKind, request: FastifyRequest, reply: FastifyReply): void {
    // Closed already (the client went while the request waited): its 'close' is past, the slot would never come back.
    if (reply.raw.destroyed) throw HttpError.badRequest('The request was closed by its client');
    reply.raw.once('close', this.take(kind, currentUser(request).id));
  }

  /** A route's onRequest hook: the slot is taken before the body, the access check and the handler read anything. */
  before(kind: TransferKind) {
    return async (request: FastifyRequest, reply: FastifyReply) => this.hold(kind, request, reply);
  }

  /**
   * As `before`, for a route whose body is often small (a new sheet, usually empty): a slot only when
   * the body is SHEET_READ_SLOT_MIN_BYTES or more, or its length is not told (chunked).
   */
  beforeLargeBody(kind: TransferKind) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const length = Number(request.headers['content-length']);
      if (!Number.isFinite(length) || length >= SHEET_READ_SLOT_MIN_BYTES) this.hold(kind, request, reply);
    };
  }

  /** `kind` slots taken now (by everyone). */
  inUse(kind: TransferKind): number {
    return this.#total.get(kind) ?? 0;
  }
}
