// www.pinterest.com (the consent page and each Pin's page), api.pinterest.com (the token
// endpoint and API v5) and the S3-like host video uploads are posted to.
import { Host } from '../core/router.ts';
import { registerConsent } from '../oauth/consent.ts';
import { boardPins, getBoard, listBoards, listSections, userAccount } from './boards.ts';
import { pinterestHostErrors } from './errors.ts';
import { pinterestConsent, pinterestToken } from './login.ts';
import { formUpload, mediaStatus, registerMedia, UPLOAD_HOST } from './media.ts';
import { createPin, deletePin, getPin, pinAnalytics, updatePin } from './pins.ts';
import { registerPinterestPinPages } from './post-page.ts';

export function pinterestHosts(): Host[] {
  const www = new Host('www.pinterest.com', pinterestHostErrors);
  registerConsent(www, '/oauth', pinterestConsent);
  registerPinterestPinPages(www);
  const api = new Host('api.pinterest.com', pinterestHostErrors)
    .post('/v5/oauth/token', pinterestToken)
    .get('/v5/user_account', userAccount)
    .get('/v5/boards', listBoards)
    .get('/v5/boards/:board_id', getBoard)
    .get('/v5/boards/:board_id/sections', listSections)
    .get('/v5/boards/:board_id/pins', boardPins)
    .post('/v5/pins', createPin)
    .get('/v5/pins/:pin_id', getPin)
    .add('PATCH', '/v5/pins/:pin_id', updatePin)
    .delete('/v5/pins/:pin_id', deletePin)
    .get('/v5/pins/:pin_id/analytics', pinAnalytics)
    .post('/v5/media', registerMedia)
    .get('/v5/media/:media_id', mediaStatus);
  const upload = new Host(UPLOAD_HOST, pinterestHostErrors).post('/', formUpload);
  return [www, api, upload];
}
