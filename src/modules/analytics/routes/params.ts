// Query parameters shared by the analytics routes.
import { Type } from 'typebox';
import { METRICS } from '../../../platforms/insights-types.ts';

export const MetricsParam = Type.Optional(
  Type.String({ maxLength: 1000, description: `Comma list of our metric names (${METRICS.join(', ')}); absent: every metric the platform has.` }),
);
