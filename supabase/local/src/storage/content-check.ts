import { storageErrors } from './errors.ts';

/**
 * Holding uploads to the type they claim. A bucket that lists its allowed MIME types takes a
 * file by its declared Content-Type; for the image formats whose files open with a fixed
 * signature, the first bytes must show that format too, or the upload is refused as Storage
 * refuses a type the bucket does not allow (415 invalid_mime_type). Otherwise a page or a script
 * sent as "image/png" would be stored in an images-only bucket and served from its public URL.
 *
 * This is the local stack's own check: Supabase Storage trusts the declared type. It applies to
 * every bucket that restricts types, not only to image-only ones — the restriction is what the
 * bucket promises its readers, whatever else it allows — and to no bucket that takes any type,
 * where the declared type is only a label (served with nosniff, so browsers keep to it). Types
 * without a signature (SVG, CSV…) are taken as declared: a bucket that lists image/svg+xml has
 * chosen to serve documents that can run scripts, which is why none of ours lists it.
 */

const ascii = (head: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...head.subarray(start, end));

const startsWith = (bytes: number[]) => (head: Uint8Array) =>
  head.length >= bytes.length && bytes.every((byte, i) => head[i] === byte);

/** Leading bytes of each format (WHATWG MIME Sniffing, "image type pattern matching"). */
const SIGNATURES: Record<string, (head: Uint8Array) => boolean> = {
  'image/png': startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': startsWith([0xff, 0xd8, 0xff]),
  'image/gif': (head) => ['GIF87a', 'GIF89a'].includes(ascii(head, 0, 6)),
  'image/webp': (head) => ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP',
  'image/bmp': (head) => ascii(head, 0, 2) === 'BM',
  'image/avif': (head) =>
    ascii(head, 4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(head, 8, 12)),
};
// Names some clients send for the same formats.
SIGNATURES['image/jpg'] = SIGNATURES['image/jpeg']!;
SIGNATURES['image/pjpeg'] = SIGNATURES['image/jpeg']!;
SIGNATURES['image/x-png'] = SIGNATURES['image/png']!;

/** Enough leading bytes for every signature above. */
const HEAD_BYTES = 12;

/** The signature check for a declared type, if it is a format we can recognise. */
export function signatureOf(mimeType: string): ((head: Uint8Array) => boolean) | undefined {
  const essence = (mimeType.split(';')[0] ?? '').trim().toLowerCase();
  return SIGNATURES[essence];
}

/**
 * The same bytes, passed on only once their head matches the declared type; a mismatch (or a
 * file too short to show any) throws InvalidMimeType before a byte is handed on.
 */
export function requireSignature(
  mimeType: string,
  chunks: AsyncIterable<Uint8Array>,
): AsyncIterable<Uint8Array> {
  const matches = signatureOf(mimeType);
  if (!matches) return chunks;
  return (async function* () {
    const held: Uint8Array[] = [];
    let size = 0;
    let checked = false;
    const check = () => {
      checked = true;
      if (!matches(Buffer.concat(held).subarray(0, HEAD_BYTES))) {
        throw storageErrors.invalidMimeType(mimeType);
      }
    };
    for await (const chunk of chunks) {
      if (checked) {
        yield chunk;
        continue;
      }
      held.push(chunk);
      size += chunk.byteLength;
      if (size >= HEAD_BYTES) {
        check();
        yield* held.splice(0);
      }
    }
    if (!checked) {
      check();
      yield* held.splice(0);
    }
  })();
}
