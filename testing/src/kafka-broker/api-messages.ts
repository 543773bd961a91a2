// Request decoders and response encoders of the APIs this broker implements, per version, as the Kafka
// protocol guide (and kafkajs's protocol/requests/*) define them. Request header v1 and response header
// v0 throughout: none of these versions is a "flexible" (tagged-field) one.
import { WireReader, WireWriter } from './wire.js';

/** The Kafka API names by key, for the request log. */
const API_NAMES = [
  'Produce', 'Fetch', 'ListOffsets', 'Metadata', 'LeaderAndIsr', 'StopReplica', 'UpdateMetadata', 'ControlledShutdown',
  'OffsetCommit', 'OffsetFetch', 'FindCoordinator', 'JoinGroup', 'Heartbeat', 'LeaveGroup', 'SyncGroup', 'DescribeGroups',
  'ListGroups', 'SaslHandshake', 'ApiVersions', 'CreateTopics', 'DeleteTopics', 'DeleteRecords', 'InitProducerId',
  'OffsetForLeaderEpoch', 'AddPartitionsToTxn', 'AddOffsetsToTxn', 'EndTxn', 'WriteTxnMarkers', 'TxnOffsetCommit',
  'DescribeAcls', 'CreateAcls', 'DeleteAcls', 'DescribeConfigs', 'AlterConfigs', 'AlterReplicaLogDirs', 'DescribeLogDirs',
  'SaslAuthenticate', 'CreatePartitions', 'CreateDelegationToken', 'RenewDelegationToken', 'ExpireDelegationToken',
  'DescribeDelegationToken', 'DeleteGroups', 'ElectLeaders', 'IncrementalAlterConfigs', 'AlterPartitionReassignments',
  'ListPartitionReassignments', 'OffsetDelete',
] as const;

export const apiName = (apiKey: number): string => API_NAMES[apiKey] ?? `Unknown(${apiKey})`;

export const API_KEYS = { Produce: 0, Metadata: 3, SaslHandshake: 17, ApiVersions: 18, InitProducerId: 22, SaslAuthenticate: 36 } as const;

/**
 * Advertised in ApiVersions, so clients pick from these. Produce starts at v3, the first to carry
 * RecordBatch v2; SaslHandshake at v1, since v0 would mean raw SASL frames instead of SaslAuthenticate.
 */
export const SUPPORTED_VERSIONS: ReadonlyMap<number, { min: number; max: number }> = new Map([
  [API_KEYS.Produce, { min: 3, max: 7 }],
  [API_KEYS.Metadata, { min: 0, max: 6 }],
  [API_KEYS.SaslHandshake, { min: 1, max: 1 }],
  [API_KEYS.ApiVersions, { min: 0, max: 2 }],
  [API_KEYS.InitProducerId, { min: 0, max: 1 }],
  [API_KEYS.SaslAuthenticate, { min: 0, max: 1 }],
]);

export interface RequestHeader {
  apiKey: number;
  apiVersion: number;
  correlationId: number;
  clientId: string | null;
}

export function readRequestHeader(reader: WireReader): RequestHeader {
  return { apiKey: reader.int16(), apiVersion: reader.int16(), correlationId: reader.int32(), clientId: reader.nullableString() };
}

/** Size-prefixed response frame: length, correlation id (response header v0), body. */
export function responseFrame(correlationId: number, body: Buffer): Buffer {
  const frame = Buffer.alloc(8);
  frame.writeInt32BE(4 + body.length, 0);
  frame.writeInt32BE(correlationId, 4);
  return Buffer.concat([frame, body]);
}

// --- ApiVersions -------------------------------------------------------------------------------------

export function encodeApiVersionsResponse(version: number, errorCode: number): Buffer {
  const writer = new WireWriter().int16(errorCode);
  writer.array([...SUPPORTED_VERSIONS], (w, [apiKey, range]) => w.int16(apiKey).int16(range.min).int16(range.max));
  if (version >= 1) writer.int32(0); // throttle_time_ms
  return writer.toBuffer();
}

// --- Metadata ----------------------------------------------------------------------------------------

export interface MetadataRequest {
  /** null: every topic. */
  topics: string[] | null;
  allowAutoTopicCreation: boolean;
}

