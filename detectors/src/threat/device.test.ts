import t from 'tap';
import { ConfigError } from '@palisade/core';
import { emptyThreatHead } from './head.js';
import { threatWorkerCount } from './limits.js';
import { buildThreatOnnxModel } from './onnx-graph.js';
import { createThreatSession, threatCudaProviderPath, threatDetectorConfigFromEnv } from './device.js';

const model = buildThreatOnnxModel(emptyThreatHead('linear', 16, 1), { a: 1, b: 0, ruleWeights: [] });

t.test('THREAT_DETECTOR_ML_DEVICE: cpu by default, cuda accepted, gpu refused; THREAT_DETECTOR_WORKERS', async (t) => {
  t.same(threatDetectorConfigFromEnv({}), { device: 'cpu', modelPath: undefined, workers: threatWorkerCount() });
  t.equal(threatDetectorConfigFromEnv({ THREAT_DETECTOR_WORKERS: '3' }).workers, 3);
  t.throws(() => threatDetectorConfigFromEnv({ THREAT_DETECTOR_WORKERS: '0' }), ConfigError);
  t.equal(threatDetectorConfigFromEnv({ THREAT_DETECTOR_ML_DEVICE: 'cuda' }).device, 'cuda');
  t.throws(() => threatDetectorConfigFromEnv({ THREAT_DETECTOR_ML_DEVICE: 'gpu' }), ConfigError);
  t.equal(threatDetectorConfigFromEnv({ THREAT_DETECTOR_MODEL_PATH: '/m/x.onnx' }).modelPath, '/m/x.onnx');
});

t.test('cuda without the CUDA provider library: CPU and exactly one warning', async (t) => {
  const warnings: string[] = [];
  const s = await createThreatSession(model, { device: 'cuda', intraOpThreads: 1, logger: { warn: (m) => warnings.push(m) }, cudaInstalled: () => false });
  t.equal(s.device, 'cpu');
  t.equal(s.requestedDevice, 'cuda');
  t.same(s.executionProviders, ['cpu']);
  t.equal(warnings.length, 1);
  t.match(warnings[0], /THREAT_DETECTOR_ML_DEVICE=cuda.*using the CPU/);
  await s.session.release();
});

t.test('cuda whose provider fails to start: CPU and one warning', async (t) => {
  const warnings: string[] = [];
  // Claims the library is there; on a machine without CUDA the session start fails and falls back.
  const s = await createThreatSession(model, { device: 'cuda', intraOpThreads: 1, logger: { warn: (m) => warnings.push(m) }, cudaInstalled: () => true });
  if (s.device === 'cuda') {
    t.equal(warnings.length, 0, 'a real GPU: no warning');
  } else {
    t.equal(warnings.length, 1);
    t.match(warnings[0], /did not start/);
  }
  await s.session.release();
});

t.test('cpu asks for nothing else and warns about nothing', async (t) => {
  const warnings: string[] = [];
  const s = await createThreatSession(model, { device: 'cpu', intraOpThreads: 1, logger: { warn: (m) => warnings.push(m) } });
  t.equal(s.device, 'cpu');
  t.same(warnings, []);
  t.match(threatCudaProviderPath(), /onnxruntime-node[/\\]bin[/\\]napi-v6[/\\].*onnxruntime_providers_cuda/);
  await s.session.release();
});
