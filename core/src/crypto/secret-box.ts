import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encrypts secrets at rest (provider credentials, exporter headers) with AES-256-GCM. The key comes
 * from PALISADE_SECRET_KEY; without it a fixed development key is derived, which the CLI warns about.
 * Sealed values look like `enc:v1:<base64 iv|tag|ciphertext>` so that a sealed value is never taken
 * for a clear one.
 */
export interface SecretBox {
  seal(clear: string): string;
  open(sealed: string): string;
  isSealed(value: string): boolean;
}

const PREFIX = 'enc:v1:';
export const DEVELOPMENT_SECRET_KEY = 'palisade-development-key-change-me';

export function createSecretBox(key: string = DEVELOPMENT_SECRET_KEY): SecretBox {
  // Any key string works: it is stretched to 32 bytes with SHA-256.
  const material = createHash('sha256').update(key).digest();
  return {
    seal(clear) {
      if (clear.startsWith(PREFIX)) return clear;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', material, iv);
      const body = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed) {
      if (!sealed.startsWith(PREFIX)) return sealed;
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', material, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      try {
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch (cause) {
        throw new Error('cannot decrypt a stored secret: PALISADE_SECRET_KEY differs from the one it was sealed with', { cause });
      }
    },
    isSealed: (value) => value.startsWith(PREFIX),
  };
}

/** Applies `fn` to the listed secret fields of an object, leaving the rest as it is. */
export function mapSecretFields<T extends object>(value: T, fields: readonly string[], fn: (secret: string) => string): T {
  const copy = { ...value } as Record<string, unknown>;
  for (const field of fields) if (typeof copy[field] === 'string') copy[field] = fn(copy[field] as string);
  return copy as T;
}

export const MASKED_SECRET = '***';
