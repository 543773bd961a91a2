// The detectors an inspecting gateway calls, each behind its one contract (ARCHITECTURE.md, "Process
// model"): in-process by default (`palisade all`), over HTTP when the service's URL is configured (one
// Deployment per detector in Kubernetes). The two transports run the same code.
import { envInt, envUrl, parseEnv, type EnvValues } from '@palisade/core';
import {
  createContentPolicyEvaluator,
  createContentSafetyAnalyzer,
  loadContentSafetyEnv,
  type AnalyzeRequest,
  type AnalyzeResponse,
  createJsonServiceClient,
  createPiiWorkerDetector,
  createThreatWorkerPool,
  EvaluateResponseSchema,
  PII_INLINE_MAX_CHARS,
  PiiDetectResponseSchema,
  ThreatDetectResponseSchema,
  threatDetectorConfigFromEnv,
  withThreatModelDir,
  type ContentPolicyEvaluator,
  type Detector,
  type EvaluateRequest,
  type EvaluateResponse,
  type PiiDetectRequest,
  type PiiDetectResponse,
  type ThreatDetectRequest,
  type ThreatDetectResponse,
  type ThreatDetector,
} from '@palisade/detectors';
import { ContentSafetyResult, createDecisionClient, createInProcessDecisionPoint, type DecisionPoint } from '../decision/index.js';
import { createNormalizer, createTranslationClient, type Normalizer } from '../normalizer/index.js';

export interface InspectionDetectors {
  normalizer: Normalizer;
  pii: Detector<PiiDetectRequest, PiiDetectResponse>;
  /** Absent when the model could not be loaded: threat checks then count as detector errors. */
  threat: Detector<ThreatDetectRequest, ThreatDetectResponse> | undefined;
  contentPolicy: Detector<EvaluateRequest, EvaluateResponse>;
  /**
   * The guard model: over HTTP (CONTENT_SAFETY_URL) or in-process against CONTENT_SAFETY_MODEL_URL.
   * Without either it answers 503 like the service without a GPU, and the check is skipped (spec).
   */
  contentSafety: Detector<AnalyzeRequest, AnalyzeResponse>;
  decisionPoint: DecisionPoint;
  close(): Promise<void>;
}

/** Where each detector runs: unset = in this process. */
export const DETECTOR_ENV = {
  PII_DETECTOR_URL: envUrl(['http', 'https']),
  THREAT_DETECTOR_URL: envUrl(['http', 'https']),
  CONTENT_POLICY_URL: envUrl(['http', 'https']),
  DECISION_POINT_URL: envUrl(['http', 'https']),
  TRANSLATION_SERVICE_URL: envUrl(['http', 'https']),
  CONTENT_SAFETY_URL: envUrl(['http', 'https']),
  /** Texts longer than this are inspected by the in-process PII detector in worker threads. */
  GATEWAY_INLINE_DETECTION_MAX_CHARS: envInt(0, 16 * 1024 * 1024, PII_INLINE_MAX_CHARS),
  /** Worker threads of the in-process PII detector for long texts; 0 = one per core, at most 2. */
  GATEWAY_PII_WORKERS: envInt(0, 64, 0),
} as const;
export type DetectorConfig = EnvValues<typeof DETECTOR_ENV>;

export interface DetectorsOptions {
  env?: NodeJS.ProcessEnv;
  internalToken?: string | undefined;
  /** Upper bound of one HTTP detector call (the profile's detector_timeout_ms cuts it shorter). */
  httpTimeoutMs?: number;
  logger?: { warn(obj: object, msg?: string): void };
  /**
   * An in-process threat detector to share (`palisade all` runs one model for the threat service and
   * the gateway); the caller closes it. Without it one is loaded from THREAT_DETECTOR_* (device.ts).
   */
  threat?: ThreatDetector;
}

function remote<Req, Res>(url: string, path: string, service: string, parse: (body: unknown) => Res, options: DetectorsOptions) {
  return createJsonServiceClient<Req, Res>({ url, path, service, internalToken: options.internalToken, timeoutMs: options.httpTimeoutMs ?? 60_000, parse });
}

