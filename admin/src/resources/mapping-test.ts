// POST /api/v1/providers/mapping-test on the Admin API: the five JSONPath strings of a provider form
// run on a sample exchange by core's extractor — the gateway's own — so the console and the gateway
// agree on what a path extracts. Stateless: any role that reads providers may call it.
import type { FastifyInstance } from 'fastify';
import {
  FIELD_MAPPING_KEYS,
  FieldMappingError,
  MAPPING_SAMPLES,
  MappingTestRequest,
  MappingTestResult,
  PalisadeError,
  compileMapping,
  resolveMapping,
  type MappingPathResult,
  type ResolvedMapping,
} from '@palisade/core';
import { routeSchema } from '../admin-api/route-schema.js';
import type { AdminRouteContext } from '../auth/contract.js';

type Field = (typeof FIELD_MAPPING_KEYS)[number];

/**
 * One path alone, so that a broken path reports its own error and the others still run: compiled as
 * the prompt path and as its own field, and read as the gateway reads that field.
 */
function evaluatePath(field: Field, path: string | null, request: unknown, response: unknown): MappingPathResult {
  if (!path) return { field, path: null, value: null, error: null };
  try {
    const mapping = compileMapping({ prompt_path: path, [field]: path });
    if (field === 'response_path') return { field, path, value: mapping.extractResponse(response).text, error: null };
    const read = mapping.extractRequest(request);
    const value = { prompt_path: read.prompt, system_prompt_path: read.system_prompt, user_messages_path: read.user_messages, model_path: read.model }[field];
    return { field, path, value, error: null };
  } catch (error) {
    return { field, path, value: null, error: (error as Error).message };
  }
}

function resolved(input: MappingTestRequest): ResolvedMapping {
  try {
    return resolveMapping(input.mapping_preset, input.mapping_custom);
  } catch (error) {
    if (!(error instanceof FieldMappingError)) throw error;
    const path = error.reason === 'missing_prompt_path' ? 'mapping_custom.prompt_path' : 'mapping_preset';
    throw new PalisadeError('VALIDATION_ERROR', { message: `Invalid ${path}: ${error.message}`, details: [{ path, message: error.message }], cause: error });
  }
}

export function testMapping(body: unknown): MappingTestResult {
  const input = MappingTestRequest.parse(body ?? {});
  const mapping = resolved(input);
  const sample = MAPPING_SAMPLES[input.mapping_preset ?? 'custom_simple'];
  const request = input.body === undefined ? sample.request : input.body;
  const response = input.response_body === undefined ? sample.response : input.response_body;
  return { results: FIELD_MAPPING_KEYS.map((field) => evaluatePath(field, mapping[field], request, response)), body: request, response_body: response };
}

export function registerMappingTestRoute(app: FastifyInstance, ctx: AdminRouteContext): void {
  app.post('/api/v1/providers/mapping-test', {
    preHandler: ctx.access.require('read'),
    schema: routeSchema({
      tags: ['providers'],
      summary: "Test a mapping's JSONPath strings on a sample exchange",
      description:
        "Each path (custom over preset) is run by the gateway's extractor on `body` (the response path on `response_body`); either one left out is the preset's sample, and the answer returns both. " +
        'A path that cannot be parsed reports its own error; a mapping with no prompt path or an unknown preset is a 400.',
      body: MappingTestRequest,
      response: { 200: MappingTestResult },
    }),
    handler: async (request) => testMapping(request.body),
  });
}
