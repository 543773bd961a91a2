// In-memory gzip tar for the policy bundle. tar-stream is used because it packs and unpacks entries
// from and to Buffers without touching the file system (the `tar` package is built around files and
// directories), and it is small with no native parts. gzip is node:zlib.
import { gunzipSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';

/** Problems with a bundle archive: not gzip, not tar, missing or inconsistent entries. */
export class BundleError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BundleError';
  }
}

export interface TarFile {
  name: string;
  content: Buffer;
}

/** Fixed metadata so that equal files give byte-identical archives. */
const EPOCH = new Date(0);

/** Packs regular files into a gzip tar, in the given order. */
export async function packTarGz(files: readonly TarFile[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const file of files) {
    pack.entry({ name: file.name, size: file.content.length, mode: 0o644, mtime: EPOCH, uid: 0, gid: 0, uname: '', gname: '', type: 'file' }, file.content);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks), { level: 9 });
}

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * The regular files of a gzip tar by name (a leading `./` or `/` removed; directories and other entry
 * types skipped). Rejects a body that is not gzip, not tar, larger than maxBytes once decompressed,
 * or that names a file twice.
 */
export async function unpackTarGz(archive: Buffer, maxBytes: number): Promise<Map<string, Buffer>> {
  if (archive.length < 2 || archive[0] !== GZIP_MAGIC[0] || archive[1] !== GZIP_MAGIC[1]) {
    throw new BundleError('the bundle is not a gzip archive (expected a .tar.gz body)');
  }
  let tarBytes: Buffer;
  try {
    tarBytes = gunzipSync(archive, { maxOutputLength: maxBytes });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw new BundleError(`the bundle is larger than ${maxBytes} bytes when decompressed`, { cause: error });
    }
    throw new BundleError(`the bundle is not a valid gzip archive: ${(error as Error).message}`, { cause: error });
  }
  if (tarBytes.length === 0) throw new BundleError('the bundle archive is empty');

  const files = new Map<string, Buffer>();
  const extract = tar.extract();
  extract.end(tarBytes);
  try {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      const type = entry.header.type ?? 'file';
      if (type !== 'file' && type !== 'contiguous-file') continue;
      const name = entry.header.name.replace(/^(\.?\/)+/, '');
      if (files.has(name)) throw new BundleError(`the bundle has the entry ${JSON.stringify(name)} twice`);
      files.set(name, Buffer.concat(chunks));
    }
  } catch (error) {
    if (error instanceof BundleError) throw error;
    throw new BundleError(`the bundle is not a valid tar archive: ${(error as Error).message}`, { cause: error });
  }
  return files;
}
