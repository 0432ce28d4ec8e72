// Feature → permission tables: which permissions each feature of the service needs on a
// platform. The union is what a connect asks for; what is not granted is reported by health as
// missingPermissions with the features it blocks.

/** Every permission the table names, in order, once. */
export function scopesOf(features: Record<string, string[]>): string[] {
  return [...new Set(Object.values(features).flat())];
}

/** [{permission, features}] for each needed permission not in `granted`. */
export function missingPermissions(features: Record<string, string[]>, granted: string[]): Array<{ permission: string; features: string[] }> {
  const have = new Set(granted);
  return scopesOf(features)
    .filter((permission) => !have.has(permission))
    .map((permission) => ({ permission, features: Object.keys(features).filter((f) => features[f]?.includes(permission)) }));
}
