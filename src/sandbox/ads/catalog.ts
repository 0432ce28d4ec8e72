// The targeting catalogue the sandbox knows (platforms.md §9.7): a few interests and locations
// with realistic ids and shapes, answered by `/search` and used to validate `targeting`
// (an interest id that is not here is refused, as unknown ids are on the platform).
export interface Interest {
  id: string;
  name: string;
  audience_size_lower_bound: number;
  audience_size_upper_bound: number;
  path: string[];
  topic: string;
}

export interface GeoLocation {
  key: string;
  name: string;
  type: 'country' | 'region' | 'city' | 'zip';
  country_code: string;
  country_name: string;
  region?: string;
  region_id?: number;
  supports_region: boolean;
  supports_city: boolean;
}

const interest = (id: string, name: string, path: string[], lower: number): Interest => ({
  id,
  name,
  audience_size_lower_bound: lower,
  audience_size_upper_bound: Math.round(lower * 1.18),
  path: ['Interests', ...path, name],
  topic: path[0] ?? name,
});

export const INTERESTS: Interest[] = [
  interest('6003139266461', 'Movies', ['Entertainment'], 1_402_000_000),
  interest('6003107902433', 'Association football (Soccer)', ['Sports and outdoors'], 725_000_000),
  interest('6003306084421', 'Yoga', ['Fitness and wellness'], 302_000_000),
  interest('6003384248805', 'Fitness and wellness', ['Fitness and wellness'], 680_000_000),
  interest('6003020834693', 'Baking', ['Food and drink', 'Cooking'], 215_000_000),
  interest('6003012317397', 'Coffee', ['Food and drink', 'Beverages'], 398_000_000),
  interest('6003659420716', 'Cooking', ['Food and drink'], 640_000_000),
  interest('6003397425735', 'Books', ['Entertainment', 'Reading'], 520_000_000),
  interest('6003277229526', 'Running', ['Sports and outdoors'], 190_000_000),
  interest('6003348604581', 'Online shopping', ['Shopping and fashion'], 880_000_000),
];

const country = (key: string, name: string): GeoLocation => ({ key, name, type: 'country', country_code: key, country_name: name, supports_region: true, supports_city: true });

export const LOCATIONS: GeoLocation[] = [
  country('US', 'United States'),
  country('GB', 'United Kingdom'),
  country('IE', 'Ireland'),
  country('DE', 'Germany'),
  country('FR', 'France'),
  country('BR', 'Brazil'),
  country('IN', 'India'),
  country('CA', 'Canada'),
  { key: '3847', name: 'California', type: 'region', country_code: 'US', country_name: 'United States', region: 'California', region_id: 3847, supports_region: true, supports_city: true },
  { key: '4081', name: 'New York', type: 'region', country_code: 'US', country_name: 'United States', region: 'New York', region_id: 4081, supports_region: true, supports_city: true },
  { key: '2418956', name: 'Dublin', type: 'city', country_code: 'IE', country_name: 'Ireland', region: 'Dublin', region_id: 1464, supports_region: true, supports_city: true },
  { key: '2420379', name: 'San Francisco', type: 'city', country_code: 'US', country_name: 'United States', region: 'California', region_id: 3847, supports_region: true, supports_city: true },
  { key: '2490299', name: 'New York', type: 'city', country_code: 'US', country_name: 'United States', region: 'New York', region_id: 4081, supports_region: true, supports_city: true },
  { key: '296875', name: 'London', type: 'city', country_code: 'GB', country_name: 'United Kingdom', region: 'England', region_id: 4079, supports_region: true, supports_city: true },
];

/** Meta's currency offsets (Marketing API "Currencies"): minor units per unit, 1 for currencies without cents. */
const OFFSET_ONE = new Set(['CLP', 'COP', 'CRC', 'HUF', 'ISK', 'IDR', 'JPY', 'KRW', 'PYG', 'TWD', 'VND']);
export const currencyOffset = (currency: string): number => (OFFSET_ONE.has(currency) ? 1 : 100);

/** `type=adlocale`: languages by Meta's locale keys. */
export const LOCALES: Array<{ key: number; name: string }> = [
  { key: 6, name: 'English (US)' },
  { key: 24, name: 'English (UK)' },
  { key: 23, name: 'Spanish' },
  { key: 9, name: 'French (France)' },
  { key: 5, name: 'German' },
  { key: 16, name: 'Portuguese (Brazil)' },
  { key: 10, name: 'Italian' },
];

export interface TargetingCategory {
  id: string;
  name: string;
  type: string;
  path: string[];
  audience_size_lower_bound: number;
  audience_size_upper_bound: number;
}

const category = (id: string, name: string, type: string, path: string[], lower: number): TargetingCategory => ({
  id,
  name,
  type,
  path,
  audience_size_lower_bound: lower,
  audience_size_upper_bound: Math.round(lower * 1.18),
});

/** `type=adTargetingCategory&class=…`: behaviors and demographics. */
export const CATEGORIES: TargetingCategory[] = [
  category('6002714895372', 'Frequent travelers', 'behaviors', ['Travel'], 310_000_000),
  category('6015559470583', 'Small business owners', 'behaviors', ['Digital activities'], 58_000_000),
  category('6071631541183', 'Engaged shoppers', 'behaviors', ['Purchase behavior'], 1_100_000_000),
  category('6002714898572', 'Newlywed (1 year)', 'demographics', ['Life events'], 11_000_000),
  category('6003054185372', 'Parents (All)', 'demographics', ['Parents'], 420_000_000),
  category('6012903320382', "Bachelor's degree", 'demographics', ['Education'], 390_000_000),
];
