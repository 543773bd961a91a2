// passthrough (the default): the client's Authorization goes upstream unchanged.
import type { AppliedAuth } from './types.js';

export function passthroughAuth(clientAuthorization: string | undefined): AppliedAuth {
  const set: Record<string, string> = clientAuthorization === undefined || clientAuthorization === '' ? {} : { authorization: clientAuthorization };
  return { type: 'passthrough', strip: ['authorization'], set };
}
