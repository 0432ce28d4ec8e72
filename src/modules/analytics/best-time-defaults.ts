// The platform-wide slots best time falls back to when an account has too few posts of its own
// and no followers-online data: weekday (0 = Monday) and UTC hour, with a relative weight. They
// follow the pattern the schedulers' published studies agree on (weekday mid-mornings and early
// afternoons in the Americas and Europe, which are 13–17 UTC). A platform whose audience keeps
// other hours gives its own in its definition (`bestTime`, src/platforms/<platform>/index.ts).
import type { BestTimeSlot } from '../../platforms/definition.ts';
import { definitionOf } from '../../platforms/registry.ts';

const WEEKDAY_AFTERNOONS: readonly BestTimeSlot[] = [
  [1, 14, 100], [2, 14, 98], [3, 14, 96], [1, 15, 94], [2, 15, 92], [0, 14, 90], [3, 15, 88], [4, 14, 86],
  [1, 13, 84], [2, 13, 82], [0, 15, 80], [4, 13, 78], [5, 15, 70], [6, 16, 66],
];

export function defaultSlots(platform: string): readonly BestTimeSlot[] {
  return definitionOf(platform)?.bestTime ?? WEEKDAY_AFTERNOONS;
}