export async function createInspectionDetectors(options: DetectorsOptions = {}): Promise<InspectionDetectors> {
  const config = parseEnv(DETECTOR_ENV, options.env ?? {});
  const closers: Array<() => Promise<void>> = [];

  let pii: InspectionDetectors['pii'];
  if (config.PII_DETECTOR_URL) {
    const client = remote<PiiDetectRequest, PiiDetectResponse>(config.PII_DETECTOR_URL, '/api/v1/detect', 'PII detector', (b) => PiiDetectResponseSchema.parse(b), options);
    closers.push(() => client.close());
    pii = { kind: 'pii', detect: (r, c) => client.call(r, c) };
  } else {
    // Long texts off the event loop: a 1 MiB scan would otherwise hold every other request.
    const local = createPiiWorkerDetector({
      inlineMaxChars: config.GATEWAY_INLINE_DETECTION_MAX_CHARS,
      ...(config.GATEWAY_PII_WORKERS === 0 ? {} : { workers: config.GATEWAY_PII_WORKERS }),
    });
    closers.push(() => local.close());
    pii = local;
  }

  let threat: InspectionDetectors['threat'];
  if (config.THREAT_DETECTOR_URL) {
    const client = remote<ThreatDetectRequest, ThreatDetectResponse>(config.THREAT_DETECTOR_URL, '/api/v1/detect', 'Threat detector', (b) => ThreatDetectResponseSchema.parse(b), options);
    closers.push(() => client.close());
    threat = { kind: 'threat', detect: (r, c) => client.call(r, c) };
  } else if (options.threat) {
    threat = options.threat;
  } else {
    const { device, modelPath, workers } = threatDetectorConfigFromEnv(options.env ?? {});
    let builtin: ThreatDetector | undefined;
    try {
      // Worker threads: features and inference never run on the gateway's event loop.
      builtin = await createThreatWorkerPool({ device, workers, modelPath });
    } catch (error) {
      options.logger?.warn({ err: error }, 'threat model could not be loaded: threat checks count as detector errors');
    }
    if (builtin) {
      // THREAT_MODEL_DIR's classifier beside it; a broken directory stops start-up (ConfigError).
      const local = await withThreatModelDir(builtin, options.env ?? {}, { device });
      closers.push(() => local.close());
      threat = local;
    }
  }

  let contentPolicy: InspectionDetectors['contentPolicy'];
  if (config.CONTENT_POLICY_URL) {
    const client = remote<EvaluateRequest, EvaluateResponse>(config.CONTENT_POLICY_URL, '/api/v1/evaluate', 'Content policy service', (b) => EvaluateResponseSchema.parse(b), options);
    closers.push(() => client.close());
    contentPolicy = { kind: 'content-policy', detect: (r, c) => client.call(r, c) };
  } else {
    const evaluator: ContentPolicyEvaluator = createContentPolicyEvaluator();
    contentPolicy = evaluator;
  }

  let contentSafety: InspectionDetectors['contentSafety'];
  if (config.CONTENT_SAFETY_URL) {
    // The answer is read as the decision point reads it (verdict, categories); the rest passes through.
    const parse = (b: unknown) => ContentSafetyResult.loose().parse(b) as unknown as AnalyzeResponse;
    const client = remote<AnalyzeRequest, AnalyzeResponse>(config.CONTENT_SAFETY_URL, '/api/v1/analyze', 'Content safety service', parse, options);
    closers.push(() => client.close());
    contentSafety = { kind: 'content-safety', detect: (r, c) => client.call(r, c) };
  } else {
    const env = loadContentSafetyEnv(options.env ?? {});
    const analyzer = createContentSafetyAnalyzer({
      modelUrl: env.CONTENT_SAFETY_MODEL_URL,
      modelName: env.CONTENT_SAFETY_MODEL_NAME,
      apiKey: env.CONTENT_SAFETY_API_KEY,
      timeoutMs: env.CONTENT_SAFETY_TIMEOUT_MS,
      ...(options.logger ? { logger: options.logger as { warn(obj: object, msg: string): void } } : {}),
    });
    closers.push(() => analyzer.close());
    contentSafety = analyzer;
  }

  const decisionPoint = config.DECISION_POINT_URL
    ? createDecisionClient({ url: config.DECISION_POINT_URL, internalToken: options.internalToken, timeoutMs: options.httpTimeoutMs ?? 5_000 })
    : createInProcessDecisionPoint();
  closers.push(() => decisionPoint.close());

  const translator = config.TRANSLATION_SERVICE_URL
    ? createTranslationClient({ url: config.TRANSLATION_SERVICE_URL, internalToken: options.internalToken, timeoutMs: options.httpTimeoutMs ?? 10_000 })
    : undefined;
  if (translator) closers.push(() => translator.close());
  const normalizer = createNormalizer(translator ? { translator } : {});

  return {
    normalizer,
    pii,
    threat,
    contentPolicy,
    contentSafety,
    decisionPoint,
    async close() {
      await Promise.allSettled(closers.map((close) => close()));
    },
  };
}
