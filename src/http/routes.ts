// Every API route, registered by an explicit list; each file holds one operation.
import { Account } from '../modules/accounts/schemas.ts';
import { getAccount } from '../modules/accounts/routes/get-account.ts';
import { listAccounts } from '../modules/accounts/routes/list-accounts.ts';
import { updateAccount } from '../modules/accounts/routes/update-account.ts';
import { getAccountHealth } from '../modules/accounts/routes/account-health.ts';
import { listAccountHealth } from '../modules/accounts/routes/list-health.ts';
import { getPublishingLimit } from '../modules/accounts/routes/publishing-limit.ts';
import { subscribeAccountWebhooks } from '../modules/accounts/routes/webhook-subscription.ts';
import { Health } from '../modules/accounts/health.ts';
import { Pending } from '../modules/connect/pending.ts';
import { connectCallback } from '../modules/connect/routes/connect-callback.ts';
import { getPending } from '../modules/connect/routes/get-pending.ts';
import { listPending } from '../modules/connect/routes/list-pending.ts';
import { selectPending } from '../modules/connect/routes/select-pending.ts';
import { startConnect } from '../modules/connect/routes/start-connect.ts';
import { metaWebhook } from '../modules/platform-webhooks/routes/meta-webhook.ts';
import { whatsappSignup } from '../modules/connect/routes/whatsapp-signup.ts';
import { connectWhatsApp } from '../modules/whatsapp/routes/connect-whatsapp.ts';
import { createMedia } from '../modules/media/routes/create-media.ts';
import { getMedia } from '../modules/media/routes/get-media.ts';
import { listMedia } from '../modules/media/routes/list-media.ts';
import { Media } from '../modules/media/schemas.ts';
import { createWebhook } from '../modules/webhooks/routes/create-webhook.ts';
import { deleteWebhook } from '../modules/webhooks/routes/delete-webhook.ts';
import { listDeliveries } from '../modules/webhooks/routes/list-deliveries.ts';
import { listWebhooks } from '../modules/webhooks/routes/list-webhooks.ts';
import { redeliverWebhook } from '../modules/webhooks/routes/redeliver.ts';
import { testWebhook } from '../modules/webhooks/routes/test-webhook.ts';
import { Delivery, Webhook } from '../modules/webhooks/schemas.ts';
import { createPost } from '../modules/posts/routes/create-post.ts';
import { deletePost } from '../modules/posts/routes/delete-post.ts';
import { getPost } from '../modules/posts/routes/get-post.ts';
import { listPosts } from '../modules/posts/routes/list-posts.ts';
import { publishPost } from '../modules/posts/routes/publish-post.ts';
import { editPublishedPost } from '../modules/posts/routes/edit-published-post.ts';
import { unpublishPost } from '../modules/posts/routes/unpublish-post.ts';
import { updateCommentsSettings } from '../modules/posts/routes/update-comments-settings.ts';
import { updatePost } from '../modules/posts/routes/update-post.ts';
import { Post, PostTarget } from '../modules/posts/schemas.ts';
import type { Api } from './types.ts';

/** Resource schemas referenced by $ref from routes; they become components in openapi.json. */
export const sharedSchemas = [Account, Health, Pending, Media, PostTarget, Post, Webhook, Delivery];

export const routes: Array<(api: Api) => void> = [listAccounts, getAccount, updateAccount,
  listAccountHealth, getAccountHealth, getPublishingLimit, subscribeAccountWebhooks,
  startConnect, connectCallback, listPending, getPending, selectPending, metaWebhook, whatsappSignup, connectWhatsApp,
  listMedia, getMedia, createMedia,
  listPosts, createPost, getPost, updatePost, deletePost, publishPost,
  editPublishedPost, unpublishPost, updateCommentsSettings,
  listWebhooks, createWebhook, deleteWebhook, listDeliveries, testWebhook, redeliverWebhook];
