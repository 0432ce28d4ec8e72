// The account and its boards (platforms/pinterest.md §2, §5): GET /v5/user_account, the user's
// boards (page_size 1–250, bookmark, privacy filter), one board, its sections, and its Pins
// newest first. Boards are the caller's own: another user's board is not found, as a secret
// board of someone else is on Pinterest.
import type { RouteContext } from '../core/router.ts';
import { pinterestAuth } from './auth.ts';
import { invalidField, notFound } from './errors.ts';
import type { PinterestBoard, PinterestUser } from './people.ts';
import { pinView } from './pins.ts';

/** Pinterest's date-times: UTC, to the second, no offset. */
export const pinterestTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19);

interface Page<T> {
  items: T[];
  bookmark: string | null;
}

/** page_size (default 25, 1–250) and bookmark (opaque: the offset) of a listing. */
export function paged<T>(ctx: RouteContext, all: T[]): Page<T> {
  const size = ctx.query.page_size === undefined ? 25 : Number(ctx.query.page_size);
  if (!Number.isInteger(size) || size < 1 || size > 250) throw invalidField('page_size', 'must be between 1 and 250');
  const offset = ctx.query.bookmark ? Number.parseInt(Buffer.from(ctx.query.bookmark, 'base64url').toString(), 10) : 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidField('bookmark', 'is not a bookmark of this listing');
  return { items: all.slice(offset, offset + size), bookmark: offset + size < all.length ? Buffer.from(String(offset + size)).toString('base64url') : null };
}

/** GET /v5/user_account. */
export function userAccount(ctx: RouteContext): unknown {
  const { user } = pinterestAuth(ctx, ['user_accounts:read'], 'org_read');
  const boards = ownBoards(ctx, user);
  const pins = [...ctx.state.pinterest.pins.values()].filter((p) => p.ownerId === user.id && !p.deleted);
  return {
    id: user.id,
    username: user.username,
    account_type: user.accountType,
    business_name: user.businessName,
    profile_image: user.profileImage,
    website_url: user.websiteUrl,
    follower_count: user.followerCount,
    following_count: user.followingCount,
    pin_count: pins.length,
    monthly_views: user.monthlyViews,
    board_count: boards.length,
  };
}

const ownBoards = (ctx: RouteContext, user: PinterestUser): PinterestBoard[] =>
  [...ctx.state.people.pinterestBoards.values()].filter((b) => b.ownerId === user.id).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));

function boardView(ctx: RouteContext, board: PinterestBoard): Record<string, unknown> {
  const owner = ctx.state.people.pinterestUsers.get(board.ownerId);
  return {
    id: board.id,
    name: board.name,
    description: board.description,
    privacy: board.privacy,
    owner: { username: owner?.username ?? '' },
    pin_count: [...ctx.state.pinterest.pins.values()].filter((p) => p.boardId === board.id && !p.deleted).length,
    created_at: pinterestTime(board.createdAt),
  };
}

/** The caller's board, else 404 (another user's board is not theirs to read or Pin to). */
export function ownBoard(ctx: RouteContext, user: PinterestUser, id: string, field = 'board_id'): PinterestBoard {
  if (!/^\d+$/.test(id)) throw invalidField(field, 'must be a string of digits');
  const board = ctx.state.people.pinterestBoards.get(id);
  if (!board || board.ownerId !== user.id) throw notFound('Board');
  return board;
}

const PRIVACY_FILTERS: Record<string, readonly string[]> = {
  ALL: ['PUBLIC', 'PROTECTED', 'SECRET'],
  PUBLIC: ['PUBLIC'],
  PROTECTED: ['PROTECTED'],
  SECRET: ['SECRET'],
  PUBLIC_AND_SECRET: ['PUBLIC', 'SECRET'],
};

/** GET /v5/boards. */
export function listBoards(ctx: RouteContext): unknown {
  const { user, token } = pinterestAuth(ctx, ['boards:read'], 'org_read');
  const filter = ctx.query.privacy ?? 'PUBLIC_AND_SECRET';
  const allowed = PRIVACY_FILTERS[filter];
  if (!allowed) throw invalidField('privacy', `must be one of ${Object.keys(PRIVACY_FILTERS).join(', ')}`);
  // Secret and protected boards are listed only with boards:read_secret.
  const secret = token.scopes.includes('boards:read_secret');
  const boards = ownBoards(ctx, user).filter((b) => allowed.includes(b.privacy) && (secret || b.privacy === 'PUBLIC'));
  const page = paged(ctx, boards);
  return { items: page.items.map((b) => boardView(ctx, b)), bookmark: page.bookmark };
}

/** GET /v5/boards/{board_id}. */
export function getBoard(ctx: RouteContext): unknown {
  const { user } = pinterestAuth(ctx, ['boards:read'], 'org_read');
  return boardView(ctx, ownBoard(ctx, user, ctx.params.board_id ?? ''));
}

/** GET /v5/boards/{board_id}/sections. */
export function listSections(ctx: RouteContext): unknown {
  const { user } = pinterestAuth(ctx, ['boards:read'], 'org_read');
  const board = ownBoard(ctx, user, ctx.params.board_id ?? '');
  const page = paged(ctx, board.sections);
  return { items: page.items.map((s) => ({ id: s.id, name: s.name })), bookmark: page.bookmark };
}

/** GET /v5/boards/{board_id}/pins: newest first. */
export function boardPins(ctx: RouteContext): unknown {
  const { user } = pinterestAuth(ctx, ['boards:read', 'pins:read'], 'org_read');
  const board = ownBoard(ctx, user, ctx.params.board_id ?? '');
  const pins = [...ctx.state.pinterest.pins.values()]
    .filter((p) => p.boardId === board.id && !p.deleted)
    .sort((a, b) => b.createdAt - a.createdAt || (b.id > a.id ? 1 : -1));
  const page = paged(ctx, pins);
  return { items: page.items.map((p) => pinView(ctx, p)), bookmark: page.bookmark };
}
