// Locations inside a JSON body: the segments of a JSON Pointer (RFC 6901), read from jsonpath-plus's
// pointer strings, and new bodies with values written at such locations (SANITIZE writes masked text
// back where the extractor found it).

/** Exact location of a value in a JSON body: object keys and array indexes from the root. */
export type JsonPointer = (string | number)[];

/** JSON Pointer string (RFC 6901) → segments, typed by walking the body (array → numeric index). */
export function decodePointer(pointer: string, body: unknown): JsonPointer {
  if (pointer === '') return [];
  const out: JsonPointer = [];
  let node: unknown = body;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) {
      const i = Number(seg);
      out.push(i);
      node = node[i];
    } else {
      out.push(seg);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined;
    }
  }
  return out;
}

/**
 * Writes `newText` at `pointer` and returns a new body; the input is not changed (containers on the
 * path are copied, the rest is shared). Throws RangeError when the pointer does not exist.
 */
export function replaceAt<T>(body: T, pointer: JsonPointer, newText: string): T {
  if (pointer.length === 0) return newText as unknown as T;
  const [head, ...rest] = pointer as [string | number, ...JsonPointer];
  if (Array.isArray(body)) {
    if (typeof head !== 'number' || head < 0 || head >= body.length) {
      throw new RangeError(`no array element at ${JSON.stringify(head)}`);
    }
    const copy = body.slice();
    copy[head] = replaceAt(body[head], rest, newText);
    return copy as T;
  }
  if (body !== null && typeof body === 'object' && Object.hasOwn(body, head)) {
    const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    // defineProperty, not assignment: a JSON key named "__proto__" must stay a plain own property.
    Object.defineProperty(copy, String(head), {
      value: replaceAt((body as Record<string, unknown>)[String(head)], rest, newText),
      writable: true,
      enumerable: true,
      configurable: true,
    });
    return copy as T;
  }
  throw new RangeError(`no property ${JSON.stringify(head)} on the path`);
}

/**
 * Applies several replacements (e.g. every masked prompt part; a value other than a string, e.g. a
 * tool call's masked arguments object, goes in as it is) and returns the new body; the input is
 * not changed. Each container on the way is copied once, however many replacements it holds, and the
 * walk is a loop: linear in the body, whatever the number of parts or the depth.
 */
export function replaceAllAt<T>(body: T, replacements: readonly { pointer: JsonPointer; text: unknown }[]): T {
  const copies = new WeakSet<object>();
  const writable = (value: unknown): Record<string | number, unknown> => {
    if (value === null || typeof value !== 'object') throw new RangeError('no container on the path');
    if (copies.has(value)) return value as Record<string | number, unknown>;
    const copy = Array.isArray(value) ? value.slice() : { ...(value as Record<string, unknown>) };
    copies.add(copy);
    return copy as Record<string | number, unknown>;
  };
  let root: unknown = body;
  for (const { pointer, text } of replacements) {
    if (pointer.length === 0) {
      root = text;
      continue;
    }
    root = writable(root);
    let node = root as Record<string | number, unknown>;
    for (let i = 0; i < pointer.length; i++) {
      const key = pointer[i]!;
      if (Array.isArray(node) ? typeof key !== 'number' || key < 0 || key >= node.length : !Object.hasOwn(node, key)) {
        throw new RangeError(`no property ${JSON.stringify(key)} on the path`);
      }
      const value = i === pointer.length - 1 ? text : writable(node[key]);
      // defineProperty, not assignment: a JSON key named "__proto__" must stay a plain own property.
      Object.defineProperty(node, String(key), { value, writable: true, enumerable: true, configurable: true });
      if (i < pointer.length - 1) node = value as Record<string | number, unknown>;
    }
  }
  return root as T;
}
