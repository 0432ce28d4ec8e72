// How a look-back asks Graph for the next page (meta/graph-look.ts): from `paging.next`, whether
// the edge pages by cursor (`after`) or by time (a Page feed: `until` and a paging token, with
// no `cursors`); never copying the token out of the link; nothing after the last page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextPageParams } from '../src/platforms/meta/graph-look.ts';

test('a cursor-paged edge: the next page is asked with the link’s after', () => {
  const paging = { cursors: { before: 'QVFIa', after: 'QVFIz' }, next: 'https://graph.facebook.com/v24.0/1/feed?fields=id&limit=100&after=QVFIz&access_token=EAAsecret' };
  assert.deepEqual(nextPageParams(paging), { fields: 'id', limit: '100', after: 'QVFIz' });
});

test('a time-paged feed: until and the paging token, with no cursors', () => {
  const paging = { previous: 'https://graph.facebook.com/v24.0/1/feed?since=1700000100&__previous=1', next: 'https://graph.facebook.com/v24.0/1/feed?limit=100&until=1700000000&__paging_token=enc_Abc&appsecret_proof=ff' };
  assert.deepEqual(nextPageParams(paging), { limit: '100', until: '1700000000', __paging_token: 'enc_Abc' });
});

test('the last page has no next; an unreadable link falls back to the cursor', () => {
  assert.equal(nextPageParams({ cursors: { before: 'a', after: 'b' } }), null);
  assert.equal(nextPageParams({}), null);
  assert.deepEqual(nextPageParams({ cursors: { after: 'b' }, next: 'not a url' }), { after: 'b' });
});
