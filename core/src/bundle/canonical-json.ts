// Deterministic JSON: object keys in code-unit order at every depth, arrays in their order, no
// whitespace. Equal data gives equal bytes, so the sha256 of the bytes can serve as the revision.

/** JSON.stringify with sorted keys; `undefined`, functions and symbols are left out as JSON does. */
export function canonicalJson(value: unknown): string {
  const out = write(value);
  if (out === undefined) throw new TypeError('canonicalJson: the value has no JSON form');
  return out;
}

function write(value: unknown): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      throw new TypeError('canonicalJson: a BigInt has no JSON form');
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`;
      const parts: string[] = [];
      for (const key of Object.keys(value).sort()) {
        const item = write((value as Record<string, unknown>)[key]);
        if (item !== undefined) parts.push(`${JSON.stringify(key)}:${item}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return undefined; // undefined, function, symbol
  }
}
