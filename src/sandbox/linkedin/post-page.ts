// The LinkedIn post a link names (www.linkedin.com/feed/update/{urn}/), as the sandbox shows it
// (core/post-page.ts): the commentary as LinkedIn shows it, noting a cut at an unescaped character.
import type { Host, RouteContext } from '../core/router.ts';
import { sendPostPage } from '../core/post-page.ts';

function show(ctx: RouteContext): unknown {
  const post = ctx.state.linkedin.posts.get(ctx.params.urn ?? '');
  if (!post || post.deleted) return sendPostPage(ctx, null);
  const organization = /^urn:li:organization:(\d+)$/.exec(post.author)?.[1];
  const author = organization ? ctx.state.people.linkedinOrganizations.get(organization)?.name : ctx.state.people.linkedinMembers.get(post.memberId)?.name;
  return sendPostPage(ctx, {
    platform: 'LinkedIn',
    author: author ?? post.author,
    text: post.shown,
    createdAt: post.createdAt,
    media: [],
    notes: [`Visibility: ${post.visibility}`, ...(post.truncated ? ['The commentary was cut at an unescaped reserved character'] : [])],
  });
}

export function registerLinkedInPostPages(host: Host): void {
  host.get('/feed/update/:urn', show);
}
