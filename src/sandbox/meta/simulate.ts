// What people do on Pages and Instagram, as functions of the state (issue 3, point 7): comment,
// mention, message, react, read, press a button; and the account settings tests tune (followers,
// Page tasks). The control API (meta/control.ts) calls these; in-process tests may too.
import type { SandboxState } from '../core/state.ts';
import { personCommentsOnPost, personReactsToPost } from '../facebook/comments.ts';
import { personCommentsOnMedia } from '../instagram/comments.ts';
import { personMentions, type MentionInput } from '../instagram/mentions.ts';
import { accountWritesFromApp, personBlocks, personPostback, personReacts, personReads, personSendsMessage, type InboundMessage } from '../messaging/inbound.ts';
import type { PersonInput } from '../messaging/persons.ts';

export interface CommentInput {
  /** A Page post or comment id, or an Instagram media id. */
  objectId: string;
  message: string;
  /** Instagram: reply under this comment. */
  parentId?: string | undefined;
  from?: PersonInput | undefined;
}

export function personComment(state: SandboxState, input: CommentInput): { id: string } {
  if (state.meta.igMedia.has(input.objectId)) {
    return { id: personCommentsOnMedia(state, { mediaId: input.objectId, text: input.message, parentId: input.parentId, from: input.from }).id };
  }
  const igParent = state.meta.igComments.get(input.objectId);
  if (igParent) return { id: personCommentsOnMedia(state, { mediaId: igParent.mediaId, text: input.message, parentId: igParent.id, from: input.from }).id };
  return { id: personCommentsOnPost(state, { objectId: input.objectId, message: input.message, from: input.from }).id };
}

export function personMention(state: SandboxState, input: MentionInput): { mediaId: string; commentId: string | null } {
  return personMentions(state, input);
}

export function personMessage(state: SandboxState, input: InboundMessage): { senderId: string; mid: string } {
  const { person, message } = personSendsMessage(state, input);
  return { senderId: person.id, mid: message.id };
}

export interface ReactInput {
  /** A message id (Messenger/Instagram Direct) … */
  mid?: string | undefined;
  /** … or a Page post id. */
  postId?: string | undefined;
  reaction?: string | undefined;
  action?: 'react' | 'unreact' | undefined;
  from?: PersonInput | undefined;
}

export function personReact(state: SandboxState, input: ReactInput): { ok: true } {
  if (input.mid) personReacts(state, { mid: input.mid, reaction: input.reaction, action: input.action });
  else if (input.postId) personReactsToPost(state, { postId: input.postId, reaction: input.reaction, from: input.from });
  else throw new Error('mid or postId: required');
  return { ok: true };
}

export function personRead(state: SandboxState, input: { accountId: string; from: PersonInput }): { watermark: number; mid: string | null } {
  return personReads(state, { accountId: input.accountId, person: input.from });
}

export function personPress(state: SandboxState, input: { accountId: string; from?: PersonInput | undefined; title: string; payload: string }): { senderId: string } {
  return { senderId: personPostback(state, { accountId: input.accountId, person: input.from, title: input.title, payload: input.payload }).id };
}

/** The person blocks (or, with blocked false, unblocks) the account's messages. */
export function personBlock(state: SandboxState, input: { accountId: string; from: PersonInput; blocked: boolean }): { senderId: string; blocked: boolean } {
  const person = personBlocks(state, { accountId: input.accountId, person: input.from, blocked: input.blocked });
  return { senderId: person.id, blocked: input.blocked };
}

/** Someone at the account answers in the platform's own app: an echo the service did not send. */
export function accountReplyInApp(state: SandboxState, input: { accountId: string; to: PersonInput; text: string }): { mid: string; recipientId: string } {
  return accountWritesFromApp(state, { accountId: input.accountId, person: input.to, text: input.text });
}

export function setFollowers(state: SandboxState, accountId: string, count: number): void {
  const account = state.people.instagramAccounts.get(accountId);
  if (!account) throw new Error(`no Instagram account ${accountId}`);
  if (!Number.isInteger(count) || count < 0) throw new Error('count: a whole number ≥ 0');
  account.followersCount = count;
}

export function setPageTasks(state: SandboxState, pageId: string, tasks: string[]): void {
  const page = state.people.pages.get(pageId);
  if (!page) throw new Error(`no Page ${pageId}`);
  page.tasks = [...tasks];
}
