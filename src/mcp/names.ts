// Tool names: the operationId in snake_case (listAccounts → list_accounts). A brand written in
// camel case inside one word stays one word, so getWhatsAppMedia is get_whatsapp_media rather
// than get_whats_app_media.
const WHOLE_WORDS = ['WhatsApp'];

export function toolName(operationId: string): string {
  let id = operationId;
  for (const word of WHOLE_WORDS) id = id.replaceAll(word, word.charAt(0) + word.slice(1).toLowerCase());
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}
