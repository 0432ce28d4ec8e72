// The answer of the published-post operations (edit, unpublish, comments-settings): the targets
// whose live post was changed, in the order of the post's platforms.
import { Type } from 'typebox';

/** One target whose live post was changed (a named component of the document). */
export const ChangedTarget = Type.Object(
  {
    targetId: Type.String(),
    accountId: Type.String(),
    platform: Type.String(),
    platformPostId: Type.String({ description: 'Id of the live post on the platform.' }),
  },
  { $id: 'ChangedTarget', title: 'ChangedTarget' },
);

export const ChangedTargets = Type.Object(
  {
    targets: Type.Array(Type.Ref('ChangedTarget')),
  },
  { description: 'The targets whose live post was changed.' },
);

export const AccountIdField = Type.Optional(
  Type.String({ minLength: 1, maxLength: 100, description: 'The target account to change; without it, every published target whose platform offers the operation.' }),
);
