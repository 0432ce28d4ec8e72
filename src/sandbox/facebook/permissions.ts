// The permissions Facebook Login knows (Meta's permissions reference), for the dialog's check: a
// login asking for a name not on the list is refused on the dialog itself with "Invalid Scopes"
// and never reaches the redirect_uri, as Facebook does. There is no `pages_read_user_engagement`:
// people's comments on Page posts take `pages_read_user_content` (platforms.md §3).
const PERMISSIONS = new Set([
  // Login and the person
  'public_profile',
  'email',
  'openid',
  'user_age_range',
  'user_birthday',
  'user_friends',
  'user_gender',
  'user_hometown',
  'user_likes',
  'user_link',
  'user_location',
  'user_messenger_contact',
  'user_photos',
  'user_posts',
  'user_videos',
  // Pages
  'pages_show_list',
  'pages_read_engagement',
  'pages_read_user_content',
  'pages_manage_posts',
  'pages_manage_engagement',
  'pages_manage_metadata',
  'pages_manage_ads',
  'pages_manage_cta',
  'pages_manage_instant_articles',
  'pages_messaging',
  'pages_user_gender',
  'pages_user_locale',
  'pages_user_timezone',
  'page_events',
  'publish_video',
  'read_insights',
  'read_page_mailboxes',
  // Instagram with Facebook Login
  'instagram_basic',
  'instagram_content_publish',
  'instagram_manage_comments',
  'instagram_manage_insights',
  'instagram_manage_messages',
  'instagram_manage_events',
  'instagram_manage_upcoming_events',
  'instagram_shopping_tag_products',
  'instagram_branded_content_ads_brand',
  'instagram_branded_content_brand',
  'instagram_branded_content_creator',
  // Business, ads, WhatsApp
  'business_management',
  'ads_management',
  'ads_read',
  'attribution_read',
  'catalog_management',
  'leads_retrieval',
  'read_audience_network_insights',
  'whatsapp_business_management',
  'whatsapp_business_messaging',
  'whatsapp_business_manage_events',
  'commerce_account_manage_orders',
  'commerce_account_read_orders',
  'commerce_account_read_reports',
  'commerce_account_read_settings',
  'commerce_manage_accounts',
  'groups_access_member_info',
  'publish_to_groups',
  'gaming_user_locale',
  'manage_fundraisers',
  'private_computation_access',
]);

/** The asked names Facebook Login does not know, in the order asked. */
export function unknownPermissions(scopes: readonly string[]): string[] {
  return scopes.filter((s) => !PERMISSIONS.has(s));
}
