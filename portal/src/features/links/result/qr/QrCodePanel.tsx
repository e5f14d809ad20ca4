import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { QR_CODE } from '@shortlane/shared/constants.ts';
import { useEffect, useState } from 'react';
import { qrDownloadFile, qrMatrix, qrSvg, type QrDownload, type QrMatrix } from './qrCode.ts';
import { LoadingFrame } from '../../../../components/LoadingFrame.tsx';
import { QR_PANEL_HEIGHT } from './panelSize.ts';
import { saveFile } from './saveFile.ts';

type Drawing = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; matrix: QrMatrix };

function downloadLabel(download: QrDownload): string {
  if (download.format === 'svg') return 'SVG';
  return download.size === QR_CODE.defaultPngSize ? 'PNG' : `PNG ${download.size}`;
}

/** A file name from the short URL's host and path: "shrt.localhost-spring". */
function baseFileName(shortUrl: string): string {
  try {
    const { host, pathname } = new URL(shortUrl);
    return `${host}${pathname}`.replace(/[^\w.-]+/g, '-').replace(/-+$/, '');
  } catch {
    return 'qr-code';
  }
}

/** The QR code at its display size and its downloads (link-creation 9). */
export default function QrCodePanel({ shortUrl }: { shortUrl: string }) {
  const [drawing, setDrawing] = useState<Drawing>({ state: 'loading' });
  const [saving, setSaving] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    qrMatrix(shortUrl).then(
      (matrix) => current && setDrawing({ state: 'ready', matrix }),
      () => current && setDrawing({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [shortUrl]);

  if (drawing.state === 'loading') {
    return <LoadingFrame label="Drawing the QR code" minHeight={QR_PANEL_HEIGHT} />;
  }
  if (drawing.state === 'failed') {
    return (
      <Alert color="red" role="alert">
        The QR code could not be drawn.
      </Alert>
    );
  }

  const download = async (option: QrDownload) => {
    const label = downloadLabel(option);
    setSaving(label);
    try {
      const file = await qrDownloadFile(drawing.matrix, option, baseFileName(shortUrl));
      saveFile(file.blob, file.fileName);
    } finally {
      setSaving(null);
    }
  };

  const svg = qrSvg(drawing.matrix, QR_CODE.displaySize);
  return (
    <Stack align="center" gap="md">
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
        alt={`QR code of ${shortUrl}`}
        width={QR_CODE.displaySize}
        height={QR_CODE.displaySize}
      />
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {shortUrl}
      </Text>
      <Group gap="xs" justify="center" role="group" aria-label="Download the QR code">
        {QR_CODE.downloads.map((option) => {
          const label = downloadLabel(option);
          return (
            <Button
              key={label}
              variant="default"
              loading={saving === label}
              onClick={() => void download(option)}
              aria-label={`Download ${label}`}
            >
              {label}
            </Button>
          );
        })}
      </Group>
    </Stack>
  );
}
