import { type Algorithm, hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id: the enum is `const`, which isolatedModules cannot read.
const ARGON2ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2ID };

/** argon2id hashing; `verifyDummy` spends the same work when there is no account to check. */
export class PasswordService {
  #dummyHash: Promise<string> | null = null;

  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password, OPTIONS);
    } catch {
      return false;
    }
  }

  /** Used for unknown usernames so that timing does not reveal whether an account exists. */
  async verifyDummy(password: string): Promise<false> {
    this.#dummyHash ??= this.hash('tessera-dummy-password-for-timing');
    await this.verify(await this.#dummyHash, password);
    return false;
  }
}
