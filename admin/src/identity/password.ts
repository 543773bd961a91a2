// Password hashes: scrypt from node:crypto with a random per-user salt. The parameters are stored with
// each hash so they can be raised later without invalidating existing passwords.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface PasswordHash {
  algorithm: 'scrypt';
  /** base64 */
  salt: string;
  /** base64 */
  hash: string;
  N: number;
  r: number;
  p: number;
  keylen: number;
}

/** N=2^15, r=8, p=1: about 32 MiB and tens of milliseconds per hash, affordable per login on small nodes. */
const DEFAULTS = { N: 2 ** 15, r: 8, p: 1, keylen: 64 };

function derive(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keylen, { ...options, maxmem: 128 * (options.N ?? 16384) * (options.r ?? 8) * 2 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `costLog2` sets N = 2^costLog2 (default 15); tests lower it, production keeps the default. */
export async function hashPassword(password: string, costLog2 = Math.log2(DEFAULTS.N)): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const params = { ...DEFAULTS, N: 2 ** costLog2 };
  const key = await derive(password, salt, params.keylen, { N: params.N, r: params.r, p: params.p });
  return { algorithm: 'scrypt', salt: salt.toString('base64'), hash: key.toString('base64'), ...params };
}

export async function verifyPasswordHash(password: string, stored: PasswordHash): Promise<boolean> {
  if (stored.algorithm !== 'scrypt') return false;
  const expected = Buffer.from(stored.hash, 'base64');
  const key = await derive(password, Buffer.from(stored.salt, 'base64'), expected.length, { N: stored.N, r: stored.r, p: stored.p });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