export function decodeMetadataRequest(reader: WireReader, version: number): MetadataRequest {
  const topics = reader.nullableArray((r) => r.string());
  // v0 has no null array: an empty one means "all topics".
  const allTopics = topics === null || (version === 0 && topics.length === 0);
  const allowAutoTopicCreation = version >= 4 ? reader.boolean() : true;
  return { topics: allTopics ? null : topics, allowAutoTopicCreation };
}

export interface MetadataTopic {
  errorCode: number;
  name: string;
  /** Partition ids, all led by this broker. */
  partitions: number[];
}

export interface MetadataResponse {
  nodeId: number;
  host: string;
  port: number;
  clusterId: string;
  topics: MetadataTopic[];
}

export function encodeMetadataResponse(version: number, response: MetadataResponse): Buffer {
  const writer = new WireWriter();
  if (version >= 3) writer.int32(0); // throttle_time_ms
  writer.array([response], (w, broker) => {
    w.int32(broker.nodeId).nullableString(broker.host).int32(broker.port);
    if (version >= 1) w.nullableString(null); // rack
  });
  if (version >= 2) writer.nullableString(response.clusterId);
  if (version >= 1) writer.int32(response.nodeId); // controller_id
  writer.array(response.topics, (w, topic) => {
    w.int16(topic.errorCode).nullableString(topic.name);
    if (version >= 1) w.boolean(false); // is_internal
    w.array(topic.partitions, (pw, partition) => {
      pw.int16(0).int32(partition).int32(response.nodeId);
      pw.array([response.nodeId], (rw, id) => rw.int32(id)); // replicas
      pw.array([response.nodeId], (rw, id) => rw.int32(id)); // isr
      if (version >= 5) pw.array([] as number[], (rw, id) => rw.int32(id)); // offline_replicas
    });
  });
  return writer.toBuffer();
}

// --- Produce -----------------------------------------------------------------------------------------

export interface ProduceRequest {
  transactionalId: string | null;
  acks: number;
  timeoutMs: number;
  topics: Array<{ name: string; partitions: Array<{ partition: number; recordSet: Buffer | null }> }>;
}

export function decodeProduceRequest(reader: WireReader): ProduceRequest {
  return {
    transactionalId: reader.nullableString(),
    acks: reader.int16(),
    timeoutMs: reader.int32(),
    topics: reader.array((t) => ({
      name: t.string(),
      partitions: t.array((p) => ({ partition: p.int32(), recordSet: p.nullableBytes() })),
    })),
  };
}

export interface ProducePartitionResult {
  partition: number;
  errorCode: number;
  baseOffset: bigint;
  logStartOffset: bigint;
}

export function encodeProduceResponse(version: number, topics: Array<{ name: string; partitions: ProducePartitionResult[] }>): Buffer {
  const writer = new WireWriter();
  writer.array(topics, (w, topic) => {
    w.nullableString(topic.name);
    w.array(topic.partitions, (pw, result) => {
      pw.int32(result.partition).int16(result.errorCode).int64(result.baseOffset).int64(-1); // log_append_time: -1 = CreateTime topic
      if (version >= 5) pw.int64(result.logStartOffset);
    });
  });
  writer.int32(0); // throttle_time_ms
  return writer.toBuffer();
}

// --- SASL --------------------------------------------------------------------------------------------

export function encodeSaslHandshakeResponse(errorCode: number, mechanisms: string[]): Buffer {
  return new WireWriter().int16(errorCode).array(mechanisms, (w, mechanism) => w.nullableString(mechanism)).toBuffer();
}

export function encodeSaslAuthenticateResponse(version: number, errorCode: number, errorMessage: string | null, authBytes: Buffer): Buffer {
  const writer = new WireWriter().int16(errorCode).nullableString(errorMessage).nullableBytes(authBytes);
  if (version >= 1) writer.int64(0); // session_lifetime_ms: 0 = the session does not expire
  return writer.toBuffer();
}

// --- InitProducerId ----------------------------------------------------------------------------------

export function decodeInitProducerIdRequest(reader: WireReader): { transactionalId: string | null; transactionTimeoutMs: number } {
  return { transactionalId: reader.nullableString(), transactionTimeoutMs: reader.int32() };
}

export function encodeInitProducerIdResponse(errorCode: number, producerId: bigint, producerEpoch: number): Buffer {
  return new WireWriter().int32(0).int16(errorCode).int64(producerId).int16(producerEpoch).toBuffer();
}
