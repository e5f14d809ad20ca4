export {
  NEVER_EXPIRES,
  readStrictPrivate,
  strictPrivateCookie,
} from '@shortlane/shared/privacy-cookie.ts';
