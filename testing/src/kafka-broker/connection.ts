// One client connection: splits the byte stream into size-prefixed frames, answers them strictly in
// order (Kafka clients match responses by correlation id but expect them in request order), and keeps the
// connection's SASL state. A frame it cannot parse, or an API it does not implement, closes the
// connection with a log line, as a Kafka broker does.
import type { Socket } from 'node:net';
import {
  API_KEYS,
  apiName,
  decodeInitProducerIdRequest,
  decodeMetadataRequest,
  decodeProduceRequest,
  encodeApiVersionsResponse,
  encodeInitProducerIdResponse,
  encodeMetadataResponse,
  encodeProduceResponse,
  encodeSaslAuthenticateResponse,
  encodeSaslHandshakeResponse,
  readRequestHeader,
  responseFrame,
  SUPPORTED_VERSIONS,
  type MetadataTopic,
  type ProducePartitionResult,
  type RequestHeader,
} from './api-messages.js';
import type { Decompressor } from './compression.js';
import { ERROR_CODES } from './error-codes.js';
import type { PartitionLog } from './partition-log.js';
import { BatchRejectedError, decodeRecordSet } from './record-batch.js';
import { SaslAuthenticationError, type SaslAuthenticator, type SaslExchange } from './sasl.js';
import type { KafkaRequestSeen } from './types.js';
import { MalformedRequestError, WireReader } from './wire.js';

/** Kafka's socket.request.max.bytes default. */
const MAX_FRAME_BYTES = 100 * 1024 * 1024;
const INVALID_REQUEST = 42;
const LEGAL_TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

/** What a connection needs from the broker. */
export interface BrokerContext {
  readonly nodeId: number;
  readonly clusterId: string;
  readonly host: string;
  port(): number;
  readonly sasl: SaslAuthenticator | null;
  readonly decompressor: Decompressor;
  topic(name: string): PartitionLog | undefined;
  createTopic(name: string): PartitionLog;
  topicNames(): string[];
  nextProducerId(): bigint;
  requestSeen(request: KafkaRequestSeen): void;
  recordsAppended(topic: string): void;
  log(message: string): void;
}

type SaslState = { phase: 'handshake' } | { phase: 'authenticating'; exchange: SaslExchange } | { phase: 'authenticated' };

/** Why the connection is closed after a request, if it is. */
class CloseConnection extends Error {
  override readonly name = 'CloseConnection';
}

