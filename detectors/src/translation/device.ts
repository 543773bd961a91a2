// Which device the translation sessions run on (spec, "Limits": TRANSLATION_SERVICE_MODEL_DEVICE must be
// `cuda`, not `gpu`, for GPU use) and what the machine has (device-info's cuda_* fields).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const TRANSLATION_DEVICES = ['cpu', 'cuda'] as const;
export type TranslationDevice = (typeof TRANSLATION_DEVICES)[number];

export interface CudaProbe {
  available: boolean;
  deviceCount: number;
  /** The first GPU's model name, '' when none. */
  deviceName: string;
}

/**
 * The NVIDIA driver lists each GPU under /proc/driver/nvidia/gpus/<bus id>/information ("Model: …").
 * Reading it needs no CUDA library; a machine without the driver has no such directory.
 */
export async function probeCuda(root = '/proc/driver/nvidia/gpus'): Promise<CudaProbe> {
  let entries: string[];
  try {
    entries = (await readdir(root)).sort();
  } catch {
    return { available: false, deviceCount: 0, deviceName: '' };
  }
  let deviceName = '';
  for (const entry of entries) {
    try {
      const info = await readFile(join(root, entry, 'information'), 'utf8');
      const model = /^Model:\s*(.+)$/m.exec(info)?.[1]?.trim();
      if (model) {
        deviceName = model;
        break;
      }
    } catch {
      // An entry without a readable information file still counts as a GPU.
    }
  }
  return { available: entries.length > 0, deviceCount: entries.length, deviceName };
}

/** onnxruntime execution providers for a device, in order of preference. */
export function executionProvidersFor(device: TranslationDevice): string[] {
  return device === 'cuda' ? ['cuda', 'cpu'] : ['cpu'];
}
