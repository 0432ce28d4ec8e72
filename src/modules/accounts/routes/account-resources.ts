// GET /accounts/{id}/{name}: the account-scoped reads only some platforms have, each declared by
// the platforms' definitions (`accountResources`: pinterest's boards) and read live by their
// adapters. One operation per name, whatever platforms offer it; the account is the caller's
// (another organization's is a 404), an account whose platform does not offer the read is a 400
// not_supported without a platform call, and the platform call goes through callPlatform (a
// token the platform refuses marks the account needs_reconnect).
import { Type, type TSchema } from 'typebox';
import { tenantOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import type { RouteRegistrar } from '../../../http/routes.ts';
import { errorResponses, IdParams } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import type { AccountResource, PlatformDefinition } from '../../../platforms/definition.ts';
import { DEFINITIONS } from '../../../platforms/registry.ts';
import { findAccount } from '../find-account.ts';
import { callPlatform } from '../platform-call.ts';

const NAME = /^[a-z][a-z-]*$/;

/** Each resource name with the definitions that offer it, in registry order. */
function resources(): Map<string, Array<{ platform: string; resource: AccountResource }>> {
  const byName = new Map<string, Array<{ platform: string; resource: AccountResource }>>();
  for (const definition of DEFINITIONS as readonly PlatformDefinition[]) {
    for (const resource of definition.accountResources ?? []) {
      if (!NAME.test(resource.name)) throw new Error(`${definition.name}: account resource name ${resource.name} must be lower case words joined by dashes`);
      byName.set(resource.name, [...(byName.get(resource.name) ?? []), { platform: definition.name, resource }]);
    }
  }
  return byName;
}

const operationId = (name: string): string => `getAccount${name.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}`;

function registrar(name: string, offered: Array<{ platform: string; resource: AccountResource }>): RouteRegistrar {
  const platforms = offered.map((o) => o.platform);
  const schemas: TSchema[] = offered.map((o) => o.resource.response);
  const response = schemas.length === 1 && schemas[0] ? schemas[0] : Type.Union(schemas);
  return (api: Api) => {
    api.get(
      `/accounts/:id/${name}`,
      {
        schema: {
          operationId: operationId(name),
          tags: ['Accounts'],
          summary: `${offered[0]?.resource.summary ?? name} (${platforms.join(', ')}; read live)`,
          params: IdParams,
          response: { 200: response, ...errorResponses(400, 403, 404, 409, 429, 502) },
        },
      },
      async (request) => {
        const row = await findAccount(tenantOf(request), request.params.id);
        const read = request.server.deps.platforms.of(row.platform)?.accountResources?.[name];
        if (!read) throw errors.notSupported(`${row.platform} accounts have no ${name}; ${platforms.join(', ')} accounts do`);
        return callPlatform(request.server.deps, row, read);
      },
    );
  };
}

/** One registrar per account resource the definitions declare. */
export const accountResourceRoutes = (): RouteRegistrar[] => [...resources()].map(([name, offered]) => registrar(name, offered));
