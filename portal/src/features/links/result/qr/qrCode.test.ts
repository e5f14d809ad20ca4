import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { qrDownloadFile, qrMatrix, qrPng, qrSvg, type QrMatrix } from './qrCode.ts';

const SHORT_URL = 'http://shrt.localhost:54321/spring-launch';

interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  isDark(x: number, y: number): boolean;
}

/** Reads back what encodeBlackAndWhitePng wrote, checking each chunk's CRC on the way. */
function decodePng(bytes: Uint8Array): DecodedPng {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks = new Map<string, Uint8Array>();
  for (let offset = 8; offset < bytes.length;) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    chunks.set(type, bytes.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  expect([...chunks.keys()]).toEqual(['IHDR', 'IDAT', 'IEND']);
  const header = new DataView(chunks.get('IHDR')!.buffer, chunks.get('IHDR')!.byteOffset, 13);
  const width = header.getUint32(0);
  const height = header.getUint32(4);
  const pixels = inflateSync(chunks.get('IDAT')!);
  const rowBytes = Math.ceil(width / 8);
  expect(pixels.length).toBe((rowBytes + 1) * height);
  return {
    width,
    height,
    bitDepth: header.getUint8(8),
    colorType: header.getUint8(9),
    isDark: (x, y) => {
      const byte = pixels[y * (rowBytes + 1) + 1 + (x >> 3)]!;
      return (byte & (0x80 >> (x & 7))) === 0;
    },
  };
}

/** The top-left finder pattern: a dark 7×7 ring, a light ring, a dark 3×3 core. */
function expectFinderAt(matrix: QrMatrix, top: number, left: number) {
  for (let r = 0; r < 7; r++) {
    for (let c = 0; c < 7; c++) {
      const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
      expect(matrix.isDark(top + r, left + c), `module ${r},${c}`).toBe(ring !== 2);
    }
  }
}

describe('QR codes of a short URL (link-creation 9)', () => {
  it('has a quiet zone of 4 light modules and the three finder patterns', async () => {
    const matrix = await qrMatrix(SHORT_URL);
    for (let i = 0; i < matrix.size; i++) {
      for (const edge of [0, 3, matrix.size - 1]) {
        expect(matrix.isDark(edge, i)).toBe(false);
        expect(matrix.isDark(i, edge)).toBe(false);
      }
    }
    expectFinderAt(matrix, 4, 4);
    expectFinderAt(matrix, 4, matrix.size - 11);
    expectFinderAt(matrix, matrix.size - 11, 4);
  });

  it.each([400, 1200])(
    'makes a square PNG of %i px whose pixels follow the modules',
    async (size) => {
      const matrix = await qrMatrix(SHORT_URL);
      const png = decodePng(await qrPng(matrix, size));
      expect({ width: png.width, height: png.height }).toEqual({ width: size, height: size });
      expect({ bitDepth: png.bitDepth, colorType: png.colorType }).toEqual({
        bitDepth: 1,
        colorType: 0,
      });
      const modulePixels = size / matrix.size;
      for (let row = 0; row < matrix.size; row++) {
        for (let col = 0; col < matrix.size; col++) {
          const x = Math.floor((col + 0.5) * modulePixels);
          const y = Math.floor((row + 0.5) * modulePixels);
          expect(png.isDark(x, y), `module ${row},${col}`).toBe(matrix.isDark(row, col));
        }
      }
    },
  );

  it('draws an SVG with one square per dark module, at 127 px by default', async () => {
    const matrix = await qrMatrix(SHORT_URL);
    const svg = qrSvg(matrix);
    expect(svg).toMatch(/^<svg [^>]*width="127" height="127"/);
    expect(svg).toContain(`viewBox="0 0 ${matrix.size} ${matrix.size}"`);
    let dark = 0;
    for (let row = 0; row < matrix.size; row++) {
      for (let col = 0; col < matrix.size; col++) if (matrix.isDark(row, col)) dark++;
    }
    expect(svg.match(/h1v1h-1z/g)).toHaveLength(dark);
    expect(svg).toContain('M4 4h1v1h-1z');
  });

  it('names the downloads by format and size', async () => {
    const matrix = await qrMatrix(SHORT_URL);
    const svg = await qrDownloadFile(matrix, { format: 'svg' }, 'spring-launch');
    expect([svg.fileName, svg.blob.type]).toEqual(['spring-launch.svg', 'image/svg+xml']);
    const png = await qrDownloadFile(matrix, { format: 'png', size: 1200 }, 'spring-launch');
    expect([png.fileName, png.blob.type]).toEqual(['spring-launch-1200.png', 'image/png']);
    expect(decodePng(new Uint8Array(await png.blob.arrayBuffer())).width).toBe(1200);
  });
});
