// Server side of SASL PLAIN (RFC 4616) and SCRAM-SHA-256/512 (RFC 5802, RFC 7677), the mechanisms a
// Kafka broker offers and kafkajs speaks. Hand-written: the SCRAM packages on npm are client-side only.
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

export type SaslMechanism = 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

export interface SaslCredentials {
  mechanism: SaslMechanism;
  username: string;
  password: string;
}

/** The client failed to authenticate; Kafka answers SASL_AUTHENTICATION_FAILED with this message. */
export class SaslAuthenticationError extends Error {
  override readonly name = 'SaslAuthenticationError';
}

export interface SaslStep {
  /** Bytes for the client (the server-first or server-final message; empty for PLAIN). */
  response: Buffer;
  /** True once the client is authenticated. */
  done: boolean;
}

/** One authentication conversation on one connection. */
export interface SaslExchange {
  step(clientMessage: Buffer): SaslStep;
}

export interface SaslAuthenticator {
  readonly mechanism: SaslMechanism;
  begin(): SaslExchange;
}

// Kafka's own wording, so a failure reads the same as against a real broker.
const invalidCredentials = (mechanism: SaslMechanism): SaslAuthenticationError =>
  new SaslAuthenticationError(`Authentication failed during authentication due to invalid credentials with SASL mechanism ${mechanism}`);

function sameSecret(left: Buffer, right: Buffer): boolean {
  return left.length === right.length && timingSafeEqual(left, right);
}

export function createSaslAuthenticator(credentials: SaslCredentials): SaslAuthenticator {
  return credentials.mechanism === 'PLAIN' ? plainAuthenticator(credentials) : scramAuthenticator(credentials);
}

function plainAuthenticator(credentials: SaslCredentials): SaslAuthenticator {
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return {
    mechanism: 'PLAIN',
    begin: () => ({
      step(clientMessage) {
        // authzid NUL authcid NUL password; an authzid other than the user itself is refused.
        const parts = clientMessage.toString('utf8').split('\u0000');
        if (parts.length !== 3) throw new SaslAuthenticationError('Invalid SASL/PLAIN response: expected 3 tokens');
        const [authorizationId, username, password] = parts as [string, string, string];
        if (authorizationId !== '' && authorizationId !== username) {
          throw new SaslAuthenticationError('Authentication failed: Client requested an authorization id that is different from username');
        }
        const userMatches = sameSecret(digest(username), digest(credentials.username));
        const passwordMatches = sameSecret(digest(password), digest(credentials.password));
        if (!userMatches || !passwordMatches) throw invalidCredentials('PLAIN');
        return { response: Buffer.alloc(0), done: true };
      },
    }),
  };
}

const SCRAM_HASHES = { 'SCRAM-SHA-256': { hash: 'sha256', length: 32 }, 'SCRAM-SHA-512': { hash: 'sha512', length: 64 } } as const;
/** Kafka's default and kafkajs's minimum. */
const SCRAM_ITERATIONS = 4096;

/** RFC 5802 section 5.1: ',' and '=' travel as '=2C' and '=3D'; any other '=' escape is invalid. */
function decodeSaslName(name: string): string {
  if (/=(?!2C|3D)/.test(name)) throw new SaslAuthenticationError('Invalid username: bad "=" escape');
  return name.replace(/=2C/g, ',').replace(/=3D/g, '=');
}

function parseAttributes(message: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const part of message.split(',')) {
    const match = /^([a-zA-Z])=(.*)$/s.exec(part);
    if (!match) throw new SaslAuthenticationError(`Invalid SCRAM message attribute "${part}"`);
    attributes.set(match[1]!, match[2]!);
  }
  return attributes;
}

function scramAuthenticator(credentials: SaslCredentials): SaslAuthenticator {
  const mechanism = credentials.mechanism as keyof typeof SCRAM_HASHES;
  const { hash, length } = SCRAM_HASHES[mechanism];
  const hmac = (key: Buffer, text: string): Buffer => createHmac(hash, key).update(text, 'utf8').digest();
  // What a broker stores for a SCRAM user: salt, iterations, StoredKey and ServerKey (never the password).
  const salt = randomBytes(16);
  const saltedPassword = pbkdf2Sync(credentials.password, salt, SCRAM_ITERATIONS, length, hash);
  const storedKey = createHash(hash).update(hmac(saltedPassword, 'Client Key')).digest();
  const serverKey = hmac(saltedPassword, 'Server Key');

  return {
    mechanism,
    begin() {
      let expected: { gs2Header: string; nonce: string; clientFirstBare: string; serverFirst: string } | undefined;
      return {
        step(clientMessage) {
          const text = clientMessage.toString('utf8');
          if (!expected) {
            // client-first: gs2-header ("n,," or "y,," plus an optional a=authzid) then n=user,r=nonce[,ext]
            const match = /^([ny]),(a=[^,]*)?,(.*)$/s.exec(text);
            if (!match) throw new SaslAuthenticationError('Invalid SCRAM client-first message (channel binding is not supported)');
            const clientFirstBare = match[3]!;
            const attributes = parseAttributes(clientFirstBare);
            const username = decodeSaslName(attributes.get('n') ?? '');
            const clientNonce = attributes.get('r');
            if (!clientNonce) throw new SaslAuthenticationError('Invalid SCRAM client-first message: no nonce');
            const authorizationId = match[2] ? decodeSaslName(match[2].slice(2)) : '';
            if (authorizationId !== '' && authorizationId !== username) {
              throw new SaslAuthenticationError('Authentication failed: Client requested an authorization id that is different from username');
            }
            if (username !== credentials.username) throw invalidCredentials(mechanism);
            const nonce = clientNonce + randomBytes(18).toString('base64');
            const serverFirst = `r=${nonce},s=${salt.toString('base64')},i=${SCRAM_ITERATIONS}`;
            expected = { gs2Header: `${match[1]},${match[2] ?? ''},`, nonce, clientFirstBare, serverFirst };
            return { response: Buffer.from(serverFirst, 'utf8'), done: false };
          }

          // client-final: c=base64(gs2-header),r=nonce,p=base64(ClientProof)
          const proofAt = text.lastIndexOf(',p=');
          if (proofAt < 0) throw new SaslAuthenticationError('Invalid SCRAM client-final message: no proof');
          const clientFinalWithoutProof = text.slice(0, proofAt);
          const attributes = parseAttributes(clientFinalWithoutProof);
          if (attributes.get('c') !== Buffer.from(expected.gs2Header, 'utf8').toString('base64')) {
            throw new SaslAuthenticationError('Invalid SCRAM client-final message: channel binding does not match');
          }
          if (attributes.get('r') !== expected.nonce) throw new SaslAuthenticationError('Invalid SCRAM client-final message: nonce does not match');
          const authMessage = `${expected.clientFirstBare},${expected.serverFirst},${clientFinalWithoutProof}`;
          const clientSignature = hmac(storedKey, authMessage);
          const proof = Buffer.from(text.slice(proofAt + 3), 'base64');
          if (proof.length !== clientSignature.length) throw invalidCredentials(mechanism);
          const clientKey = Buffer.from(proof.map((byte, index) => byte ^ clientSignature[index]!));
          if (!sameSecret(createHash(hash).update(clientKey).digest(), storedKey)) throw invalidCredentials(mechanism);
          const serverSignature = hmac(serverKey, authMessage).toString('base64');
          return { response: Buffer.from(`v=${serverSignature}`, 'utf8'), done: true };
        },
      };
    },
  };
}
