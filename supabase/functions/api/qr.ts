/**
 * A short link's QR code as SVG, encoding exactly the short URL the portal's QR codes encode
 * (shortUrl, _shared/short-url.ts), with the same library as the portal (qrcode).
 */
import QRCode from 'qrcode';

interface QrLibrary {
  toString(
    text: string,
    options: { type: 'svg'; margin: number; errorCorrectionLevel: 'M' },
  ): Promise<string>;
}

export function qrSvg(text: string): Promise<string> {
  return (QRCode as QrLibrary).toString(text, {
    type: 'svg',
    margin: 1,
    errorCorrectionLevel: 'M',
  });
}
