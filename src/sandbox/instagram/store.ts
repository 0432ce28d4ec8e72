// Instagram records (platforms.md §2.3–2.7): media containers, published media (the account's
// own, and other people's media that mention it), comments, and mentions.
export type IgContainerType = 'IMAGE' | 'VIDEO' | 'REELS' | 'STORIES' | 'CAROUSEL';

export interface IgUserTag {
  username: string;
  x?: number | undefined;
  y?: number | undefined;
}

export interface IgContainer {
  id: string;
  accountId: string;
  mediaType: IgContainerType;
  /** What the bytes must be: STORIES take either. */
  kind: 'image' | 'video' | 'carousel';
  caption: string | null;
  imageUrl: string | null;
  videoUrl: string | null;
  isCarouselItem: boolean;
  children: string[];
  userTags: IgUserTag[];
  collaborators: string[];
  locationId: string | null;
  altText: string | null;
  shareToFeed: boolean | null;
  thumbOffset: number | null;
  coverUrl: string | null;
  audioName: string | null;
  trialParams: Record<string, unknown> | null;
  createdAt: number;
  /** Processing is over at this time (sandbox clock), if the download is done. */
  readyAt: number;
  download: 'none' | 'pending' | 'ok' | 'failed';
  /** The §2.4 subcode an ERROR container reports in its `status` text. */
  errorSubcode: number | null;
  publishedId: string | null;
}

export interface IgMedia {
  id: string;
  /** The owner: the account, or a person's id for media that mentions the account. */
  accountId: string;
  username: string;
  containerId: string | null;
  mediaType: 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  productType: 'FEED' | 'REELS' | 'STORY';
  caption: string | null;
  mediaUrl: string | null;
  thumbnailUrl: string | null;
  childIds: string[];
  isCarouselChild: boolean;
  publishedAt: number;
  shortcode: string;
  commentEnabled: boolean;
  userTags: IgUserTag[];
  collaborators: string[];
  altText: string | null;
  locationId: string | null;
  likeCount: number;
}

export interface IgComment {
  id: string;
  mediaId: string;
  parentId: string | null;
  text: string;
  fromId: string;
  fromUsername: string;
  createdAt: number;
  hidden: boolean;
  likeCount: number;
}

/** Someone @mentioned the account in a caption (commentId null) or a comment (§2.7). */
export interface IgMention {
  accountId: string;
  mediaId: string;
  commentId: string | null;
}
