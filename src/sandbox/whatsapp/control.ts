// Control API for WhatsApp under `/_sandbox/whatsapp/…` (issue 3 point 7): seed business
// accounts and numbers, describe people, make a person write or read, decide template reviews,
// change quality and restrictions, and inject Cloud API errors in their own shape (§7.6).
import type { FastifyInstance } from 'fastify';
import type { SandboxState } from '../core/state.ts';
import { WHATSAPP_ERRORS, whatsappErrorBody } from './errors.ts';
import { changeAccountRestriction, changePhoneQuality, changeTemplateCategory, changeTemplateQuality, type PhoneQualityInput } from './events.ts';
import { receiveMessage, type InboundInput } from './inbound.ts';
import { addPhoneNumber, addWhatsAppBusiness, type PhoneNumberInput, type WabaInput } from './seed.ts';
import { setStatus } from './statuses.ts';
import { digitsOf, type QualityRating, type TemplateCategory, type TemplateStatus } from './store.ts';
import { decideTemplate } from './templates.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

class WhatsAppControlError extends Error {
  readonly statusCode = 400;
}

function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw new WhatsAppControlError(error instanceof Error ? error.message : String(error));
  }
}

const need = (body: Json, key: string): string => {
  const value = body[key];
  if (typeof value !== 'string' || !value) throw new WhatsAppControlError(`${key}: required`);
  return value;
};

export function registerWhatsAppControl(app: FastifyInstance, state: SandboxState): void {
  const wa = () => state.whatsapp;
  app.get('/_sandbox/whatsapp', () => ({
    businesses: [...wa().wabas.values()].map((w) => ({ ...w, phoneNumbers: w.phoneNumberIds.map((id) => wa().phoneNumbers.get(id)) })),
    people: [...wa().people.values()],
    templates: [...wa().templates.values()],
    messages: [...wa().messages.values()],
    media: [...wa().media.values()].map((m) => ({ id: m.id, phoneNumberId: m.phoneNumberId, mimeType: m.mimeType, size: m.bytes.length, deleted: m.deleted })),
  }));
  app.post('/_sandbox/whatsapp/businesses', (req) => guard(() => addWhatsAppBusiness(state, obj(req.body) as WabaInput)));
  app.post('/_sandbox/whatsapp/phone-numbers', (req) => {
    const body = obj(req.body);
    return guard(() => addPhoneNumber(state, need(body, 'wabaId'), body as PhoneNumberInput));
  });
  /** Edit a number: test-number recipients, registration. */
  app.patch('/_sandbox/whatsapp/phone-numbers/:id', (req) => {
    const phone = wa().phoneNumbers.get((req.params as { id: string }).id);
    if (!phone) throw new WhatsAppControlError('no such phone number');
    const body = obj(req.body);
    if (Array.isArray(body.allowedRecipients)) phone.allowedRecipients = body.allowedRecipients.map((r) => digitsOf(String(r)));
    if (typeof body.registered === 'boolean') phone.registered = body.registered;
    if (typeof body.pin === 'string' || body.pin === null) phone.pin = body.pin;
    return phone;
  });
  app.post('/_sandbox/whatsapp/phone-numbers/quality', (req) => guard(() => changePhoneQuality(state, obj(req.body) as unknown as PhoneQualityInput)) ?? { ok: true });
  /** A WhatsApp user: `onWhatsApp: false` (131026), `marketingOptOut: true` (131050), a name. */
  app.post('/_sandbox/whatsapp/people', (req) => {
    const body = obj(req.body);
    const person = wa().person(digitsOf(need(body, 'waId')));
    if (typeof body.name === 'string') person.name = body.name;
    if (typeof body.onWhatsApp === 'boolean') person.onWhatsApp = body.onWhatsApp;
    if (typeof body.marketingOptOut === 'boolean') person.marketingOptOut = body.marketingOptOut;
    return person;
  });
  app.post('/_sandbox/whatsapp/messages', (req) => guard(() => receiveMessage(state, obj(req.body) as unknown as InboundInput)));
  /** The person read a business message (delivered first if it was not yet). */
  app.post('/_sandbox/whatsapp/read', (req) => {
    const id = need(obj(req.body), 'messageId');
    setStatus(state, id, 'delivered');
    return { read: setStatus(state, id, 'read') };
  });
  app.post('/_sandbox/whatsapp/templates/review', (req) => {
    const body = obj(req.body);
    const status = (typeof body.status === 'string' ? body.status : 'APPROVED') as TemplateStatus;
    return guard(() => decideTemplate(state, need(body, 'templateId'), status, typeof body.reason === 'string' ? body.reason : 'INVALID_FORMAT', false));
  });
  app.post('/_sandbox/whatsapp/templates/quality', (req) => {
    const body = obj(req.body);
    guard(() => changeTemplateQuality(state, need(body, 'templateId'), need(body, 'score') as QualityRating));
    return { ok: true };
  });
  app.post('/_sandbox/whatsapp/templates/category', (req) => {
    const body = obj(req.body);
    guard(() => changeTemplateCategory(state, need(body, 'templateId'), need(body, 'category') as TemplateCategory));
    return { ok: true };
  });
  app.post('/_sandbox/whatsapp/account', (req) => {
    const body = obj(req.body);
    const restriction = body.restriction === 'restricted' || body.restriction === 'locked' ? body.restriction : null;
    guard(() => changeAccountRestriction(state, { wabaId: need(body, 'wabaId'), restriction }));
    return { ok: true };
  });
  /** The next N calls matching `path` (default every messages edge) answer this Cloud API error. */
  app.post('/_sandbox/whatsapp/faults', (req) => {
    const body = obj(req.body);
    const code = Number(body.code);
    const known = WHATSAPP_ERRORS[code];
    if (!known) throw new WhatsAppControlError(`code: one of ${Object.keys(WHATSAPP_ERRORS).join(', ')}`);
    return state.faults.add({
      kind: 'error',
      host: 'graph.facebook.com',
      path: typeof body.path === 'string' ? body.path : '/*/messages',
      method: typeof body.method === 'string' ? body.method : undefined,
      times: typeof body.times === 'number' ? body.times : 1,
      status: known[1],
      body: whatsappErrorBody(code, typeof body.details === 'string' ? body.details : known[0]),
    });
  });
}