export function serveConnection(socket: Socket, context: BrokerContext): void {
  const peer = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
  let pending: Buffer = Buffer.alloc(0);
  let queue: Promise<void> = Promise.resolve();
  let closing = false;
  let sasl: SaslState = context.sasl ? { phase: 'handshake' } : { phase: 'authenticated' };

  const close = (reason: string, afterFlush = false): void => {
    if (closing) return;
    closing = true;
    context.log(`kafka test broker: closing connection from ${peer}: ${reason}`);
    if (afterFlush) socket.end();
    else socket.destroy();
  };

  const send = (header: RequestHeader, body: Buffer): void => {
    if (!socket.destroyed && !closing) socket.write(responseFrame(header.correlationId, body));
  };

  socket.on('error', () => {
    // A reset by the client (or by stop()) ends the connection; there is nobody to answer.
  });

  socket.on('data', (chunk: Buffer) => {
    if (closing) return;
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const size = pending.readInt32BE(0);
      if (size < 8 || size > MAX_FRAME_BYTES) {
        close(`malformed frame: size ${size}`);
        return;
      }
      if (pending.length < 4 + size) break;
      const frame = pending.subarray(4, 4 + size);
      pending = pending.subarray(4 + size);
      queue = queue.then(async () => {
        if (closing) return;
        try {
          await handleFrame(frame);
        } catch (error) {
          if (error instanceof CloseConnection) close(error.message, true);
          else if (error instanceof MalformedRequestError) close(`malformed request: ${error.message}`);
          else close(`internal error: ${(error as Error).stack ?? String(error)}`);
        }
      });
    }
  });

  async function handleFrame(frame: Buffer): Promise<void> {
    const reader = new WireReader(frame);
    const header = readRequestHeader(reader);
    context.requestSeen({ api: apiName(header.apiKey), version: header.apiVersion, clientId: header.clientId });

    const range = SUPPORTED_VERSIONS.get(header.apiKey);
    if (!range) throw new CloseConnection(`unsupported API ${apiName(header.apiKey)} (key ${header.apiKey}) v${header.apiVersion}`);
    if (header.apiKey === API_KEYS.ApiVersions) {
      // A version we do not know is answered in v0 form with UNSUPPORTED_VERSION, so the client retries lower.
      const known = header.apiVersion <= range.max;
      send(header, encodeApiVersionsResponse(known ? header.apiVersion : 0, known ? ERROR_CODES.NONE : ERROR_CODES.UNSUPPORTED_VERSION));
      return;
    }
    if (header.apiVersion < range.min || header.apiVersion > range.max) {
      throw new CloseConnection(`unsupported version ${header.apiVersion} of ${apiName(header.apiKey)} (supported ${range.min}-${range.max})`);
    }

    if (header.apiKey === API_KEYS.SaslHandshake) return handleSaslHandshake(header, reader);
    if (header.apiKey === API_KEYS.SaslAuthenticate) return handleSaslAuthenticate(header, reader);
    if (sasl.phase !== 'authenticated') {
      throw new CloseConnection(`${apiName(header.apiKey)} request before SASL authentication completed`);
    }
    if (header.apiKey === API_KEYS.Metadata) return handleMetadata(header, reader);
    if (header.apiKey === API_KEYS.Produce) return handleProduce(header, reader);
    if (header.apiKey === API_KEYS.InitProducerId) return handleInitProducerId(header, reader);
    throw new CloseConnection(`no handler for ${apiName(header.apiKey)}`);
  }

  function handleSaslHandshake(header: RequestHeader, reader: WireReader): void {
    const mechanism = reader.string();
    if (!context.sasl) {
      send(header, encodeSaslHandshakeResponse(ERROR_CODES.ILLEGAL_SASL_STATE, []));
      throw new CloseConnection('SaslHandshake on a listener without SASL');
    }
    if (sasl.phase !== 'handshake') {
      send(header, encodeSaslHandshakeResponse(ERROR_CODES.ILLEGAL_SASL_STATE, [context.sasl.mechanism]));
      throw new CloseConnection('SaslHandshake after the handshake');
    }
    if (mechanism !== context.sasl.mechanism) {
      send(header, encodeSaslHandshakeResponse(ERROR_CODES.UNSUPPORTED_SASL_MECHANISM, [context.sasl.mechanism]));
      throw new CloseConnection(`client asked for SASL mechanism ${mechanism}, enabled is ${context.sasl.mechanism}`);
    }
    sasl = { phase: 'authenticating', exchange: context.sasl.begin() };
    send(header, encodeSaslHandshakeResponse(ERROR_CODES.NONE, [context.sasl.mechanism]));
  }

  function handleSaslAuthenticate(header: RequestHeader, reader: WireReader): void {
    const authBytes = reader.bytes();
    if (sasl.phase !== 'authenticating') {
      send(header, encodeSaslAuthenticateResponse(header.apiVersion, ERROR_CODES.ILLEGAL_SASL_STATE, 'SaslAuthenticate outside a SASL handshake', Buffer.alloc(0)));
      throw new CloseConnection(`SaslAuthenticate in SASL phase ${sasl.phase}`);
    }
    try {
      const step = sasl.exchange.step(authBytes);
      if (step.done) sasl = { phase: 'authenticated' };
      send(header, encodeSaslAuthenticateResponse(header.apiVersion, ERROR_CODES.NONE, null, step.response));
    } catch (error) {
      if (!(error instanceof SaslAuthenticationError)) throw error;
      send(header, encodeSaslAuthenticateResponse(header.apiVersion, ERROR_CODES.SASL_AUTHENTICATION_FAILED, error.message, Buffer.alloc(0)));
      throw new CloseConnection(`SASL authentication failed: ${error.message}`);
    }
  }

  function handleMetadata(header: RequestHeader, reader: WireReader): void {
    const request = decodeMetadataRequest(reader, header.apiVersion);
    const topics: MetadataTopic[] = (request.topics ?? context.topicNames()).map((name) => {
      if (!LEGAL_TOPIC_NAME.test(name) || name === '.' || name === '..') return { errorCode: ERROR_CODES.INVALID_TOPIC_EXCEPTION, name, partitions: [] };
      if (context.topic(name)) return { errorCode: ERROR_CODES.NONE, name, partitions: [0] };
      if (!request.allowAutoTopicCreation) return { errorCode: ERROR_CODES.UNKNOWN_TOPIC_OR_PARTITION, name, partitions: [] };
      context.createTopic(name);
      return { errorCode: ERROR_CODES.NONE, name, partitions: [0] };
    });
    send(header, encodeMetadataResponse(header.apiVersion, { nodeId: context.nodeId, host: context.host, port: context.port(), clusterId: context.clusterId, topics }));
  }

  async function handleProduce(header: RequestHeader, reader: WireReader): Promise<void> {
    const request = decodeProduceRequest(reader);
    const validAcks = request.acks === 0 || request.acks === 1 || request.acks === -1;
    const results: Array<{ name: string; partitions: ProducePartitionResult[] }> = [];
    for (const topic of request.topics) {
      const partitions: ProducePartitionResult[] = [];
      for (const { partition, recordSet } of topic.partitions) {
        partitions.push(await appendPartition(topic.name, partition, recordSet, validAcks, header.apiVersion));
      }
      results.push({ name: topic.name, partitions });
    }
    // acks=0: the client expects no answer at all.
    if (request.acks !== 0) send(header, encodeProduceResponse(header.apiVersion, results));
  }

  async function appendPartition(topicName: string, partition: number, recordSet: Buffer | null, validAcks: boolean, version: number): Promise<ProducePartitionResult> {
    const refused = (errorCode: number, why: string): ProducePartitionResult => {
      context.log(`kafka test broker: refused produce to ${topicName}-${partition} from ${peer}: ${why}`);
      return { partition, errorCode, baseOffset: -1n, logStartOffset: -1n };
    };
    if (!validAcks) return refused(ERROR_CODES.INVALID_REQUIRED_ACKS, 'acks must be 0, 1 or -1');
    const log = context.topic(topicName);
    // Topics are created by Metadata (auto-creation), as on a Kafka broker; Produce does not create them.
    if (!log || partition !== 0) return refused(ERROR_CODES.UNKNOWN_TOPIC_OR_PARTITION, 'no such topic-partition');
    if (!recordSet) return refused(ERROR_CODES.CORRUPT_MESSAGE, 'null record set');
    try {
      const batch = await decodeRecordSet(recordSet, context.decompressor, version);
      const { errorCode, baseOffset } = log.append(batch);
      if (errorCode !== ERROR_CODES.NONE) return refused(errorCode, `idempotent producer ${batch.producerId} sequence ${batch.baseSequence} refused`);
      if (batch.records.length > 0) context.recordsAppended(topicName);
      return { partition, errorCode, baseOffset, logStartOffset: 0n };
    } catch (error) {
      if (error instanceof BatchRejectedError) return refused(error.code, error.message);
      throw error;
    }
  }

  function handleInitProducerId(header: RequestHeader, reader: WireReader): void {
    const request = decodeInitProducerIdRequest(reader);
    if (request.transactionalId !== null) {
      // Transactions need a coordinator and AddPartitionsToTxn/EndTxn, which this broker does not have.
      context.log(`kafka test broker: refused InitProducerId for transactional id ${request.transactionalId}: transactions are not implemented`);
      send(header, encodeInitProducerIdResponse(INVALID_REQUEST, -1n, -1));
      return;
    }
    send(header, encodeInitProducerIdResponse(ERROR_CODES.NONE, context.nextProducerId(), 0));
  }
}
