// The secret fields of an exporter's config: webhook header values and the Kafka SASL password. They
// are stored sealed (SecretBox), answered as MASKED_SECRET, and a value sent back as MASKED_SECRET keeps
// the stored one — the same convention as provider credentials (admin/src/registry/providers.ts).
import { MASKED_SECRET, type Exporter, type SecretBox } from '@palisade/core';

type Config = Record<string, unknown>;

/** Applies `fn` to every secret value of a config of `type`, leaving the rest as it is. */
function mapSecrets(type: Exporter['type'], config: Config, fn: (value: string, path: string[]) => string): Config {
  const out = { ...config };
  if (type === 'webhook' && out.headers && typeof out.headers === 'object') {
    out.headers = Object.fromEntries(
      Object.entries(out.headers as Record<string, unknown>).map(([name, value]) => [name, typeof value === 'string' ? fn(value, ['headers', name]) : value]),
    );
  }
  if (type === 'kafka' && typeof out.sasl_password === 'string') out.sasl_password = fn(out.sasl_password, ['sasl_password']);
  return out;
}

function at(config: Config | undefined, path: string[]): unknown {
  let value: unknown = config;
  for (const key of path) value = value && typeof value === 'object' ? (value as Config)[key] : undefined;
  return value;
}

/** The config as answered: secrets masked. */
export function maskExporter<E extends Exporter>(exporter: E): E {
  return { ...exporter, config: mapSecrets(exporter.type, exporter.config as Config, () => MASKED_SECRET) } as E;
}

/**
 * Seals the secrets of a new or changed config. A MASKED_SECRET value keeps the value stored at the same
 * place in `previous` (forms round-trip what they read); without one it is sealed as sent.
 */
export function sealExporterConfig(type: Exporter['type'], config: Config, secrets: SecretBox, previous?: Config): Config {
  return mapSecrets(type, config, (value, path) => {
    const before = at(previous, path);
    return value === MASKED_SECRET && typeof before === 'string' ? before : secrets.seal(value);
  });
}

/** The exporter with its secrets in clear, for the tester and senders. */
export function openExporter<E extends Exporter>(exporter: E, secrets: SecretBox): E {
  return { ...exporter, config: mapSecrets(exporter.type, exporter.config as Config, (value) => secrets.open(value)) } as E;
}
