// The Facebook Login side of graph.facebook.com: the user node (`/me`, `/me/accounts`,
// `/me/permissions`), Page nodes and the Instagram accounts linked to Pages (platforms.md §1.5,
// §2.1). Publishing on Pages and Instagram is added by their own modules on the same nodes.
import type { TokenRecord } from '../core/model.ts';
import type { FacebookPage, FacebookUser, InstagramAccount } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import { graphToken, requireScopes } from '../meta/auth.ts';
import { parseFields, selectFields } from '../meta/fields.ts';
import { unsupportedRequest } from '../meta/graph-error.ts';
import { defineNode } from '../meta/nodes.ts';
import { pageOf } from '../meta/paging.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { pageToken } from './login.ts';
import { pageEdges } from './page-edges.ts';

export const facebookToken = (ctx: RouteContext, input: GraphInput): TokenRecord => graphToken(ctx, input, { platforms: ['facebook'] });

/** `me` on graph.facebook.com: the user, or the Page for a Page token. */
export const facebookMe = (ctx: RouteContext, input: GraphInput): string => facebookToken(ctx, input).subjectId;

export const userNode = defineNode<FacebookUser>({
  type: 'User',
  find: (state, id) => state.people.facebookUsers.get(id),
  get({ ctx, input, node }) {
    const token = facebookToken(ctx, input);
    if (token.userId !== node.id) throw unsupportedRequest('GET', node.id);
    return selectFields('User', userFields(node), parseFields(str(input, 'fields')), ['id', 'name']);
  },
  edges: {
    accounts: {
      get({ ctx, input, node }) {
        const token = facebookToken(ctx, input);
        if (token.type !== 'user' || token.userId !== node.id) throw unsupportedRequest('GET', `${node.id}/accounts`);
        requireScopes(token, ['pages_show_list']);
        const fields = parseFields(str(input, 'fields'));
        const pages = token.pageIds.flatMap((id) => {
          const page = ctx.state.people.pages.get(id);
          return page && node.pageIds.includes(id) ? [page] : [];
        });
        const rows = pages.map((page) =>
          selectFields('Page', pageFields(ctx, page, token), fields, ['access_token', 'category', 'category_list', 'name', 'id', 'tasks']),
        );
        return pageOf(ctx, input, rows);
      },
    },
    permissions: {
      get({ ctx, input, node }) {
        const token = facebookToken(ctx, input);
        if (token.userId !== node.id) throw unsupportedRequest('GET', `${node.id}/permissions`);
        const data = [
          ...token.scopes.map((permission) => ({ permission, status: 'granted' })),
          { permission: 'public_profile', status: 'granted' },
          ...token.declined.map((permission) => ({ permission, status: 'declined' })),
        ];
        return { data };
      },
      /** Removing every permission deauthorizes the app: all of the user's tokens stop working. */
      delete({ ctx, input, node }) {
        const token = facebookToken(ctx, input);
        if (token.userId !== node.id) throw unsupportedRequest('DELETE', `${node.id}/permissions`);
        ctx.state.revokeToken(token.value, 'deauthorized');
        return { success: true };
      },
    },
  },
});

export const pageNode = defineNode<FacebookPage>({
  type: 'Page',
  find: (state, id) => state.people.pages.get(id),
  get({ ctx, input, node }) {
    const token = facebookToken(ctx, input);
    if (!token.pageIds.includes(node.id)) throw unsupportedRequest('GET', node.id);
    return selectFields('Page', pageFields(ctx, node, token), parseFields(str(input, 'fields')), ['name', 'id']);
  },
  edges: pageEdges,
});

function userFields(user: FacebookUser) {
  const [first = '', ...rest] = user.name.split(' ');
  return {
    id: () => user.id,
    name: () => user.name,
    email: () => user.email,
    first_name: () => first,
    last_name: () => rest.join(' '),
    short_name: () => first,
    picture: () => ({ data: { height: 50, width: 50, is_silhouette: true, url: 'https://sandbox.invalid/avatars/facebook.jpg' } }),
  };
}

function pageFields(ctx: RouteContext, page: FacebookPage, token: TokenRecord) {
  return {
    id: () => page.id,
    name: () => page.name,
    category: () => page.category,
    category_list: () => [{ id: '2500', name: page.category }],
    tasks: () => page.tasks,
    access_token: () => (token.type === 'user' ? pageToken(ctx.state, token, page.id).value : token.value),
    instagram_business_account: () => (page.instagramAccountId ? { id: page.instagramAccountId } : undefined),
    link: () => `https://www.facebook.com/${page.id}`,
    picture: () => ({ data: { height: 50, width: 50, is_silhouette: false, url: 'https://sandbox.invalid/avatars/page.jpg' } }),
    fan_count: () => 1000,
    followers_count: () => 1000,
  };
}

export function instagramFields(account: InstagramAccount) {
  return {
    id: () => account.id,
    ig_id: () => Number(account.id.slice(-10)),
    user_id: () => account.id,
    username: () => account.username,
    name: () => account.name,
    account_type: () => account.accountType,
    biography: () => account.biography,
    followers_count: () => account.followersCount,
    follows_count: () => account.followsCount,
    media_count: () => account.mediaCount,
    profile_picture_url: () => account.profilePictureUrl,
    website: () => 'https://example.com',
  };
}
