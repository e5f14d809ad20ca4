import { describe, expect, it } from 'vitest';
import { MultipartReader, multipartBoundary } from './multipart.ts';

/** A request body delivered in chunks of `size` bytes, so boundaries fall across chunks. */
function chunked(body: Buffer, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.subarray(offset, offset + size));
      offset += size;
    },
  });
}

async function formBody(form: FormData): Promise<{ body: Buffer; boundary: string }> {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const boundary = multipartBoundary(request.headers.get('content-type'));
  return { body: Buffer.from(await request.arrayBuffer()), boundary: boundary! };
}

async function collect(parts: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const part of parts) chunks.push(part);
  return Buffer.concat(chunks);
}

describe('MultipartReader', () => {
  const file = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));

  it('reads the fields and a file part byte for byte, whatever the chunking', async () => {
    const form = new FormData();
    form.append('cacheControl', '3600');
    form.append('metadata', '{"a":1}');
    form.append('', new Blob([file], { type: 'image/png' }), 'photo.png');
    const { body, boundary } = await formBody(form);

    for (const size of [1, 7, 64, 4096, body.length]) {
      const reader = new MultipartReader(chunked(body, size), boundary);
      const first = await reader.nextPart();
      expect(first).toEqual({ name: 'cacheControl', filename: undefined, contentType: undefined });
      expect(await reader.text(100, () => new Error('too large'))).toBe('3600');
      expect((await reader.nextPart())?.name).toBe('metadata');
      expect(await reader.text(100, () => new Error('too large'))).toBe('{"a":1}');
      const filePart = await reader.nextPart();
      expect(filePart).toEqual({ name: '', filename: 'photo.png', contentType: 'image/png' });
      expect((await collect(reader.body())).equals(file)).toBe(true);
      expect(await reader.nextPart()).toBeUndefined();
    }
  });

  it('refuses a field over its limit and a body cut short', async () => {
    const form = new FormData();
    form.append('metadata', 'x'.repeat(50));
    const { body, boundary } = await formBody(form);
    const reader = new MultipartReader(chunked(body, 16), boundary);
    await reader.nextPart();
    await expect(reader.text(10, () => new Error('too large'))).rejects.toThrow('too large');

    const truncated = new MultipartReader(
      chunked(body.subarray(0, body.length - 20), 16),
      boundary,
    );
    await truncated.nextPart();
    await expect(collect(truncated.body())).rejects.toThrow('Multipart form data is malformed');
  });

  it('finds the boundary in a Content-Type, quoted or not', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('text/plain')).toBeUndefined();
    expect(multipartBoundary(null)).toBeUndefined();
  });
});
