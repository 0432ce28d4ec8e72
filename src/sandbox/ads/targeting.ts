// The targeting spec of an ad set (platforms.md §9.2): JSON (or a JSON string) with
// geo_locations (at least one of countries, regions, cities, zips), ages 13–65, genders 1/2,
// interests from the catalogue, custom audiences of the same account, known placements.
import type { SandboxState } from '../core/state.ts';
import { INTERESTS } from './catalog.ts';
import { adsInvalid, scalar } from './rules.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null);
const ids = (value: unknown): string[] => (Array.isArray(value) ? value.map((v) => scalar(obj(v)?.id) || scalar(obj(v)?.key)) : []);

const PLATFORMS = ['facebook', 'instagram', 'audience_network', 'messenger', 'threads'];

export function parseTargeting(state: SandboxState, accountId: string, raw: unknown, requireAdvantageFlag: boolean): Json {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      throw adsInvalid('Invalid targeting spec', 'The targeting parameter must be a JSON object.');
    }
  }
  const spec = obj(value);
  if (!spec) throw adsInvalid('No Targeting Spec', 'An ad set needs a targeting spec with at least a location.');
  const geo = obj(spec.geo_locations);
  const countries = Array.isArray(geo?.countries) ? geo.countries.map(String) : [];
  if (!geo || (!countries.length && !ids(geo.regions).length && !ids(geo.cities).length && !ids(geo.zips).length && !ids(geo.custom_locations).length)) {
    throw adsInvalid('Location Is Required', 'Your audience needs at least one location in targeting.geo_locations.');
  }
  for (const c of countries) if (!/^[A-Z]{2}$/.test(c)) throw adsInvalid('Invalid country', `${c} is not a two-letter ISO country code.`);
  const ageMin = spec.age_min === undefined ? 18 : Number(spec.age_min);
  const ageMax = spec.age_max === undefined ? 65 : Number(spec.age_max);
  if (!Number.isInteger(ageMin) || !Number.isInteger(ageMax) || ageMin < 13 || ageMax > 65 || ageMin > ageMax) {
    throw adsInvalid('Invalid age range', 'age_min and age_max must be integers with 13 ≤ age_min ≤ age_max ≤ 65.');
  }
  if (spec.genders !== undefined && (!Array.isArray(spec.genders) || spec.genders.some((g) => g !== 1 && g !== 2))) {
    throw adsInvalid('Invalid genders', 'genders is a list of 1 (male) and 2 (female).');
  }
  const flexible = Array.isArray(spec.flexible_spec) ? spec.flexible_spec.map((f) => obj(f) ?? {}) : [];
  const interestIds = [...ids(spec.interests), ...flexible.flatMap((f) => ids(f.interests))];
  for (const id of interestIds) if (!INTERESTS.some((i) => i.id === id)) throw adsInvalid('Invalid interest', `The interest ${id} is not a valid targeting interest.`);
  for (const id of [...ids(spec.custom_audiences), ...ids(spec.excluded_custom_audiences)]) {
    const audience = state.ads.audiences.get(id);
    if (!audience || audience.deleted || audience.accountId !== accountId) throw adsInvalid('Invalid custom audience', `The custom audience ${id} does not exist in this ad account.`);
  }
  const platforms = Array.isArray(spec.publisher_platforms) ? spec.publisher_platforms.map(String) : [];
  for (const p of platforms) if (!PLATFORMS.includes(p)) throw adsInvalid('Invalid placement', `publisher_platforms: ${p} is not one of ${PLATFORMS.join(', ')}.`);
  const automation = obj(spec.targeting_automation);
  if (requireAdvantageFlag && automation?.advantage_audience === undefined) {
    throw adsInvalid('Advantage audience flag required', 'Set targeting.targeting_automation.advantage_audience to 0 or 1.', 1870227);
  }
  return { ...spec, age_min: ageMin, age_max: ageMax };
}
