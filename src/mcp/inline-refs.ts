// Tool input schemas stand alone: MCP clients get no components section to resolve
// "#/components/schemas/X" against, and several of them ignore $defs. So every reference is
// replaced by a copy of the schema it names (the API's schemas are not recursive; a cycle would
// be a new kind of schema, and is refused at start rather than sent half-resolved).
import type { JsonSchema } from './openapi-shape.ts';

const COMPONENT_REF = '#/components/schemas/';

export function inlineRefs(schema: unknown, components: Record<string, JsonSchema>, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlineRefs(item, components, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const { $ref, $id: _id, ...rest } = schema as JsonSchema;
  const copy: JsonSchema = {};
  for (const [key, value] of Object.entries(rest)) copy[key] = inlineRefs(value, components, seen);
  if (typeof $ref !== 'string') return copy;
  if (!$ref.startsWith(COMPONENT_REF)) throw new Error(`unsupported $ref ${$ref}`);
  const name = $ref.slice(COMPONENT_REF.length);
  if (seen.includes(name)) throw new Error(`schema ${name} refers to itself; tool schemas cannot inline it`);
  const target = components[name];
  if (!target) throw new Error(`$ref to unknown schema ${name}`);
  // Keywords beside the $ref (a description) say more than the component's own.
  return { ...(inlineRefs(target, components, [...seen, name]) as JsonSchema), ...copy };
}
