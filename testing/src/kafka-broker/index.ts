// Public API of the Kafka test broker (used by the event exporter's tests).
export { startKafkaBroker } from './broker.js';
export type { KafkaBrokerOptions, KafkaRequestSeen, KafkaTestBroker, KafkaTestRecord } from './types.js';
export type { SaslCredentials, SaslMechanism } from './sasl.js';
export type { CompressionName } from './compression.js';
