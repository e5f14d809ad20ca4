import { Button, Modal } from '@mantine/core';
import { lazy, useState } from 'react';
import { LazyOnFirstUse } from '../../../components/LazyOnFirstUse.tsx';
import { LoadingFrame } from '../../../components/LoadingFrame.tsx';
import { QR_PANEL_HEIGHT } from './qr/panelSize.ts';

// The QR drawing code (and the qrcode package) loads when a QR code is first opened.
const QrCodePanel = lazy(() => import('./qr/QrCodePanel.tsx'));

/** Opens the short URL's QR code (127 px) with its SVG, PNG and PNG 1200 downloads. */
export function QrCodeButton({ shortUrl }: { shortUrl: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        onClick={() => setOpened(true)}
        aria-label={`QR code of ${shortUrl}`}
      >
        QR
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="QR code" centered size="sm">
        <LazyOnFirstUse
          active={opened}
          fallback={<LoadingFrame label="Loading the QR code" minHeight={QR_PANEL_HEIGHT} />}
        >
          <QrCodePanel shortUrl={shortUrl} />
        </LazyOnFirstUse>
      </Modal>
    </>
  );
}
