// The review account's password (REVIEW_ACCOUNT, issue 47): the same on every start, so a
// reviewer's notes stay right, yet written nowhere. It is derived from the email under a server
// secret kept in PostgreSQL (the Auth.js secret, lib/auth/secret.ts), printed in the operator's
// startup log, and stored only as its argon2 hash, like every password.
import { createHmac } from 'node:crypto';

// The alphabet of generatePassword (lib/core/secrets.ts): no 0/O, 1/l/I.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const PURPOSE = 'buddy-match review account password v1';

/** "abcde-fghjk-mnpqr-stuvw": 4 groups of 5, as generatePassword makes them (about 115 bits). */
export function reviewPassword(secret: string, email: string): string {
  const bytes = createHmac('sha256', secret).update(`${PURPOSE}\n${email.toLowerCase()}`).digest();
  const chars = Array.from(bytes.subarray(0, 20), (b) => ALPHABET[b % ALPHABET.length]);
  return [0, 5, 10, 15].map((i) => chars.slice(i, i + 5).join('')).join('-');
}
