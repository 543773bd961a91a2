// JSONPath evaluation for one compiled mapping: the preset forms by a compiled walk (compiled-path.ts),
// every other path by one jsonpath-plus instance (parsed path arrays and filter scripts are cached by
// jsonpath-plus itself, keyed by the path string); each match with its exact location in the body.
import { JSONPath } from 'jsonpath-plus';
import { compilePath, type CompiledPath } from './compiled-path.js';
import { decodePointer, type JsonPointer } from './json-pointer.js';

/** A value a path matched, and where. */
export interface Match {
  pointer: JsonPointer;
  value: unknown;
}

/** The matches of `path` in `body`; none for a null path, an absent body or a path that fails. */
export type PathQuery = (path: string | null, body: unknown) => Match[];

/** Parses `paths` now (fills jsonpath-plus's path cache, fails early on a broken path string). */
export function createPathQuery(paths: Iterable<string>): PathQuery {
  // null: jsonpath-plus evaluates it. Filled up front, and for a path first seen at query time.
  const compiled = new Map<string, CompiledPath | null>();
  for (const path of paths) {
    JSONPath.toPathArray(path);
    compiled.set(path, compilePath(path) ?? null);
  }
  const engine = JSONPath({
    path: '$',
    json: null,
    autostart: false,
    resultType: 'all',
    wrap: true,
    eval: 'safe', // the built-in restricted evaluator for filters: no code execution
    ignoreEvalErrors: true, // a filter that throws on one element skips that element
  });

  // The published typings require callback arguments that the engine does not need.
  const evaluate = engine.evaluate.bind(engine) as unknown as (o: { path: string; json: unknown }) => unknown;

  return (path, body) => {
    if (!path || body === null || body === undefined) return [];
    let walk = compiled.get(path);
    if (walk === undefined) {
      walk = compilePath(path) ?? null;
      compiled.set(path, walk);
    }
    if (walk !== null) return walk(body);
    (engine as unknown as { json: unknown }).json = body; // read by `@root` in filters
    let found: unknown;
    try {
      found = evaluate({ path, json: body });
    } catch {
      return []; // a path the engine cannot evaluate extracts nothing, like a wrong preset
    }
    if (!Array.isArray(found)) return [];
    return found.map((r: { pointer: string; value: unknown }) => ({
      pointer: decodePointer(r.pointer, body),
      value: r.value,
    }));
  };
}
