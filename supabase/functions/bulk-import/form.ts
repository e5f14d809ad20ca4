/**
 * The bulk form (link-creation 3): multipart with file, domain, withHeader (default true) and
 * team. The body is read with a cap, so an oversized upload is refused without being buffered.
 */
import { HttpError } from '../_shared/http.ts';
import { FILE_MESSAGES } from './file-refusal.ts';
import { MAX_BODY_BYTES } from './limits.ts';

export interface BulkForm {
  file: { name: string; bytes: Uint8Array<ArrayBuffer> } | null;
  domain: string;
  withHeader: boolean | null;
  /** A team slug, or null for the personal workspace. */
  team: string | null;
}

export const FORM_MESSAGES = {
  domainRequired: 'The domain field is required.',
  withHeaderInvalid: 'The with header field must be true or false.',
  multipartRequired: 'The request must be multipart/form-data.',
} as const;

const invalid = (field: string, message: string) =>
  new HttpError(422, message, 'validation_failed', { [field]: [message] });

async function readCapped(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('Content-Length') ?? 'NaN');
  if (declared > MAX_BODY_BYTES) throw invalid('file', FILE_MESSAGES.size);
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of request.body) {
    total += chunk.byteLength;
    if (total > MAX_BODY_BYTES) throw invalid('file', FILE_MESSAGES.size);
    chunks.push(chunk);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** true / false as HTML forms and FormData send them; null for anything else. */
function parseBoolean(value: FormDataEntryValue | null): boolean | null {
  if (value === null || value === '') return true;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(text)) return true;
  if (['false', '0', 'off', 'no'].includes(text)) return false;
  return null;
}

const text = (value: FormDataEntryValue | null) => (typeof value === 'string' ? value.trim() : '');

export async function readBulkForm(request: Request): Promise<BulkForm> {
  const contentType = request.headers.get('Content-Type') ?? '';
  if (!/^multipart\/form-data;/i.test(contentType))
    throw invalid('file', FORM_MESSAGES.multipartRequired);
  const body = await readCapped(request);
  let data: FormData;
  try {
    data = await new Response(body, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw invalid('file', FORM_MESSAGES.multipartRequired);
  }
  const upload = data.get('file');
  const team = text(data.get('team'));
  return {
    file:
      upload instanceof File && upload.name !== ''
        ? { name: upload.name, bytes: new Uint8Array(await upload.arrayBuffer()) }
        : null,
    domain: text(data.get('domain')),
    withHeader: parseBoolean(data.get('withHeader')),
    team: team === '' || team === 'null' ? null : team,
  };
}
