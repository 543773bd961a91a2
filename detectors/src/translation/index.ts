// The translation detector (spec: Translation Service, port 8087): its contract, the in-process
// translator over a Marian ONNX model, the HTTP service, and a toy model for tests and offline demos.
export { TRANSLATION_LIMITS, TRANSLATION_SERVICE_PORT } from './limits.js';
export { TranslateRequestSchema, type TranslateRequest, type TranslateResponse, type TranslationDeviceInfo } from './schemas.js';
export { TRANSLATION_DEVICES, executionProvidersFor as translationExecutionProviders, probeCuda as probeTranslationCuda, type CudaProbe as TranslationCudaProbe, type TranslationDevice } from './device.js';
export { createMarianTokenizer as createTranslationTokenizer, type TranslationTokenizer, type MarianSpecialIds as TranslationSpecialIds } from './tokenizer.js';
export { readMarianModelDir as readTranslationModelDir, findMarianModelDirs as findTranslationModelDirs, type MarianModelDir as TranslationModelDir } from './model-dir.js';
export { createTranslator, chunkSourceIds as translationChunks, type Translator, type TranslatorOptions, type TranslatorLogger } from './translator.js';
export {
  TRANSLATE_PATH,
  TRANSLATION_DEVICE_INFO_PATH,
  TRANSLATION_ENV,
  buildTranslationService,
  loadTranslationEnv,
  type TranslationEnv,
  type TranslationServiceOptions,
} from './service.js';
export { writeTinyTranslationModel, type TinyTranslationModelSpec } from './tiny-model.js';
