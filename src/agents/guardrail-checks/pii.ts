import { isIP } from 'node:net';
import { RE2JS } from 're2js';
import type { FoundSpan, PiiKind } from '../guardrails';

/**
 * The candidates of each kind, matched by the linear-time engine (so no text can make them slow), then confirmed
 * where a number has a check: cards by Luhn, IBANs by their mod-97 check digits, addresses by Node's own parser.
 */
const CANDIDATES: Record<PiiKind, { pattern: RE2JS; confirm?: (text: string) => boolean }> = {
  email: { pattern: RE2JS.compile('[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}') },
  card: { pattern: RE2JS.compile('\\b\\d(?:[ -]?\\d){12,18}\\b'), confirm: (text) => luhn(digitsOf(text)) },
  iban: {
    pattern: RE2JS.compile('\\b[A-Z]{2}\\d{2}(?: ?[A-Z0-9]){11,30}\\b'),
    confirm: (text) => ibanChecks(text.replace(/ /g, '')),
  },
  phone: {
    pattern: RE2JS.compile('(?:\\+|\\b)\\d[\\d ().-]{5,18}\\d\\b'),
    confirm: (text) => digitsOf(text).length >= 7 && digitsOf(text).length <= 15,
  },
  ip: {
    pattern: RE2JS.compile('\\b\\d{1,3}(?:\\.\\d{1,3}){3}\\b|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}'),
    confirm: (text) => isIP(text) !== 0,
  },
};

/** Cards before phones, so that a card number is not also taken for a phone number. */
const ORDER: PiiKind[] = ['email', 'card', 'iban', 'ip', 'phone'];

/** The personal data of the kinds named in `text`, in order, none overlapping another. */
export function findPii(text: string, kinds: readonly PiiKind[]): FoundSpan[] {
  const found: FoundSpan[] = [];
  for (const kind of ORDER.filter((k) => kinds.includes(k))) {
    const { pattern, confirm } = CANDIDATES[kind];
    const matcher = pattern.matcher(text);
    while (matcher.find()) {
      const start = matcher.start();
      const end = matcher.end();
      if (confirm && !confirm(text.slice(start, end))) continue;
      if (found.some((span) => start < span.end && span.start < end)) continue;
      found.push({ start, end, kind });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

/** The Luhn check of a card number's digits. */
export function luhn(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** ISO 13616: the first four characters moved to the end, letters as 10–35, the number mod 97 is 1. */
export function ibanChecks(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const char of moved) {
    const value = char >= 'A' ? char.charCodeAt(0) - 55 : Number(char);
    rest = Number(`${rest}${value}`) % 97;
  }
  return rest === 1;
}
