/**
 * The shell's modals (link-creation 2, app-shell 2) as a small external store, so code outside
 * React — the global response handler above all — can open one and wait for its answer.
 * `DialogsHost` renders whatever is open.
 */

export type ErrorModalType = 'error' | 'warning' | 'info' | 'success';

export interface ErrorModalProps {
  /** Default: "Error". */
  title?: string;
  /** Default: the something-went-wrong text. */
  message?: string;
  /** Default: error. */
  type?: ErrorModalType;
  /**
   * The message is trusted HTML written by the app. Never set it for text that came from a URL,
   * a user or a server message: such text is shown as plain text with its line breaks.
   */
  html?: boolean;
}

export interface ConfirmModalProps {
  title: string;
  /** Trusted HTML written by the app (e.g. "<strong>3 credits</strong> will be used."). */
  messageHtml: string;
  confirmLabel?: string;
  cancelLabel?: string;
}

/**
 * Checks a password (and, when the modal asked for one, a two-factor code). Resolves with null
 * when right, else with the message to show: under the password field, or `{ code }` under the
 * code field.
 */
export type PasswordCheck = (
  password: string,
  code?: string,
) => Promise<string | { code: string } | null>;

export type Dialog =
  | { id: number; kind: 'error'; props: ErrorModalProps }
  | { id: number; kind: 'confirm'; props: ConfirmModalProps; settle: (ok: boolean) => void }
  | {
      id: number;
      kind: 'confirmPassword';
      check: PasswordCheck;
      /** Also ask for a code of the user's authenticator app (two-factor is on). */
      withCode: boolean;
      settle: (ok: boolean) => void;
    }
  | { id: number; kind: 'accessibility' }
  | { id: number; kind: 'privacyOptOut' };

type DialogInit = Dialog extends infer Each
  ? Each extends Dialog
    ? Omit<Each, 'id'>
    : never
  : never;

/** The fixed titles of the dialogs that have one, shared with their loading state. */
export const DIALOG_TITLES = {
  error: 'Error',
  confirmPassword: 'Confirm your password',
  accessibility: 'Accessibility',
  privacyOptOut: 'Privacy Manager',
} as const;

/** The title a dialog opens with: its loading state shows it before the dialog's code is there. */
export function dialogTitle(dialog: Dialog): string {
  switch (dialog.kind) {
    case 'error':
      return dialog.props.title ?? DIALOG_TITLES.error;
    case 'confirm':
      return dialog.props.title;
    default:
      return DIALOG_TITLES[dialog.kind];
  }
}

export class DialogStore {
  private open: readonly Dialog[] = [];
  private nextId = 1;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The open dialogs, oldest first; a new array whenever something changes. */
  getSnapshot = (): readonly Dialog[] => this.open;

  private add(init: DialogInit): number {
    const id = this.nextId++;
    this.open = [...this.open, { ...init, id } as Dialog];
    this.emit();
    return id;
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }

  showError(props: ErrorModalProps = {}): void {
    this.add({ kind: 'error', props });
  }

  /** Resolves true when confirmed; false when cancelled or closed. */
  confirm(props: ConfirmModalProps): Promise<boolean> {
    return new Promise((resolve) => this.add({ kind: 'confirm', props, settle: resolve }));
  }

  /** Resolves true once `check` accepted a password; false when the user gave up. */
  confirmPassword(check: PasswordCheck, { withCode = false } = {}): Promise<boolean> {
    return new Promise((resolve) =>
      this.add({ kind: 'confirmPassword', check, withCode, settle: resolve }),
    );
  }

  openAccessibility(): void {
    this.add({ kind: 'accessibility' });
  }

  openPrivacyOptOut(): void {
    this.add({ kind: 'privacyOptOut' });
  }

  /** Closes one dialog; a waiting caller gets `result` (false unless given). */
  close(id: number, result = false): void {
    const dialog = this.open.find((candidate) => candidate.id === id);
    if (!dialog) return;
    this.open = this.open.filter((candidate) => candidate.id !== id);
    if ('settle' in dialog) dialog.settle(result);
    this.emit();
  }

  /** Closes everything (on logout); waiting callers get false. */
  closeAll(): void {
    const closing = this.open;
    if (closing.length === 0) return;
    this.open = [];
    for (const dialog of closing) if ('settle' in dialog) dialog.settle(false);
    this.emit();
  }
}
