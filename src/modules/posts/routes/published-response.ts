// The answer of the published-post operations (edit, unpublish, comments-settings): the targets
// whose live post was changed, in the order of the post's platforms.
import { Type } from 'typebox';

export const ChangedTargets = Type.Object(
  {
    targets: Type.Array(
      Type.Object({
        targetId: Type.String(),
        accountId: Type.String(),
        platform: Type.String(),
        platformPostId: Type.String({ description: 'Id of the live post on the platform.' }),
      }),
    ),
  },
  { description: 'The targets whose live post was changed.' },
);

export const AccountIdField = Type.Optional(
  Type.String({ minLength: 1, maxLength: 100, description: 'The target account to change; without it, every published target whose platform offers the operation.' }),
);
