import type { I18nProvider } from 'react-admin';
import { defaultI18nProvider } from 'ra-supabase';
import { KIOSK_MESSAGES } from '../i18n/messages.ts';

/**
 * ra-supabase's English provider (react-admin's and ra-supabase's messages) plus the kiosk's:
 * a kiosk key is translated through the same polyglot, given as its default phrase, so its
 * interpolation and plurals work as react-admin's do.
 */
export function kioskI18nProvider(
  base: I18nProvider = defaultI18nProvider,
  messages: Readonly<Record<string, string>> = KIOSK_MESSAGES,
): I18nProvider {
  return {
    ...base,
    translate: (key, options = {}) => {
      const phrase = Object.hasOwn(messages, key) ? messages[key] : undefined;
      return base.translate(key, phrase === undefined ? options : { ...options, _: phrase });
    },
  };
}
