// The committed model: detectors/models/threat/<name>.onnx and its metadata <name>.json (version,
// feature configuration, calibration, training summary and figures). Paths resolve from this module's
// URL, which lands in detectors/models/threat from both src/threat (tests) and dist/threat (build).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { THREAT_SIGNAL_FAMILIES } from './signals.js';

export const THREAT_MODEL_NAME = 'threat-v2';
export const THREAT_MODEL_DIR_URL = new URL('../../models/threat/', import.meta.url);

export function threatModelDir(): string {
  return fileURLToPath(THREAT_MODEL_DIR_URL);
}

export function threatModelPath(name: string = THREAT_MODEL_NAME): string {
  return fileURLToPath(new URL(`${name}.onnx`, THREAT_MODEL_DIR_URL));
}

/** The metadata file beside an .onnx file. */
export function threatMetadataPathFor(modelPath: string): string {
  return modelPath.replace(/\.onnx$/, '') + '.json';
}

export const ThreatFeatureConfigSchema = z.object({
  dimensionsLog2: z.number().int().min(4).max(24),
  charNgramMin: z.number().int().min(1),
  charNgramMax: z.number().int().min(1).max(8),
  wordNgramMax: z.number().int().min(1).max(2),
  conceptNgramMax: z.number().int().min(1).max(3),
  windowChars: z.number().int().positive(),
  windowStride: z.number().int().positive(),
  hashSeed: z.number().int(),
  charWeight: z.number(),
  wordWeight: z.number(),
  conceptWeight: z.number(),
  signalWeight: z.number(),
  // Absent in models trained before the position group existed: off.
  positionWeight: z.number().default(0),
  headChars: z.number().int().positive().default(160),
});

const FigureSchema = z.record(z.string(), z.unknown());

export const ThreatModelMetadataSchema = z.object({
  name: z.string(),
  /** What responses report as model_version: name and the first hex digits of the ONNX file's SHA-256. */
  version: z.string(),
  onnx: z.object({ file: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().positive(), opset: z.number().int() }),
  features: ThreatFeatureConfigSchema,
  /** Order of the graph's `rules` input. */
  ruleInputs: z.array(z.enum(THREAT_SIGNAL_FAMILIES)),
  head: z.object({ kind: z.enum(['linear', 'mlp']), dimensions: z.number().int().positive(), hidden: z.number().int().positive() }),
  calibration: z.object({
    method: z.string(),
    a: z.number(),
    b: z.number(),
    ruleWeights: z.record(z.string(), z.number()),
    /** Where it is applied: folded into the ONNX graph's `probability` output. */
    appliedIn: z.literal('onnx-graph'),
  }),
  training: z.record(z.string(), z.unknown()),
  figures: z.record(z.string(), FigureSchema),
});
export type ThreatModelMetadata = z.infer<typeof ThreatModelMetadataSchema>;

export interface LoadedThreatModel {
  path: string;
  bytes: Uint8Array;
  metadata: ThreatModelMetadata;
}

/** Reads a model and its metadata and checks that they belong together (SHA-256 of the bytes). */
export async function loadThreatModelFiles(modelPath: string = threatModelPath()): Promise<LoadedThreatModel> {
  const [bytes, json] = await Promise.all([readFile(modelPath), readFile(threatMetadataPathFor(modelPath), 'utf8')]);
  const metadata = ThreatModelMetadataSchema.parse(JSON.parse(json));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== metadata.onnx.sha256) {
    throw new Error(`${modelPath}: SHA-256 ${sha256} does not match its metadata (${metadata.onnx.sha256}); retrain or restore both files together`);
  }
  return { path: modelPath, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), metadata };
}
