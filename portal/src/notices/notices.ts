import { notifications, type NotificationsStore } from '@mantine/notifications';

export type NoticeTone = 'error' | 'success' | 'info';

export interface Notice {
  message: string;
  /** How long it stays: the spec's 3 s for global errors, 5 s otherwise (NOTICE_DURATION_MS). */
  durationMs: number;
  tone?: NoticeTone;
  title?: string;
}

export type Notify = (notice: Notice) => void;

const TONE_COLORS: Record<NoticeTone, string> = { error: 'red', success: 'teal', info: 'indigo' };

/**
 * Shows notices through a Mantine notifications store. A notice equal to one still on screen is
 * not stacked again: a failing request retried twice says "Something went wrong." once.
 */
export function createNotifier(store: NotificationsStore): Notify {
  return ({ message, durationMs, tone = 'error', title }) => {
    notifications.show(
      {
        id: `${tone}:${title ?? ''}:${message}`,
        message,
        title,
        color: TONE_COLORS[tone],
        autoClose: durationMs,
        withCloseButton: true,
        // The close icon has no text: without a name screen readers announce a bare "button".
        closeButtonProps: { 'aria-label': 'Close notice' },
      },
      store,
    );
  };
}
