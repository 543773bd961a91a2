// One sample exchange per mapping preset, gathered from the vendor folders (core/src/vendors/<vendor>,
// `presetSamples`): a request in the vendor's format and its answer. The console's mapping tester
// starts from these, and samples.test.ts proves every preset reads its prompt and answer text from
// them, so a sample cannot silently stop matching its preset.
import { VENDORS } from '../vendors/all.js';
import type { MappingSample, Vendor } from '../vendors/types.js';
import { gatherFromVendorFolders, MAPPING_PRESET_NAMES, type MappingPresetName } from './presets.js';

export type { MappingSample };

const vendors: readonly Vendor[] = VENDORS;

export const MAPPING_SAMPLES: Readonly<Record<MappingPresetName, MappingSample>> = gatherFromVendorFolders(
  MAPPING_PRESET_NAMES,
  vendors.flatMap((v) => Object.entries(v.presetSamples ?? {}) as Array<[string, MappingSample]>),
  'preset sample',
);
