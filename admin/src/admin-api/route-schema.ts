// OpenAPI descriptions of Admin API routes, made from the same zod models the handlers parse with, so
// /openapi.json cannot drift from what is validated. The schemas document; the handlers validate with
// zod (one validator, one error format), so the app that mounts these routes sets a validator compiler
// that accepts anything and a serializer compiler that is plain JSON.stringify (fastify would otherwise
// drop answer fields the documented schema does not list).
import { z } from 'zod';
import type { FastifyInstance, FastifySchema } from 'fastify';

export interface RouteDoc {
  tags: string[];
  summary: string;
  description?: string;
  body?: z.ZodType;
  querystring?: z.ZodType;
  params?: z.ZodType;
  /** Status → the answer's model (or null for an empty answer, e.g. 204). */
  response?: Record<number, z.ZodType | null>;
}

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<string, unknown>;

export function routeSchema(doc: RouteDoc): FastifySchema {
  const schema: FastifySchema & Record<string, unknown> = { tags: doc.tags, summary: doc.summary };
  if (doc.description) schema.description = doc.description;
  if (doc.body) schema.body = jsonSchema(doc.body, 'input');
  if (doc.querystring) schema.querystring = jsonSchema(doc.querystring, 'input');
  if (doc.params) schema.params = jsonSchema(doc.params, 'input');
  if (doc.response) {
    schema.response = Object.fromEntries(
      Object.entries(doc.response).map(([status, model]) => [status, model ? { description: `HTTP ${status}`, ...jsonSchema(model, 'output') } : { description: `HTTP ${status}`, type: 'null' }]),
    );
  }
  return schema;
}

/** Makes an app's route schemas documentation only: zod validates in the handlers, answers are sent whole. */
export function useDocumentingSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(() => (value) => ({ value }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}
