import { COOKIE_NAMES } from './constants.ts';

/**
 * The privacy opt-out (strict privacy) preference in a Cookie header, or null when it was never
 * chosen (link-creation 4). The portal's opt-out modal writes it; the redirector reads it on
 * short links to leave retargeting pixels out.
 */
export function readStrictPrivate(cookies: string): boolean | null {
  for (const part of cookies.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE_NAMES.strictPrivate) {
      const text = value.join('=');
      if (text === 'true') return true;
      if (text === 'false') return false;
    }
  }
  return null;
}
