// Sandbox links that open (issue 29, item 12), on both stores: a published target's url is the
// sandbox's own page of that post (the platform's permalink, rewritten onto the sandbox as every
// browser URL is), which answers HTML showing the post, escaped, with a Content-Security-Policy
// and nosniff; a public TikTok post gets its url from the post id the publish status gives, a
// SELF_ONLY one (no public id) none.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { addMetaAccount, quickMetaProcessing } from './posts-meta-support.ts';
import { addAccount, createPost, settled, startPostsApp, type PostsApp } from './posts-support.ts';

const CONTENT = 'Crusty loaf <b>bold</b> & "quoted"';
const ESCAPED = 'Crusty loaf &#60;b&#62;bold&#60;/b&#62; &#38; &#34;quoted&#34;';

for (const dialect of DIALECTS) {
  describe(`sandbox links that open [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;

    before(async () => {
      t = await startPostsApp(dialect);
      quickMetaProcessing(t);
      // An audited TikTok app may post publicly: only a public post gets a public id.
      t.sandbox.configureApp({ platform: 'tiktok', clientId: 'tiktok-client', audited: true });
      files = await fileServer({ '/a.jpg': { body: samples.jpeg }, '/c.mp4': { body: samples.mp4 } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await files.close();
      await t.close();
    });

    const open = async (url: string) => {
      const res = await fetch(url);
      return { status: res.status, headers: res.headers, html: await res.text() };
    };
    const assertViewPage = (page: { headers: Headers }) => {
      assert.match(page.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
      const csp = page.headers.get('content-security-policy') ?? '';
      for (const directive of ["default-src 'none'", "form-action 'none'", "frame-ancestors 'none'", "base-uri 'none'"]) assert.ok(csp.includes(directive), csp);
      assert.ok(!csp.includes('unsafe-inline') && !csp.includes('script-src'), csp);
    };

    test("every platform's url opens the sandbox's page of the post", async () => {
      const reddit = await addAccount(t, org, 'reddit');
      const threads = await addAccount(t, org, 'threads');
      const instagram = await addMetaAccount(t, org, 'instagram');
      const facebook = await addMetaAccount(t, org, 'facebook');
      const tiktok = await addAccount(t, org, 'tiktok', { tiktok: { privateAccount: false, privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'SELF_ONLY'] } });
      const privateTiktok = await addAccount(t, org, 'tiktok');
      const created = await createPost(t, key, {
        content: CONTENT,
        publishNow: true,
        platforms: [
          { accountId: reddit.id, platformSpecificData: { subreddit: 'sandbox', title: 'Crusty loaf' } },
          { accountId: threads.id },
          { accountId: instagram.id, platformSpecificData: { mediaUrl: `${files.url}/a.jpg` } },
          { accountId: facebook.id, platformSpecificData: { mediaUrl: `${files.url}/a.jpg` } },
          { accountId: tiktok.id, platformSpecificData: { privacyLevel: 'PUBLIC_TO_EVERYONE', mediaUrl: `${files.url}/c.mp4` } },
          { accountId: privateTiktok.id, platformSpecificData: { privacyLevel: 'SELF_ONLY', mediaUrl: `${files.url}/c.mp4` } },
        ],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const post = await settled(t, key, created.body.post.id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const [rd, th, ig, fb, tk, selfOnly] = post.targets;

      const sandbox = `${t.url}/sandbox/`;
      assert.ok((rd?.url ?? '').startsWith(`${sandbox}www.reddit.com/r/sandbox/comments/${(rd?.platformPostId ?? '').slice(3)}/`), rd?.url ?? 'no url');
      assert.ok((th?.url ?? '').startsWith(`${sandbox}www.threads.net/@`), th?.url ?? 'no url');
      assert.ok((ig?.url ?? '').startsWith(`${sandbox}www.instagram.com/p/`), ig?.url ?? 'no url');
      assert.ok((fb?.url ?? '').startsWith(`${sandbox}www.facebook.com/${facebook.pageId}/posts/`), fb?.url ?? 'no url');
      const creator = [...t.sandbox.people.tiktokCreators.values()].find((c) => c.id === tiktok.userId);
      assert.match(tk?.platformPostId ?? '', /^\d+$/, 'a public post has its public id');
      assert.equal(tk?.url, `${sandbox}www.tiktok.com/@${creator?.username ?? ''}/video/${tk?.platformPostId ?? ''}`);
      assert.equal(selfOnly?.url, null, 'a SELF_ONLY post has no public id, so no url');

      for (const [target, author] of [
        [rd, 'u/'],
        [th, '@'],
        [ig, `@${t.sandbox.people.instagramAccounts.get(instagram.platformUserId)?.username ?? ''}`],
        [fb, t.sandbox.people.pages.get(facebook.pageId)?.name ?? ''],
        [tk, `@${creator?.username ?? ''}`],
      ] as const) {
        const page = await open(target?.url ?? '');
        assert.equal(page.status, 200, `${target?.url ?? ''}: ${page.html}`);
        assertViewPage(page);
        assert.ok(page.html.includes(ESCAPED), `${target?.url ?? ''} shows the post, escaped: ${page.html}`);
        assert.ok(!page.html.includes('<b>bold</b>'), 'no markup from the post');
        assert.ok(page.html.includes(author), `${target?.url ?? ''} names ${author}`);
      }
      assert.ok((await open(ig?.url ?? '')).html.includes(`<img alt="" src="${files.url}/a.jpg">`));
      assert.ok((await open(fb?.url ?? '')).html.includes(`<img alt="" src="${files.url}/a.jpg">`));
      assert.ok((await open(tk?.url ?? '')).html.includes(`<video controls preload="none" src="${files.url}/c.mp4">`));
    });

    test('an address with no post there is a 404 page with the same headers', async () => {
      for (const path of ['www.facebook.com/1/posts/2', 'www.instagram.com/p/nothing', 'www.threads.net/@x/post/nothing', 'www.tiktok.com/@x/video/12345', 'www.reddit.com/r/sandbox/comments/zzz/x']) {
        const page = await open(`${t.url}/sandbox/${path}`);
        assert.equal(page.status, 404, path);
        assertViewPage(page);
        assert.match(page.html, /This content isn&#39;t available|This content isn't available/);
      }
    });
  });
}
