import { PHOTO_TYPE_ERROR, validateProfilePhoto } from '@shortlane/shared/validation/files.ts';

/**
 * The spec keeps the photo's size limit to itself ("not shown"); 2 MB is ours, the same as the
 * avatars bucket's file_size_limit in supabase/config.toml, which Storage enforces.
 */
export const PHOTO_MAX_BYTES = 2 * 1024 * 1024;
export const PHOTO_TOO_LARGE = `The photo must not be greater than ${PHOTO_MAX_BYTES / 1024} kilobytes.`;

const SIGNATURES: { type: 'image/png' | 'image/jpeg'; bytes: readonly number[] }[] = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

/** What the first bytes say the file is: a browser trusts the name, so "x.jpg" may be text. */
export function sniffPhotoType(head: Uint8Array): 'image/png' | 'image/jpeg' | null {
  const match = SIGNATURES.find(({ bytes }) => bytes.every((byte, i) => head[i] === byte));
  return match?.type ?? null;
}

export interface CheckedPhoto {
  file: File;
  /** The type the content proved, sent as the upload's content type. */
  contentType: 'image/png' | 'image/jpeg';
  extension: 'png' | 'jpg';
}

/** Checks a chosen photo: png or jpg by name, type and content, and not too large. */
export async function checkPhoto(
  file: File,
): Promise<{ ok: true; photo: CheckedPhoto } | { ok: false; error: string }> {
  const typeError = validateProfilePhoto(file);
  if (typeError) return { ok: false, error: typeError };
  if (file.size > PHOTO_MAX_BYTES) return { ok: false, error: PHOTO_TOO_LARGE };
  const contentType = sniffPhotoType(new Uint8Array(await file.slice(0, 8).arrayBuffer()));
  if (!contentType) return { ok: false, error: PHOTO_TYPE_ERROR };
  return {
    ok: true,
    photo: { file, contentType, extension: contentType === 'image/png' ? 'png' : 'jpg' },
  };
}
