import { sql as initial } from './001-initial.js';
import { sql as policyBundles } from './002-policy-bundles.js';
import { sql as identityProvider } from './003-identity-provider.js';
import { sql as usageAndReportLeases } from './004-usage-and-report-leases.js';
import { sql as auditSecretHeaders } from './005-audit-secret-headers.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Every migration in order. Append new ones; never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'policy-bundles', sql: policyBundles },
  { version: 3, name: 'identity-provider', sql: identityProvider },
  { version: 4, name: 'usage-and-report-leases', sql: usageAndReportLeases },
  { version: 5, name: 'audit-secret-headers', sql: auditSecretHeaders },
];
