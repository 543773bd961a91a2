// The secret fields of an exporter's config (marked in its model: webhook header values, the Kafka SASL
// password) are stored sealed (SecretBox), answered as MASKED_SECRET, and a value sent back as
// MASKED_SECRET keeps the stored one — the same convention as provider credentials
// (admin/src/registry/providers.ts).
import { EXPORTER_CONFIG_SCHEMAS, MASKED_SECRET, mapSecretValues, valueAt, type Exporter, type SecretBox } from '@palisade/core';

type Config = Record<string, unknown>;

/** Applies `fn` to every secret value of a config of `type`, leaving the rest as it is. */
function mapSecrets(type: Exporter['type'], config: Config, fn: (value: string, path: ReadonlyArray<string | number>) => string): Config {
  return mapSecretValues(EXPORTER_CONFIG_SCHEMAS[type], config, fn) as Config;
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
    const before = valueAt(previous, path);
    return value === MASKED_SECRET && typeof before === 'string' ? before : secrets.seal(value);
  });
}

/** The exporter with its secrets in clear, for the tester and senders. */
export function openExporter<E extends Exporter>(exporter: E, secrets: SecretBox): E {
  return { ...exporter, config: mapSecrets(exporter.type, exporter.config as Config, (value) => secrets.open(value)) } as E;
}
