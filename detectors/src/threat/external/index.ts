// A pretrained Hugging Face ONNX classifier (THREAT_MODEL_DIR) beside the built-in threat model.
export { createDynamicBatcher, type DynamicBatcher, type DynamicBatcherOptions } from './batcher.js';
export { attackProbabilities, createExternalClassifier, type ExternalClassifier, type ExternalClassifierOptions } from './classifier.js';
export { THREAT_ENSEMBLES, THREAT_EXTERNAL_ENV, combineThreatDetectors, combineThreatScores, withThreatModelDir, type ThreatEnsemble, type ThreatModelDirOptions } from './ensemble.js';
export { EXTERNAL_DEFAULT_MAX_LENGTH, attackLabelsOf, loadExternalModelDir, type ExternalModelDir } from './model-dir.js';
export { createExternalTokenizer, type ExternalTokenizer } from './tokenizer.js';
