import t from 'tap';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadThreatModelFiles, threatMetadataPathFor, threatModelPath } from './model-files.js';

t.test('the committed model resolves beside the sources and loads with its metadata', async (t) => {
  const path = threatModelPath();
  t.match(path, /detectors[/\\]models[/\\]threat[/\\]threat-v2\.onnx$/);
  const model = await loadThreatModelFiles(path);
  t.equal(model.metadata.onnx.bytes, model.bytes.byteLength);
  t.ok(model.bytes.byteLength < 50 * 1024 * 1024);
  t.equal(model.metadata.calibration.appliedIn, 'onnx-graph');
});

t.test('a model file that does not match its metadata is refused', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'threat-model-'));
  const onnx = join(dir, 'threat-v2.onnx');
  const bytes = await readFile(threatModelPath());
  bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
  await writeFile(onnx, bytes);
  await copyFile(threatMetadataPathFor(threatModelPath()), threatMetadataPathFor(onnx));
  await t.rejects(loadThreatModelFiles(onnx), /does not match its metadata/);
  await t.rejects(loadThreatModelFiles(join(dir, 'missing.onnx')), { code: 'ENOENT' });
});
