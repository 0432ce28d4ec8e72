// A post that uses uploaded media by its publicUrl marks the media as used (postId), and
// deleting the post releases them for the cleanup job.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { jpeg } from './fixtures/media.ts';
import { addAccount, createPost, json, startPostsApp, type PostsApp } from './posts-support.ts';

for (const dialect of DIALECTS) {
  describe(`posts and their media [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    before(async () => {
      t = await startPostsApp(dialect);
    });
    after(() => t.close());

    test('postId is set by a post that uses the publicUrl, and cleared when it is deleted', async () => {
      const { key, organizationId } = await t.tenant({ rateLimit: 1_000_000 });
      const account = await addAccount(t, organizationId, 'threads');
      const uploaded = await t.request('/api/v1/media', { key, method: 'POST', headers: json, body: JSON.stringify({ base64: jpeg().toString('base64'), fileName: 'a.jpg' }) });
      assert.equal(uploaded.status, 201);
      const { media } = (await uploaded.json()) as { media: { id: string; publicUrl: string | null; postId: string | null } };
      assert.ok(media.publicUrl, 'sandbox mode gives local media a public URL');
      assert.equal(media.postId, null);

      const created = await createPost(t, key, { content: 'with a picture', platforms: [{ accountId: account.id, platformSpecificData: { mediaType: 'IMAGE', mediaUrl: media.publicUrl } }] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const postId = created.body.post.id;
      const used = (await (await t.request(`/api/v1/media/${media.id}`, { key })).json()) as { media: { postId: string | null } };
      assert.equal(used.media.postId, postId);

      assert.equal((await t.request(`/api/v1/posts/${postId}`, { key, method: 'DELETE' })).status, 200);
      const released = (await (await t.request(`/api/v1/media/${media.id}`, { key })).json()) as { media: { postId: string | null } };
      assert.equal(released.media.postId, null);
    });
  });
}
