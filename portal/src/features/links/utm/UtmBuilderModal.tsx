import { Modal } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { LoadingFrame } from '../../../components/LoadingFrame.tsx';

// The builder's form (fields, presets, their schemas and queries) loads when it first opens.
const UtmBuilderForm = lazy(() => import('./UtmBuilderForm.tsx'));

export interface UtmBuilderModalProps {
  opened: boolean;
  /** The destination the parameters are added to. */
  url: string;
  onClose: () => void;
  /** Receives the rebuilt destination; the modal closes itself afterwards. */
  onApply: (urlWithUtm: string) => void;
  /**
   * The account whose presets are listed and where a new one is saved (a team's in team or
   * organization mode). By default the signed-in user's personal account; guests get neither.
   */
  accountId?: string | null;
}

/** The form's height (preset, five fields, the preset switch, the preview and the buttons). */
const FORM_HEIGHT = 420;

/** The UTM builder: validate, optionally save as a preset, hand back the rebuilt URL, close. */
export function UtmBuilderModal({
  opened,
  url,
  onClose,
  onApply,
  accountId,
}: UtmBuilderModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="UTM Builder" size="lg" centered>
      {/* Mounted per opening, so the fields start from the URL as it is now. */}
      {opened && (
        <Suspense
          fallback={<LoadingFrame label="Loading the UTM builder" minHeight={FORM_HEIGHT} />}
        >
          <UtmBuilderForm url={url} onClose={onClose} onApply={onApply} accountId={accountId} />
        </Suspense>
      )}
    </Modal>
  );
}
