// The cross-vendor tables the gateway reads streams and usage with, gathered from the vendor folders.
import { VENDORS } from './all.js';
import type { DeltaRule, EndMarker, JsonPath, StreamCodec, Vendor, VendorUsage } from './types.js';

const vendors: readonly Vendor[] = VENDORS;
const unique = <T>(values: readonly T[], key: (value: T) => string = String): T[] => {
  const seen = new Set<string>();
  return values.filter((value) => {
    const k = key(value);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

/**
 * The delta readers of every streaming vendor format. Order matters (the first claim wins): a rule
 * with a `when` condition is the more specific and goes first; the others keep the vendors' order.
 */
export const DELTA_RULES: readonly DeltaRule[] = (() => {
  const rules = vendors.flatMap((v) => v.streams?.deltaRules ?? []);
  return [...rules.filter((r) => r.when !== undefined), ...rules.filter((r) => r.when === undefined)];
})();

/** How the end of a stream is recognised, every vendor's. */
export const END_MARKERS: readonly EndMarker[] = vendors.flatMap((v) => v.streams?.endMarkers ?? []);

/** The stream formats the gateway scans on the fly; other formats keep the buffered path. */
export const STREAM_CODECS: readonly StreamCodec[] = vendors.flatMap((v) => v.streams?.codecs ?? []);

/** Where answers report token usage, every vendor's places and names together. */
export const USAGE_FIELDS: Required<VendorUsage> = (() => {
  const usages = vendors.flatMap((v) => (v.usage ? [v.usage] : []));
  return {
    objects: unique(usages.flatMap((u) => u.objects ?? []), (path: JsonPath) => JSON.stringify(path)),
    input: unique(usages.flatMap((u) => u.input ?? [])),
    output: unique(usages.flatMap((u) => u.output ?? [])),
    counts: usages.flatMap((u) => u.counts ?? []),
    markers: unique(usages.flatMap((u) => u.markers ?? [])),
  };
})();
