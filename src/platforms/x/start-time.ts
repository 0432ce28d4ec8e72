// The timelines' `start_time` (GET /2/users/{id}/tweets and /mentions): YYYY-MM-DDTHH:mm:ssZ, in
// whole seconds, since X's docs say it takes no milliseconds (x.md §5).
export const startTimeOf = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
