// The two patch formats the Kubernetes client sends: JSON merge patch (RFC 7386) and JSON patch
// (RFC 6902: add, remove, replace, test — what the operator and kubectl use for these kinds).
// Written here because no patch library is among the project's dependencies and both are a few
// lines over plain JSON.

type Json = unknown;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value);
  }
  return out;
}

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'test' | string;
  path: string;
  value?: unknown;
}

export class PatchError extends Error {}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new PatchError(`invalid JSON pointer ${path}`);
  return path
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function applyJsonPatch(target: Json, operations: JsonPatchOperation[]): Json {
  let doc = structuredClone(target);
  for (const operation of operations) {
    const keys = pointer(operation.path);
    if (keys.length === 0) {
      if (operation.op === 'test') {
        if (JSON.stringify(doc) !== JSON.stringify(operation.value)) throw new PatchError('test failed');
        continue;
      }
      doc = structuredClone(operation.value);
      continue;
    }
    let parent: unknown = doc;
    for (const key of keys.slice(0, -1)) {
      parent = Array.isArray(parent) ? parent[Number(key)] : isObject(parent) ? parent[key] : undefined;
      if (parent === undefined) throw new PatchError(`path ${operation.path} does not exist`);
    }
    const last = keys[keys.length - 1]!;
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(index) || index < 0 || index > parent.length) throw new PatchError(`bad array index in ${operation.path}`);
      switch (operation.op) {
        case 'add':
          parent.splice(index, 0, structuredClone(operation.value));
          break;
        case 'remove':
          if (index >= parent.length) throw new PatchError(`path ${operation.path} does not exist`);
          parent.splice(index, 1);
          break;
        case 'replace':
          if (index >= parent.length) throw new PatchError(`path ${operation.path} does not exist`);
          parent[index] = structuredClone(operation.value);
          break;
        case 'test':
          if (JSON.stringify(parent[index]) !== JSON.stringify(operation.value)) throw new PatchError(`test failed at ${operation.path}`);
          break;
        default:
          throw new PatchError(`unsupported op ${operation.op}`);
      }
    } else if (isObject(parent)) {
      switch (operation.op) {
        case 'add':
          parent[last] = structuredClone(operation.value);
          break;
        case 'remove':
          if (!(last in parent)) throw new PatchError(`path ${operation.path} does not exist`);
          delete parent[last];
          break;
        case 'replace':
          if (!(last in parent)) throw new PatchError(`path ${operation.path} does not exist`);
          parent[last] = structuredClone(operation.value);
          break;
        case 'test':
          if (JSON.stringify(parent[last]) !== JSON.stringify(operation.value)) throw new PatchError(`test failed at ${operation.path}`);
          break;
        default:
          throw new PatchError(`unsupported op ${operation.op}`);
      }
    } else {
      throw new PatchError(`path ${operation.path} does not exist`);
    }
  }
  return doc;
}
