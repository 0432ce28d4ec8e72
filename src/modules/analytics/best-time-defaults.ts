// The platform-wide slots best time falls back to when an account has too few posts of its own
// and no followers-online data: weekday (0 = Monday) and UTC hour, with a relative weight. They
// follow the pattern the schedulers' published studies agree on (weekday mid-mornings and early
// afternoons in the Americas and Europe, which are 13–17 UTC; reddit earlier, its US mornings).
type Slot = readonly [weekday: number, hour: number, weight: number];

const WEEKDAY_AFTERNOONS: readonly Slot[] = [
  [1, 14, 100], [2, 14, 98], [3, 14, 96], [1, 15, 94], [2, 15, 92], [0, 14, 90], [3, 15, 88], [4, 14, 86],
  [1, 13, 84], [2, 13, 82], [0, 15, 80], [4, 13, 78], [5, 15, 70], [6, 16, 66],
];

const REDDIT: readonly Slot[] = [
  [0, 13, 100], [1, 13, 98], [2, 13, 96], [3, 13, 94], [0, 12, 90], [1, 12, 88], [4, 13, 86], [5, 14, 80], [6, 14, 78],
];

const TIKTOK: readonly Slot[] = [
  [1, 16, 100], [3, 16, 98], [4, 17, 96], [2, 16, 94], [0, 17, 90], [5, 15, 86], [6, 18, 84],
];

export function defaultSlots(platform: string): readonly Slot[] {
  if (platform === 'reddit') return REDDIT;
  if (platform === 'tiktok') return TIKTOK;
  return WEEKDAY_AFTERNOONS;
}
