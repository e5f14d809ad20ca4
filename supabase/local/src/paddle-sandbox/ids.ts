import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * An id as Paddle mints them: an entity prefix and a lower-case ULID (`ctm_01h8441jn5pcwrfhwh78jqt8hk`):
 * 10 characters of milliseconds, then 16 random ones, so ids sort by creation time.
 */
export function paddleId(prefix: string, now = Date.now()): string {
  let time = '';
  let ms = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[ms % 32]! + time;
    ms = Math.floor(ms / 32);
  }
  let random = '';
  for (const byte of randomBytes(16)) random += CROCKFORD[byte % 32];
  return `${prefix}_${time}${random}`;
}

export const PADDLE_ID = /^[a-z]{2,6}_[0-9a-hjkmnp-tv-z]{26}$/;
