// The text a profiled call is inspected on: the mapping's prompt, or, when the mapping finds none in a
// body that still carries strings (`messages` of the wrong type, another vendor's format), every string
// value of the body. A profiled call never goes upstream with text nobody read.
import { collectAllStrings, isExtractionEmpty, PalisadeError, STRING_WALK_MAX_DEPTH, type CompiledMapping, type RequestExtraction } from '@palisade/core';

export interface InspectedText {
  extraction: RequestExtraction;
  /** True when the mapping found no prompt and every string of the body is inspected instead. */
  everyString: boolean;
}

export function extractForInspection(mapping: CompiledMapping, json: unknown): InspectedText {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new PalisadeError('INVALID_REQUEST', { message: 'The request body must be a JSON object' });
  }
  const extraction = mapping.extractRequest(json);
  if (!isExtractionEmpty(extraction)) return { extraction, everyString: false };
  const walk = collectAllStrings(json);
  if (walk.tooDeep) {
    throw new PalisadeError('INVALID_REQUEST', {
      message: `The provider's mapping finds no prompt and the body nests deeper than ${STRING_WALK_MAX_DEPTH} levels, so it cannot be inspected`,
    });
  }
  if (walk.parts.length === 0) return { extraction, everyString: false };
  const prompt = walk.parts.map((p) => p.text).join('\n');
  return { extraction: { ...extraction, prompt, prompt_parts: walk.parts }, everyString: true };
}
