// Input validation. Query strings, path parameters and headers are text, so they are coerced to
// the declared types ("5" → 5); JSON bodies are not: a number where a string is declared is a
// 400, not a silent conversion. Nothing is removed: an object closed by strict-input.ts refuses
// an unknown field with a 400 (removeAdditional would drop it silently, Fastify's default), and
// `verbose` keeps the failing schema on each error, for the "did you mean" of errors.ts.
import { Ajv, type AnySchema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS: under native ESM its plugin is the `default` of module.exports.
const addFormats = addFormatsModule.default;

function createAjv(coerce: boolean, shared: AnySchema[]): Ajv {
  const ajv = new Ajv({ coerceTypes: coerce ? 'array' : false, useDefaults: true, removeAdditional: false, verbose: true, allErrors: false, strict: false });
  addFormats(ajv);
  for (const schema of shared) ajv.addSchema(schema);
  return ajv;
}

export function validatorCompiler(shared: AnySchema[]): FastifySchemaCompiler<AnySchema> {
  const body = createAjv(false, shared);
  const text = createAjv(true, shared);
  return ({ schema, httpPart }) => (httpPart === 'body' ? body : text).compile(schema);
}
