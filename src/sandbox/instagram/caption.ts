// Caption and tag rules of platforms.md §2.3: captions up to 2200 characters (code points),
// 30 hashtags and 20 @mentions (36004/2207010); user_tags up to 20 with x/y from 0 to 1 on
// images (100/2207040 past 20); collaborators up to 3 usernames.
import { invalidParameter } from '../meta/graph-error.ts';
import type { GraphInput } from '../meta/params.ts';
import { list } from '../meta/params.ts';
import { igError } from './errors.ts';
import type { IgUserTag } from './store.ts';

export const CAPTION_LIMIT = 2200;
export const HASHTAG_LIMIT = 30;
export const MENTION_LIMIT = 20;

export const hashtags = (text: string): string[] => text.match(/#[\p{L}\p{N}_]+/gu) ?? [];
export const mentions = (text: string): string[] => (text.match(/@[A-Za-z0-9._]+/g) ?? []).map((m) => m.slice(1).replace(/\.$/, ''));

export function checkCaption(caption: string): void {
  if ([...caption].length > CAPTION_LIMIT) igErrorThrow(`The caption is longer than ${CAPTION_LIMIT} characters.`);
  if (hashtags(caption).length > HASHTAG_LIMIT) igErrorThrow(`The caption has more than ${HASHTAG_LIMIT} hashtags.`);
  if (mentions(caption).length > MENTION_LIMIT) igErrorThrow(`The caption has more than ${MENTION_LIMIT} @mentions.`);
}

function igErrorThrow(userMessage: string): never {
  throw igError(2207010, userMessage);
}

/** `user_tags=[{"username":"x","x":0.5,"y":0.8}]`; x/y only (and required) on images. */
export function parseUserTags(input: GraphInput, image: boolean): IgUserTag[] {
  const raw = input.user_tags;
  if (raw === undefined || raw === '') return [];
  let parsed: unknown = raw;
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw invalidParameter('(#100) Param user_tags must be a JSON array of {username, x, y}.');
    }
  }
  if (!Array.isArray(parsed)) throw invalidParameter('(#100) Param user_tags must be a JSON array of {username, x, y}.');
  if (parsed.length > 20) throw igError(2207040);
  return parsed.map((item: unknown, i) => {
    const tag = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    if (typeof tag.username !== 'string' || !tag.username) throw invalidParameter(`(#100) Param user_tags[${i}][username] is required.`);
    const coord = (key: 'x' | 'y') => {
      const value = typeof tag[key] === 'string' ? Number(tag[key]) : tag[key];
      if (!image) return undefined;
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
        throw invalidParameter(`(#100) Param user_tags[${i}][${key}] must be a number between 0 and 1.`);
      }
      return value;
    };
    return { username: tag.username, x: coord('x'), y: coord('y') };
  });
}

export function parseCollaborators(input: GraphInput): string[] {
  const names = list(input, 'collaborators') ?? [];
  if (names.length > 3) throw invalidParameter('(#100) Param collaborators can have at most 3 usernames.');
  return names;
}
