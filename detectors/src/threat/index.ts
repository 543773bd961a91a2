// The threat detector (spec: Threat Detector, port 8090): jailbreak / prompt-injection scoring with the
// committed ONNX model — its contract, the in-process detector, the HTTP service, the feature extractor
// and the device selection. Training and evaluation live in ./train and ./eval (npm scripts).
export { THREAT_DETECTOR_PORT, THREAT_DETECT_PATH, THREAT_DEVICE_INFO_PATH, THREAT_LIMITS, threatWorkerCount } from './limits.js';
export {
  THREAT_DECISIONS,
  ThreatCanonicalSchema,
  ThreatDetectRequestSchema,
  ThreatDetectResponseSchema,
  ThreatTraceContextSchema,
  type ThreatDecision,
  type ThreatDetectRequest,
  type ThreatDetectResponse,
  type ThreatTraceContext,
} from './schemas.js';
export {
  createThreatDetector,
  packThreatWindows,
  threatAbortError,
  threatDetectOver,
  type ThreatDetector,
  type ThreatDetectorOptions,
  type ThreatDeviceInfo,
  type ThreatScoreResult,
} from './detector.js';
export { forEachThreatRun, type ThreatRunVisitor, type ThreatRunsSummary } from './feature-runs.js';
export { createThreatWorkerPool, type ThreatWorkerPool, type ThreatWorkerPoolOptions } from './worker-pool.js';
export { buildThreatService, type ThreatServiceOptions } from './service.js';
export {
  THREAT_DETECTOR_ENV,
  THREAT_DEVICES,
  createThreatSession,
  threatCudaProviderPath,
  threatDetectorConfigFromEnv,
  type ThreatDetectorEnvConfig,
  type ThreatDevice,
  type ThreatLogger,
  type ThreatSession,
  type ThreatSessionOptions,
} from './device.js';
export {
  DEFAULT_THREAT_FEATURE_CONFIG,
  createThreatFeatureExtractor,
  type ThreatFeatureConfig,
  type ThreatFeatureExtractor,
  type ThreatFeatureExtractorOptions,
  type ThreatPromptFeatures,
  type ThreatSparseVector,
  type ThreatViewKind,
  type ThreatWindow,
  type ThreatWindowVector,
} from './features.js';
export { normalizeThreatText, resolveThreatHomoglyphs, stripThreatInvisibles } from './normalize.js';
export { threatTextViews, type ThreatTextViews } from './deobfuscate.js';
export { decodeThreatBase64Blocks } from './deobfuscate-base64.js';
export { undoThreatLeetspeak } from './deobfuscate-leet.js';
export { joinThreatSpacedLetters } from './deobfuscate-spaced.js';
export { THREAT_SIGNALS, THREAT_SIGNAL_FAMILIES, threatSignalsIn, type ThreatSignal, type ThreatSignalFamily } from './signals.js';
export { THREAT_CONCEPTS, createThreatConceptLexicon, type ThreatConcept, type ThreatConceptLexicon } from './concepts.js';
export {
  THREAT_MODEL_NAME,
  ThreatModelMetadataSchema,
  loadThreatModelFiles,
  threatModelDir,
  threatModelPath,
  type LoadedThreatModel,
  type ThreatModelMetadata,
} from './model-files.js';
export { buildThreatOnnxModel, THREAT_ONNX_INPUTS, THREAT_ONNX_OUTPUTS, type ThreatOnnxModelOptions } from './onnx-graph.js';
export { applyThreatCalibration, fitThreatCalibration, fitThreatPlatt, type ThreatCalibration } from './calibration.js';
export { emptyThreatHead, threatHeadLogit, threatPromptLogit, type ThreatHeadKind, type ThreatHeadWeights } from './head.js';
export { formatThreatSpeed, measureThreatSpeed, threatSpeedPrompt, THREAT_SPEED_DEFAULTS, type ThreatSpeedOptions, type ThreatSpeedReport } from './speed.js';
export * from './external/index.js';
