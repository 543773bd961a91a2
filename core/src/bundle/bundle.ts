// The OPA-format policy bundle (DECISIONS.md, "Policy bundle"; ARCHITECTURE.md, "Data and
// configuration flow"): a gzip tar with `.manifest` ({"revision", "roots": ["palisade"]}) and
// `palisade/data.json` ({"providers", "profiles", "content_policies"}, ACTIVE records only).
// The revision is the sha256 (hex) of data.json's bytes, and data.json is canonical JSON with its
// records sorted by id, so equal configuration gives an equal revision (and an identical archive).
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { BundleData, selectBundleData, type BundleInput } from './data.js';
import { BundleError, packTarGz, unpackTarGz } from './tar.js';

export const BUNDLE_ROOT = 'palisade';
export const BUNDLE_MANIFEST_PATH = '.manifest';
export const BUNDLE_DATA_PATH = `${BUNDLE_ROOT}/data.json`;
/** Where the bundle store serves the `default` bundle (OPA's `policies` service prefix; spec, components). */
export const BUNDLE_HTTP_PATH = '/policies/policies/default/bundle.tar.gz';
/** The most bytes readBundle decompresses by default. */
export const DEFAULT_MAX_BUNDLE_BYTES = 64 * 1024 * 1024;

export interface Bundle {
  /** sha256 hex of data.json; the store's ETag. */
  revision: string;
  data: BundleData;
  /** The gzip tar served by the bundle store. */
  archive: Buffer;
}

export interface BundleManifest {
  revision: string;
  roots: string[];
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Builds the bundle of the ACTIVE records of `input` (see selectBundleData). */
export async function buildBundle(input: BundleInput): Promise<Bundle> {
  const data = selectBundleData(input);
  const dataJson = Buffer.from(canonicalJson(data), 'utf8');
  const revision = sha256(dataJson);
  const manifest: BundleManifest = { revision, roots: [BUNDLE_ROOT] };
  const archive = await packTarGz([
    { name: BUNDLE_MANIFEST_PATH, content: Buffer.from(canonicalJson(manifest), 'utf8') },
    { name: BUNDLE_DATA_PATH, content: dataJson },
  ]);
  return { revision, data, archive };
}

export interface ReadBundleOptions {
  /** Refuse archives larger than this once decompressed (default 64 MiB). */
  maxBytes?: number;
}

function parseJson(bytes: Buffer, what: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new BundleError(`the bundle's ${what} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

function parseManifest(bytes: Buffer): BundleManifest {
  const manifest = parseJson(bytes, BUNDLE_MANIFEST_PATH) as Partial<BundleManifest> | null;
  if (manifest === null || typeof manifest !== 'object' || typeof manifest.revision !== 'string' || manifest.revision === '') {
    throw new BundleError(`the bundle's ${BUNDLE_MANIFEST_PATH} has no revision`);
  }
  const roots = manifest.roots ?? [BUNDLE_ROOT];
  if (!Array.isArray(roots) || !roots.includes(BUNDLE_ROOT)) {
    throw new BundleError(`the bundle's ${BUNDLE_MANIFEST_PATH} roots must include "${BUNDLE_ROOT}"`);
  }
  return { revision: manifest.revision, roots };
}

/**
 * Reads a bundle archive: entries in any order; `.manifest` and `palisade/data.json` required; the
 * manifest revision must equal the sha256 of data.json; data.json must hold valid records. Throws
 * BundleError with the reason otherwise.
 */
export async function readBundle(archive: Buffer, options: ReadBundleOptions = {}): Promise<{ revision: string; data: BundleData }> {
  const files = await unpackTarGz(archive, options.maxBytes ?? DEFAULT_MAX_BUNDLE_BYTES);
  const manifestBytes = files.get(BUNDLE_MANIFEST_PATH);
  if (!manifestBytes) throw new BundleError(`the bundle has no ${BUNDLE_MANIFEST_PATH}`);
  const dataBytes = files.get(BUNDLE_DATA_PATH);
  if (!dataBytes) throw new BundleError(`the bundle has no ${BUNDLE_DATA_PATH}`);

  const { revision } = parseManifest(manifestBytes);
  const actual = sha256(dataBytes);
  if (actual !== revision.toLowerCase()) {
    throw new BundleError(`the bundle's revision ${revision} does not match its ${BUNDLE_DATA_PATH} (sha256 ${actual})`);
  }
  const parsed = BundleData.safeParse(parseJson(dataBytes, BUNDLE_DATA_PATH));
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new BundleError(`the bundle's ${BUNDLE_DATA_PATH} does not hold valid records: ${issues.join('; ')}`);
  }
  return { revision: actual, data: parsed.data };
}
