// The session cookie: the user's identity and tokens, encrypted and authenticated with AES-256-GCM
// (core's SecretBox) under the proxy's cookie secret, HTTP-only, SameSite=Lax, Secure under HTTPS.
// Tampering makes it unreadable, which is treated as no session. The login's PKCE verifier, state,
// nonce and return path travel in a second short-lived cookie of the same kind.
import type { SecretBox } from '@palisade/core';
import type { ForwardedUser } from './identity.js';

export interface Session {
  user: ForwardedUser;
  idToken?: string | undefined;
  refreshToken?: string | undefined;
  accessToken?: string | undefined;
  /** Unix ms. */
  createdAt: number;
  refreshedAt: number;
  /** When the access token expires (Unix ms); refreshed before. */
  expiresAt: number;
}

export interface PendingLogin {
  verifier: string;
  state: string;
  nonce: string;
  returnTo: string;
  createdAt: number;
}

export interface CookieOptions {
  name: string;
  secure: boolean;
  maxAgeS: number;
}

export const LOGIN_COOKIE_SUFFIX = '_login';
export const LOGIN_COOKIE_MAX_AGE_S = 600;

export function serializeCookie(name: string, value: string, options: { secure: boolean; maxAgeS: number; path?: string }): string {
  const parts = [`${name}=${value}`, `Path=${options.path ?? '/'}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${options.maxAgeS}`];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** The value of cookie `name` in a Cookie header (first one); linear in the header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function createCookieCodec(box: SecretBox) {
  const PREFIX = 'enc:v1:';
  return {
    seal(value: object): string {
      // The box's prefix is fixed; the cookie carries only the base64url body.
      return Buffer.from(box.seal(JSON.stringify(value)).slice(PREFIX.length), 'base64').toString('base64url');
    },
    open<T>(cookie: string | undefined): T | undefined {
      if (!cookie || cookie.length > 8192) return undefined;
      try {
        return JSON.parse(box.open(PREFIX + Buffer.from(cookie, 'base64url').toString('base64'))) as T;
      } catch {
        return undefined;
      }
    },
  };
}
export type CookieCodec = ReturnType<typeof createCookieCodec>;
