/** The no-backup-codes modal's frame, shared by the modal and its loading state. */
export const NO_BACKUP_CODES_FRAME = { centered: true, title: 'No backup codes left' } as const;
