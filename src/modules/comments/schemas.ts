// Comments and mentions as the API shows them (DESIGN §2 "Comments and inbox").
import { Type, type Static } from 'typebox';
import { NullableTimestamp } from '../../http/schemas.ts';

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const Comment = Type.Object(
  {
    id: Type.String({ description: "The platform's comment id (reddit: t1_…)." }),
    platform: Type.String(),
    accountId: Type.String(),
    platformPostId: Type.String(),
    postId: NullableString('The post of this service the comment is under; null when the platform post was not published here.'),
    text: Type.String(),
    username: NullableString('Who wrote it (facebook: the commenter\'s name); null when the platform hides it.'),
    parentId: NullableString('The comment replied to; null for a comment on the post itself.'),
    createdAt: NullableTimestamp('When it was written; null when the platform gave no time.'),
    hidden: Type.Boolean(),
    likeCount: Type.Integer(),
    isOwn: Type.Boolean({ description: 'Written by the account itself.' }),
  },
  { $id: 'Comment', title: 'Comment' },
);
export type CommentView = Static<typeof Comment>;

export const Mention = Type.Object(
  {
    mediaId: Type.String({ description: "The platform's media id." }),
    platform: Type.String(),
    accountId: Type.String(),
    caption: NullableString('The caption of the media.'),
    mediaType: NullableString('IMAGE, VIDEO, CAROUSEL_ALBUM …'),
    permalink: NullableString('Its address on the platform.'),
    username: NullableString('Who posted it.'),
    createdAt: NullableTimestamp('When it was posted.'),
  },
  { $id: 'Mention', title: 'Mention' },
);
export type MentionView = Static<typeof Mention>;

export const CommentIdParams = Type.Object({ commentId: Type.String({ minLength: 1, maxLength: 200, description: "The platform's comment id." }) });
export const AccountIdField = Type.String({ minLength: 1, maxLength: 100, description: 'The account acting; an unknown or foreign account is 404.' });
export const CommentText = Type.String({ minLength: 1, maxLength: 10000 });
export const OptionalAccountId = Type.Object({ accountId: Type.Optional(AccountIdField) });

export const Ok = Type.Object({ ok: Type.Literal(true) });
export const Created = Type.Object({ ok: Type.Literal(true), id: Type.String({ description: "The new comment's platform id." }) });
export const Replied = Type.Object(
  {
  ok: Type.Literal(true),
  id: Type.String({ description: "The new comment's platform id." }),
  repliedTo: Type.Optional(
    Type.String({
      description:
        "The comment the reply was made on: the one asked for, or on instagram (one level of replies) the top-level comment of the reply asked for, as the instagram app does.",
    }),
  ),
  },
  { $id: 'CommentReply', title: 'CommentReply', description: 'A reply made on the platform.' },
);
