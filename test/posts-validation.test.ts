// POST /posts input rules, table-driven, on both stores: the NewPost fields, targets and
// accounts, every platformSpecificData rule of the contract's tables (format rules on every
// create, "live" rules when the post goes live), the 400 messages naming the field by path,
// and the per-target warnings for skipped keys.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PLATFORMS } from '../src/platforms/registry.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { addAccount, createPost, startPostsApp, type PostsApp } from './posts-support.ts';

const FUTURE = () => new Date(Date.now() + 3600_000).toISOString();
const IMG = 'https://cdn.example/a.jpg';
const VID = 'https://cdn.example/v.mp4';

type Case = [name: string, data: Record<string, unknown>, expected: RegExp | 'ok', opts?: { live?: boolean; content?: string }];

const CASES: Record<string, Case[]> = {
  reddit: [
    ['subreddit required live', {}, /^platforms\[0\]\.platformSpecificData\.subreddit: required for live posts$/, { live: true }],
    ['subreddit optional in drafts', {}, 'ok'],
    ['subreddit without r/', { subreddit: 'r/sandbox' }, /subreddit: write the name without r\//],
    ['subreddit type', { subreddit: 5 }, /subreddit: must be a string/],
    ['title max 300', { title: 'x'.repeat(301) }, /title: must have at most 300 characters/],
    ['title default first line over 300', { subreddit: 'sandbox' }, /title: required: the content's first line/, { live: true, content: 'y'.repeat(301) }],
    ['url must be a URL', { url: 'not a url' }, /url: must be an http\(s\) URL/],
    ['url http or https only', { url: 'ftp://example.com/a' }, /url: must be an http\(s\) URL/],
    ['url http is a link reddit takes', { subreddit: 'sandbox', url: 'http://example.com' }, 'ok', { live: true }],
    ['flairId type', { flairId: true }, /flairId: must be a string/],
    ['link post with flair', { subreddit: 'sandbox', url: 'https://example.com', flairId: 'abc' }, 'ok', { live: true }],
  ],
  instagram: [
    ['media required live', {}, /mediaUrl: required/, { live: true }],
    ['https only', { mediaUrl: 'ftp://x/a.jpg' }, /mediaUrl: must be an https URL/],
    ['images must be JPEG', { mediaUrl: 'https://cdn.example/a.png' }, /mediaUrl: instagram images must be JPEG/],
    ['mediaUrl and mediaUrls', { mediaUrl: IMG, mediaUrls: [IMG, IMG] }, /give mediaUrl or mediaUrls, not both/],
    ['mediaType enum', { mediaUrl: IMG, mediaType: 'GIF' }, /mediaType: must be one of IMAGE, VIDEO, REELS, STORIES, CAROUSEL, feed, reel, story, carousel/],
    ['contentType lower-case spelling', { mediaUrl: VID, contentType: 'reel' }, 'ok'],
    ['both spellings must agree', { mediaUrl: IMG, mediaType: 'IMAGE', contentType: 'story' }, /contentType: disagrees with mediaType/],
    ['carousel 2 to 10', { mediaUrls: [IMG], mediaType: 'CAROUSEL' }, /mediaUrls: a carousel has 2 to 10 items/],
    ['carousel at most 10', { mediaUrls: Array(11).fill(IMG) }, /mediaUrls: must have 1 to 10 items/],
    ['caption 2200', { mediaUrl: IMG }, /^platforms\[0\]\.content: an instagram caption has at most 2200 characters$/, { content: 'c'.repeat(2201) }],
    ['caption 30 hashtags', { mediaUrl: IMG }, /content: an instagram caption has at most 30 hashtags/, { content: Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ') }],
    ['firstComment 2200', { mediaUrl: IMG, firstComment: 'f'.repeat(2201) }, /firstComment: must have at most 2200 characters/],
    ['collaborators up to 3', { mediaUrl: IMG, collaborators: ['a', 'b', 'c', 'd'] }, /collaborators: at most 3 usernames/],
    ['userTags x in [0,1]', { mediaUrl: IMG, userTags: [{ username: 'bob', x: 1.5, y: 0.2 }] }, /userTags\[0\]\.x: must be a number from 0 to 1/],
    ['userTags photos need x and y', { mediaUrl: IMG, userTags: [{ username: 'bob' }] }, /userTags\[0\]\.x: required for photos/],
    ['userTags videos need only username', { mediaUrl: VID, userTags: [{ username: 'bob' }] }, 'ok'],
    ['userTags mediaIndex in range', { mediaUrls: [IMG, IMG], userTags: [{ username: 'bob', x: 0, y: 0, mediaIndex: 2 }] }, /userTags\[0\]\.mediaIndex: must be an item index from 0 to 1/],
    ['locationId digits', { mediaUrl: IMG, locationId: 'paris' }, /locationId: must be a location page id/],
    ['altText 1000', { mediaUrl: IMG, altText: 'a'.repeat(1001) }, /altText: must have at most 1000 characters/],
    ['altTexts one per item', { mediaUrls: [IMG, IMG], altTexts: ['one'] }, /altTexts: must give one per carousel item \(2\)/],
    ['thumbOffset integer', { mediaUrl: VID, thumbOffset: 'soon' }, /thumbOffset: must be an integer/],
    ['coverUrl https', { mediaUrl: VID, coverUrl: 'ftp://x' }, /coverUrl: must be an https URL/],
    ['trialParams strategy', { mediaUrl: VID, trialParams: { graduationStrategy: 'AUTO' } }, /trialParams\.graduationStrategy: must be one of MANUAL, SS_PERFORMANCE/],
    ['commentsEnabled boolean', { mediaUrl: IMG, commentsEnabled: 'no' }, /commentsEnabled: must be a boolean/],
    // The body's JSON schema lists every platform's options but refuses nothing more: a reddit key
    // of the wrong type is skipped here, and the instagram rule answers with its own message.
    ['another platform\'s key of the wrong type is skipped', { mediaUrl: IMG, subreddit: 5, privacyLevel: 'FRIENDS' }, 'ok'],
    ['the platform\'s own rule answers, not the body schema', { subreddit: 5, mediaUrl: 5 }, /^platforms\[0\]\.platformSpecificData\.mediaUrl: must be a string$/],
  ],
  facebook: [
    ['contentType enum', { contentType: 'album' }, /contentType: must be one of feed, reel, story/],
    ['reel needs media live', { contentType: 'reel' }, /mediaUrl: required for a reel/, { live: true }],
    ['reel is one video', { contentType: 'reel', mediaUrl: IMG }, /mediaUrl: a reel is one video/],
    ['multi-photo without videos', { mediaUrls: [IMG, VID] }, /mediaUrls: a multi-photo post takes 2 to 10 photos, no videos/],
    ['story one item', { contentType: 'story', mediaUrls: [IMG, IMG] }, /mediaUrls: a story takes one item/],
    ['mediaType enum', { mediaUrl: IMG, mediaType: 'GIF' }, /mediaType: must be one of IMAGE, VIDEO/],
    // message max 63206: the service's own 40000-character content limit is reached first.
    ['link https', { link: 'ftp://example.com' }, /link: must be an https URL/],
    ['link http refused on a draft', { link: 'http://example.com' }, /link: must be an https URL/],
    ['link http refused live', { link: 'http://example.com' }, /link: must be an https URL/, { live: true }],
    ['link only without media', { link: 'https://example.com', mediaUrl: IMG }, /link: only for text posts without media/],
    ['title 255', { mediaUrl: VID, title: 't'.repeat(256) }, /title: must have at most 255 characters/],
    ['firstComment 8000', { firstComment: 'f'.repeat(8001) }, /firstComment: must have at most 8000 characters/],
    ['draft not on one photo', { mediaUrl: IMG, draft: true }, /draft: drafts are text, link or multi-photo posts only/],
    ['draft multi-photo', { mediaUrls: [IMG, IMG], draft: true }, 'ok'],
  ],
  threads: [
    ['text 500', {}, /^platforms\[0\]\.content: threads posts have at most 500 characters$/, { content: 't'.repeat(501) }],
    ['mediaType enum', { mediaType: 'AUDIO' }, /mediaType: must be one of TEXT, IMAGE, VIDEO, CAROUSEL/],
    ['carousel 2 to 20', { mediaUrls: [IMG], mediaType: 'CAROUSEL' }, /mediaUrls: a carousel has 2 to 20 items/],
    ['carousel at most 20', { mediaUrls: Array(21).fill(IMG) }, /mediaUrls: must have at most 20 items/],
    ['topicTag 1 to 50', { topicTag: 'x'.repeat(51) }, /topicTag: must have at most 50 characters/],
    ['topicTag without . and &', { topicTag: 'a&b' }, /topicTag: may not contain \. or &/],
    ['replyControl enum', { replyControl: 'nobody' }, /replyControl: must be one of everyone, accounts_you_follow, mentioned_only, parent_post_author_only, followers_only/],
    ['linkAttachment https', { linkAttachment: 'javascript:alert(1)' }, /linkAttachment: must be an https URL/],
    ['linkAttachment http refused on a draft', { linkAttachment: 'http://example.com' }, /linkAttachment: must be an https URL/],
    ['linkAttachment http refused live', { linkAttachment: 'http://example.com' }, /linkAttachment: must be an https URL/, { live: true }],
    ['linkAttachment text posts only', { linkAttachment: 'https://example.com', mediaUrl: IMG }, /linkAttachment: only on text posts/],
    ['altText 1000', { mediaUrl: IMG, altText: 'a'.repeat(1001) }, /altText: must have at most 1000 characters/],
    ['firstComment 500', { firstComment: 'f'.repeat(501) }, /firstComment: must have at most 500 characters/],
    ['threadItems 1 to 20', { threadItems: [] }, /threadItems: must have 1 to 20 items/],
    ['threadItems over 20', { threadItems: Array(21).fill({ content: 'x' }) }, /threadItems: must have 1 to 20 items/],
    ['threadItems content required', { threadItems: [{ mediaUrl: IMG }] }, /threadItems\[0\]\.content: required/],
    ['threadItems content 500', { threadItems: [{ content: 'ok' }, { content: 'x'.repeat(501) }] }, /threadItems\[1\]\.content: must have at most 500 characters/],
    ['threadItems media type', { threadItems: [{ content: 'ok', mediaType: 'GIF' }] }, /threadItems\[0\]\.mediaType: must be one of/],
    ['text post needs text live', {}, /content: required for a threads text post/, { live: true, content: '  ' }],
  ],
  tiktok: [
    ['privacyLevel required live', { mediaUrl: VID }, /privacyLevel: required for live posts/, { live: true }],
    ['privacyLevel enum', { privacyLevel: 'FRIENDS' }, /privacyLevel: must be one of PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY/],
    ['video needs mediaUrl live', { privacyLevel: 'SELF_ONLY' }, /mediaUrl: required for live posts/, { live: true }],
    ['mediaType enum', { mediaType: 'gif' }, /mediaType: must be one of video, image/],
    ['photo title 90', { mediaType: 'image', mediaUrls: [IMG], title: 't'.repeat(91) }, /title: must have at most 90 characters/],
    ['photos up to 35', { mediaType: 'image', mediaUrls: Array(36).fill(IMG) }, /mediaUrls: must have 1 to 35 items/],
    ['video caption 2200', { mediaUrl: VID }, /content: a tiktok video caption has at most 2200 characters/, { content: 'c'.repeat(2201) }],
    ['interactions are booleans', { disableComment: 'yes' }, /disableComment: must be a boolean/],
    ['brandContent not with SELF_ONLY', { privacyLevel: 'SELF_ONLY', brandContent: true }, /brandContent: paid partnerships cannot be posted with privacyLevel SELF_ONLY/],
    ['one video URL', { mediaType: 'video', mediaUrls: [VID, VID] }, /mediaUrls: a video post takes one URL/],
  ],
};

for (const dialect of DIALECTS) {
  describe(`posts validation [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let other: { key: string; organizationId: string };
    const accounts: Record<string, string> = {};

    before(async () => {
      t = await startPostsApp(dialect, { worker: false, env: { ALLOW_PRIVATE_URLS: '0' } });
      const tenant = await t.tenant();
      key = tenant.key;
      for (const platform of ['reddit', 'instagram', 'facebook', 'threads', 'tiktok', 'whatsapp']) accounts[platform] = (await addAccount(t, tenant.organizationId, platform)).id;
      other = await t.tenant();
      accounts.foreign = (await addAccount(t, other.organizationId, 'reddit')).id;
    });
    after(() => t.close());

    const post = (body: Record<string, unknown>) => createPost(t, key, body);
    const target = (platform: string, data: Record<string, unknown> = {}) => ({ accountId: accounts[platform] ?? '', platformSpecificData: data });
    const expect400 = async (body: Record<string, unknown>, message: RegExp) => {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.error?.message ?? '', message);
    };

    for (const [platform, cases] of Object.entries(CASES)) {
      test(`${platform}: every rule of its platformSpecificData table`, async () => {
        for (const [name, data, expected, opts = {}] of cases) {
          const body = { content: opts.content ?? 'Hello there', platforms: [target(platform, data)], ...(opts.live ? { scheduledFor: FUTURE() } : {}) };
          const res = await post(body);
          if (expected === 'ok') {
            assert.equal(res.status, 201, `${name}: ${JSON.stringify(res.body)}`);
          } else {
            assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
            assert.match(res.body.error?.message ?? '', expected, name);
            assert.match(res.body.error?.message ?? '', /^platforms\[0\]\./, `${name}: the message names the field by path`);
          }
        }
      });
    }

    test('NewPost fields: content, targets, scheduledFor and publishNow', async () => {
      await expect400({ platforms: [target('reddit')] }, /^content: required$/);
      await expect400({ content: 5, platforms: [target('reddit')] }, /^content: must be string$/);
      await expect400({ content: 'x'.repeat(40_001), platforms: [target('reddit')] }, /^content: must NOT have more than 40000 characters$/);
      await expect400({ content: 'x', platforms: [] }, /^platforms: must NOT have fewer than 1 items$/);
      await expect400({ content: 'x', platforms: Array.from({ length: 21 }, () => target('reddit')) }, /^platforms: must NOT have more than 20 items$/);
      await expect400({ content: 'x', platforms: [target('reddit'), target('threads'), target('reddit')] }, /^platforms\[2\]\.accountId: the same account as platforms\[0\]/);
      await expect400({ content: 'x', platforms: [{ accountId: 'acc_nope' }] }, /^platforms\[0\]\.accountId: no such account$/);
      await expect400({ content: 'x', platforms: [target('threads'), { accountId: accounts.foreign }] }, /^platforms\[1\]\.accountId: no such account$/);
      await expect400({ content: 'x', platforms: [{ ...target('reddit'), platform: 'myspace' }] }, new RegExp(`^platforms\\[0\\]\\.platform: must be one of ${PLATFORMS.join(', ')}$`));
      for (const word of ['x', 'linkedin', 'threads', 'whatsapp']) {
        await expect400({ content: 'x', platforms: [{ ...target('reddit'), platform: word }] }, /^platforms\[0\]\.platform: does not match the account, which is a reddit account$/);
      }
      assert.equal((await post({ content: 'x', platforms: [{ ...target('threads'), platform: 'threads' }] })).status, 201);
      await expect400({ content: 'x', platforms: [target('whatsapp')] }, /^platforms\[0\]\.accountId: whatsapp accounts cannot publish posts$/);
      await expect400({ content: 'x', platforms: [{ ...target('whatsapp'), platform: 'whatsapp' }] }, /^platforms\[0\]\.accountId: whatsapp accounts cannot publish posts$/);
      await expect400({ content: 'x', platforms: [target('reddit', { subreddit: 'sandbox' })], publishNow: true, scheduledFor: FUTURE() }, /^scheduledFor: cannot be combined with publishNow: true$/);
      await expect400({ content: 'x', platforms: [target('reddit', { subreddit: 'sandbox' })], scheduledFor: new Date(Date.now() - 120_000).toISOString() }, /^scheduledFor: must be in the future$/);
      await expect400({ content: 'x', platforms: [target('reddit')], scheduledFor: 'tomorrow' }, /^scheduledFor: must match format "date-time"$/);
      await expect400({ content: 'x', platforms: [target('reddit')], publishNow: 'yes' }, /^publishNow: must be boolean$/);
      const skew = await post({ content: 'x', platforms: [target('reddit', { subreddit: 'sandbox' })], scheduledFor: new Date(Date.now() - 30_000).toISOString() });
      assert.equal(skew.status, 201, 'up to 60 s in the past is clock skew');
    });

    test('warnings: keys of another platform, unknown keys and keys that do not apply are skipped', async () => {
      const res = await post({
        content: 'A story',
        platforms: [
          target('reddit', { subreddit: 'sandbox', privacyLevel: 'SELF_ONLY', bogus: 1 }),
          target('instagram', { mediaUrl: IMG, contentType: 'story', firstComment: 'hi', collaborators: ['a'], locationId: '123', shareToFeed: true }),
          target('tiktok', { mediaType: 'image', mediaUrls: [IMG], disableDuet: true }),
          target('threads', { threadItems: [{ content: 'one', extra: true }], mediaUrl: IMG }),
        ],
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const [reddit, instagram, tiktok, threads] = res.body.post.targets;
      assert.deepEqual(reddit?.warnings, [
        { key: 'privacyLevel', message: 'applies to tiktok, not reddit; skipped' },
        { key: 'bogus', message: 'unknown key for reddit; skipped' },
      ]);
      assert.deepEqual(instagram?.warnings.map((w) => w.key), ['content', 'firstComment', 'collaborators', 'locationId', 'shareToFeed']);
      assert.match(instagram?.warnings.find((w) => w.key === 'firstComment')?.message ?? '', /not used on stories/);
      assert.deepEqual(tiktok?.warnings, [{ key: 'disableDuet', message: 'does not apply to photo posts; skipped' }]);
      assert.deepEqual(threads?.warnings.map((w) => w.key), ['threadItems[0].extra', 'mediaUrl', 'content']);
    });

    test('format rules apply to drafts too; live rules only when going live', async () => {
      const draft = await post({ content: 'x', platforms: [target('tiktok', { mediaUrl: VID })] });
      assert.equal(draft.status, 201);
      assert.equal(draft.body.post.status, 'draft');
      await expect400({ content: 'x', platforms: [target('tiktok', { mediaUrl: VID })], publishNow: true }, /^platforms\[0\]\.platformSpecificData\.privacyLevel: required for live posts$/);
      const publish = await t.request(`/api/v1/posts/${draft.body.post.id}/publish`, { key, method: 'POST' });
      assert.equal(publish.status, 400);
      assert.match(((await publish.json()) as { error: { message: string } }).error.message, /privacyLevel: required for live posts/);
      const patch = await t.request(`/api/v1/posts/${draft.body.post.id}`, { key, method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'c'.repeat(2201) }) });
      assert.equal(patch.status, 400, 'PATCH checks the format rules with the new content');
      assert.match(((await patch.json()) as { error: { message: string } }).error.message, /^platforms\[0\]\.content: a tiktok video caption has at most 2200 characters$/);
    });

    test('http media URLs are refused unless private URLs are allowed', async () => {
      await expect400({ content: 'x', platforms: [target('threads', { mediaUrl: 'http://cdn.example/a.jpg' })] }, /mediaUrl: must be an https URL/);
    });
  });
}

// ALLOW_PRIVATE_URLS=1 (sandbox and development) lets platforms fetch media over http; it does
// not loosen the links a post shows its readers, on drafts or live posts.
for (const dialect of DIALECTS) {
  describe(`posts validation with http media allowed [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    const accounts: Record<string, string> = {};
    before(async () => {
      t = await startPostsApp(dialect, { worker: false, env: { ALLOW_PRIVATE_URLS: '1' } });
      const tenant = await t.tenant();
      key = tenant.key;
      for (const platform of ['reddit', 'facebook', 'threads']) accounts[platform] = (await addAccount(t, tenant.organizationId, platform)).id;
    });
    after(() => t.close());

    const target = (platform: string, data: Record<string, unknown>) => ({ accountId: accounts[platform] ?? '', platformSpecificData: data });
    const cases: Array<[platform: string, data: Record<string, unknown>, expected: RegExp | 'ok']> = [
      ['facebook', { link: 'http://example.com/page' }, /^platforms\[0\]\.platformSpecificData\.link: must be an https URL$/],
      ['threads', { linkAttachment: 'http://example.com/page' }, /^platforms\[0\]\.platformSpecificData\.linkAttachment: must be an https URL$/],
      ['facebook', { link: 'https://example.com/page' }, 'ok'],
      ['threads', { mediaUrl: 'http://127.0.0.1:9/a.jpg' }, 'ok'],
      ['facebook', { mediaUrl: 'http://127.0.0.1:9/a.jpg' }, 'ok'],
      ['reddit', { subreddit: 'sandbox', url: 'http://example.com/page' }, 'ok'],
    ];
    for (const live of [false, true]) {
      test(`links are https on ${live ? 'live posts' : 'drafts'}; http media stays allowed`, async () => {
        for (const [platform, data, expected] of cases) {
          // Scheduled rather than publishNow: the rule is what is checked, not the delivery.
          const res = await createPost(t, key, { content: 'Hello there', platforms: [target(platform, data)], ...(live ? { scheduledFor: FUTURE() } : {}) });
          const name = `${platform} ${JSON.stringify(data)}`;
          if (expected === 'ok') {
            assert.equal(res.status, 201, `${name}: ${JSON.stringify(res.body)}`);
          } else {
            assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
            assert.match(res.body.error?.message ?? '', expected, name);
          }
        }
      });
    }
  });
}
