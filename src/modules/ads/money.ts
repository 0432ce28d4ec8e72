// Money in ads (DESIGN "Ads"): clients give decimals in the ad account's currency; the Marketing
// API takes integers in minor units, with a per-currency offset (Meta's currency table: 100 for
// most currencies, 1 for those without minor units, such as JPY or KRW). The currency is read
// from the ad account itself before each call that carries money.
import { errors } from '../../http/errors.ts';

/** Meta's currencies whose offset is 1: amounts are whole units. */
const OFFSET_ONE = new Set(['CLP', 'COP', 'CRC', 'HUF', 'ISK', 'IDR', 'JPY', 'KRW', 'PYG', 'TWD', 'VND']);

export const currencyOffset = (currency: string): number => (OFFSET_ONE.has(currency.toUpperCase()) ? 1 : 100);

/** A decimal amount in minor units; 400 naming the field when it has more decimals than the currency. */
export function toMinor(amount: number, currency: string, field: string): number {
  const offset = currencyOffset(currency);
  const minor = Math.round(amount * offset);
  if (!(amount > 0) || !Number.isFinite(amount)) throw errors.invalid(field, 'must be a positive amount');
  if (Math.abs(minor - amount * offset) > 1e-6) {
    throw errors.invalid(field, offset === 1 ? `${currency} has no minor units: give a whole amount` : `${currency} amounts have at most two decimals`);
  }
  return minor;
}

/** Before the currency is known: no currency has more than two decimals, so more is refused without a call. */
export function checkAmount(amount: number | undefined, field: string): void {
  if (amount !== undefined && Math.abs(Math.round(amount * 100) - amount * 100) > 1e-6) throw errors.invalid(field, 'at most two decimals');
}

export const fromMinor = (minor: number | null, currency: string): number | null => (minor === null ? null : minor / currencyOffset(currency));
