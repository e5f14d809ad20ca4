import { QR_CODE } from '@shortlane/shared/constants.ts';
import { encodeBlackAndWhitePng } from './png.ts';

/**
 * QR codes of a short URL (link-creation 9: shown at 127 px; SVG, PNG 400 and PNG 1200
 * downloads), drawn from the `qrcode` package's module matrix. The package is loaded only when
 * a QR code is first asked for, so it stays out of the first page.
 */

/** The light border around the code, in modules (the QR standard's quiet zone). */
const QUIET_ZONE = 4;

export interface QrMatrix {
  /** Modules per side, quiet zone included. */
  size: number;
  isDark(row: number, col: number): boolean;
}

export async function qrMatrix(text: string): Promise<QrMatrix> {
  const { create } = await import('qrcode');
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const inner = modules.size;
  return {
    size: inner + 2 * QUIET_ZONE,
    isDark: (row, col) => {
      const r = row - QUIET_ZONE;
      const c = col - QUIET_ZONE;
      return r >= 0 && c >= 0 && r < inner && c < inner && modules.get(r, c) === 1;
    },
  };
}

/** An SVG that scales to any size; `pixels` sets its width and height attributes. */
export function qrSvg(matrix: QrMatrix, pixels: number = QR_CODE.displaySize): string {
  const squares: string[] = [];
  for (let row = 0; row < matrix.size; row++) {
    for (let col = 0; col < matrix.size; col++) {
      if (matrix.isDark(row, col)) squares.push(`M${col} ${row}h1v1h-1z`);
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels}" height="${pixels}" ` +
    `viewBox="0 0 ${matrix.size} ${matrix.size}" shape-rendering="crispEdges">` +
    `<rect width="100%" height="100%" fill="#fff"/>` +
    `<path fill="#000" d="${squares.join('')}"/></svg>`
  );
}

/** A PNG of exactly `pixels` × `pixels`: each pixel takes the module it falls in. */
export function qrPng(matrix: QrMatrix, pixels: number): Promise<Uint8Array> {
  const moduleOf = (pixel: number) => Math.floor((pixel * matrix.size) / pixels);
  return encodeBlackAndWhitePng(pixels, pixels, (x, y) => matrix.isDark(moduleOf(y), moduleOf(x)));
}

export type QrDownload = (typeof QR_CODE.downloads)[number];

/** The file a download option makes: its bytes, type and name. */
export async function qrDownloadFile(
  matrix: QrMatrix,
  download: QrDownload,
  baseName: string,
): Promise<{ blob: Blob; fileName: string }> {
  if (download.format === 'svg') {
    return {
      blob: new Blob([qrSvg(matrix, QR_CODE.defaultPngSize)], { type: 'image/svg+xml' }),
      fileName: `${baseName}.svg`,
    };
  }
  const png = await qrPng(matrix, download.size);
  return {
    blob: new Blob([png as BlobPart], { type: 'image/png' }),
    fileName: `${baseName}-${download.size}.png`,
  };
}
