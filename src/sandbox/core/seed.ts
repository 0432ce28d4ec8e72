// The default seed: one person per platform, ready to consent, so the service is usable in
// sandbox mode with no setup at all.
import type { SandboxState } from './state.ts';

export function seedDefaults(state: SandboxState): void {
  state.addFacebookUser({
    name: 'Sandbox User',
    email: 'sandbox.user@example.com',
    pages: [
      { name: 'Sandbox Bakery', category: 'Bakery', instagram: { username: 'sandbox.bakery', name: 'Sandbox Bakery' } },
      { name: 'Sandbox Books', category: 'Book Store' },
    ],
  });
  state.addThreadsUser({ username: 'sandbox.threads', name: 'Sandbox Threads' });
  state.addTikTokCreator({ username: 'sandbox.tiktok', displayName: 'Sandbox TikTok' });
  state.addRedditUser({ name: 'sandbox_user' });
  state.addSubreddit({
    name: 'sandbox',
    title: 'Sandbox',
    flairs: [{ text: 'Discussion' }, { text: 'News' }, { text: 'Other', textEditable: true }],
  });
  state.addSubreddit({ name: 'sandbox_flair', title: 'Flair required', flairs: [{ text: 'Question' }, { text: 'Showcase' }], flairRequired: true });
  state.addSubreddit({ name: 'sandbox_text', title: 'Text posts only', submissionType: 'self' });
  state.addSubreddit({ name: 'sandbox_links', title: 'Links only', submissionType: 'link' });
}
