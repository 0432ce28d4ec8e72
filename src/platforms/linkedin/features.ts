// LinkedIn's permissions (DESIGN "More platforms", Connect; linkedin.md §2): what a connect asks
// for, and what health reports missing per feature. Member posting needs w_member_social;
// organizations need the Community Management product's scopes. r_member_social (a member's own
// posts, their comments and statistics) is restricted and not asked.
export const LINKEDIN_MEMBER_SCOPES = ['openid', 'profile', 'w_member_social'] as const;
export const LINKEDIN_ORGANIZATION_SCOPES = ['w_organization_social', 'r_organization_social', 'rw_organization_admin'] as const;

export const PERSON_FEATURES: Record<string, string[]> = {
  profile: ['openid', 'profile'],
  publish: ['w_member_social'],
};

export const ORGANIZATION_FEATURES: Record<string, string[]> = {
  profile: ['openid', 'profile'],
  publish: ['w_organization_social'],
  // The look after an interrupted publish, and statistics.
  read: ['r_organization_social'],
  organizations: ['rw_organization_admin'],
};

export const isOrganization = (metadata: Record<string, unknown>): boolean => metadata.kind === 'organization';
