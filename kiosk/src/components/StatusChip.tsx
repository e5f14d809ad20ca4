import { Chip, type ChipProps } from '@mui/material';
import { useRecordContext } from 'react-admin';

/** How a status reads at a glance: live, stopped by its owner, or stopped by staff. */
export const STATUS_COLORS: Record<string, ChipProps['color']> = {
  active: 'success',
  no_affiliate: 'success',
  can_affiliate: 'success',
  verified: 'success',
  archived: 'default',
  inactive: 'default',
  pending: 'warning',
  deleted: 'default',
  terminated: 'error',
  failed: 'error',
  moved: 'warning',
};

/** The record's `source` status as a coloured chip. */
export function StatusChip({ source = 'status' }: { source?: string; label?: string }) {
  const record = useRecordContext();
  const value = record?.[source];
  if (typeof value !== 'string') return null;
  return <Chip size="small" label={value} color={STATUS_COLORS[value] ?? 'default'} />;
}
