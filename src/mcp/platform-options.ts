// Platform options by reference. platformSpecificData is one schema per platform (about 15 KB
// for all of them, in create_post alone), so tool schemas describe it in a line and the tool
// get_platform_options answers one platform's schema when the agent needs it. The schemas are the
// registry's own (each definition's publishing.data): a new platform appears with nothing to add.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { POST_DEFINITIONS } from '../platforms/registry.ts';
import type { JsonSchema } from './openapi-shape.ts';

export const PLATFORM_OPTIONS_TOOL = 'get_platform_options';
/** The property whose schema is replaced by a reference to the tool. */
const OPTIONS_PROPERTY = 'platformSpecificData';

const postPlatforms = () => POST_DEFINITIONS.map((d) => d.name);

/** What the tool's schema says instead of the union of every platform's options. */
function reference(): JsonSchema {
  return {
    type: 'object',
    description:
      `Options for the account's platform (${postPlatforms().join(', ')}): call ${PLATFORM_OPTIONS_TOOL} with the platform for its keys. ` +
      "Unknown keys and keys of another platform are not refused: they come back as the target's warnings.",
    additionalProperties: true,
  };
}

/** A copy of `schema` with every platformSpecificData union replaced by the reference. */
export function optionsByReference(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(optionsByReference);
  if (!schema || typeof schema !== 'object') return schema;
  const copy: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) copy[key] = optionsByReference(value);
  const properties = copy.properties as JsonSchema | undefined;
  const options = properties?.[OPTIONS_PROPERTY] as JsonSchema | undefined;
  if (properties && options && (options.anyOf || options.oneOf)) copy.properties = { ...properties, [OPTIONS_PROPERTY]: reference() };
  return copy;
}

export function platformOptionsTool(): Tool {
  return {
    name: PLATFORM_OPTIONS_TOOL,
    description: `The JSON schema of platformSpecificData for one platform: the keys create_post, update_post and edit_published_post take for its targets.`,
    inputSchema: { type: 'object', properties: { platform: { type: 'string', enum: postPlatforms() } }, required: ['platform'], additionalProperties: false },
    annotations: { readOnlyHint: true, destructiveHint: false },
  };
}

export function platformOptionsResult(args: Record<string, unknown>): CallToolResult {
  const definition = POST_DEFINITIONS.find((d) => d.name === args.platform);
  if (!definition) {
    const message = `platform: must be one of ${postPlatforms().join(', ')}`;
    return { isError: true, content: [{ type: 'text', text: JSON.stringify({ status: 400, message }) }], structuredContent: { status: 400, message } };
  }
  // Through JSON: the schema as a client reads it (TypeBox's symbols dropped).
  const answer = { platform: definition.name, platformSpecificData: JSON.parse(JSON.stringify(definition.publishing.data)) as JsonSchema };
  return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer };
}
