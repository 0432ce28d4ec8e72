// Every API route, registered by an explicit list; each file holds one operation.
import { Account } from '../modules/accounts/schemas.ts';
import { getAccount } from '../modules/accounts/routes/get-account.ts';
import { listAccounts } from '../modules/accounts/routes/list-accounts.ts';
import { updateAccount } from '../modules/accounts/routes/update-account.ts';
import type { Api } from './types.ts';

/** Resource schemas referenced by $ref from routes; they become components in openapi.json. */
export const sharedSchemas = [Account];

export const routes: Array<(api: Api) => void> = [listAccounts, getAccount, updateAccount];
