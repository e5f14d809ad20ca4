/**
 * A minimal, valid PDF 1.4 writer: one A4 page of Helvetica text lines, with a correct
 * cross-reference table (byte offsets), so any viewer — and `pdf` parsers in tests — opens it.
 * Enough for the sandbox's invoice documents (what Stripe serves at an invoice's `invoice_pdf`).
 */

export interface PdfLine {
  text: string;
  /** Points; default 11. */
  size?: number;
  bold?: boolean;
  /** Extra space before the line, in points. */
  gap?: number;
}

/** Text in a PDF string literal: WinAnsi-safe characters only, with the syntax ones escaped. */
function literal(text: string): string {
  const ascii = text.replace(/[^\x20-\x7e]/g, '?');
  return `(${ascii.replace(/([\\()])/g, '\\$1')})`;
}

export function renderPdf(title: string, lines: readonly PdfLine[]): Uint8Array<ArrayBuffer> {
  const width = 595;
  const height = 842;
  let y = height - 72;
  const content: string[] = [];
  for (const line of lines) {
    const size = line.size ?? 11;
    y -= (line.gap ?? 0) + size * 1.4;
    content.push(
      `BT /${line.bold ? 'F2' : 'F1'} ${size} Tf 56 ${y.toFixed(1)} Td ${literal(line.text)} Tj ET`,
    );
  }
  const stream = content.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    `<< /Title ${literal(title)} /Producer (Shortlane Stripe sandbox) >>`,
  ];
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, 'latin1'));
}
