// Public ids of experiments and batches: 128 random bits, base64url (22 characters). Never
// sequential, never derived from the content.
import { randomBytes } from 'node:crypto';

export function newId(): string {
  return randomBytes(16).toString('base64url');
}

export const idPattern = '^[A-Za-z0-9_-]{22}$';
