// The configuration guide's table (docs/guides/configuration.md) names every variable a platform definition reads: its apps'
// id and secret, and each name its settings() asks for (recorded by calling it with a reader
// that answers the defaults). A new platform's variables are found here without a list by hand.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { PlatformDefinition } from '../src/platforms/definition.ts';
import { DEFINITIONS } from '../src/platforms/registry.ts';
import type { SettingsReader } from '../src/platforms/settings.ts';
import { ROOT } from './harness/cli.ts';

function variablesOf(definition: PlatformDefinition): string[] {
  const names = (definition.apps ?? []).flatMap((app) => [app.idVar, app.secretVar]);
  const recorder = (sandbox: boolean): SettingsReader => ({
    sandbox,
    text: (name) => (names.push(name), null),
    flag: (name, fallback) => (names.push(name), fallback),
    integer: (name, fallback) => (names.push(name), fallback),
    origin: (name, fallback) => (names.push(name), fallback),
  });
  definition.settings?.(recorder(false));
  definition.settings?.(recorder(true));
  return [...new Set(names)];
}

test("the configuration guide's table names every variable of every platform definition", () => {
  const table = readFileSync(join(ROOT, 'docs/guides/configuration.md'), 'utf8');
  const rows = table.split('\n').filter((line) => line.startsWith('| `'));
  const missing = DEFINITIONS.flatMap((d: PlatformDefinition) => variablesOf(d).filter((name) => !rows.some((row) => row.includes(`\`${name}\``))).map((name) => `${d.name}: ${name}`));
  assert.deepEqual(missing, []);
});
