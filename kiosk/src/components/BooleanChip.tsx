import { Chip } from '@mui/material';
import { useRecordContext } from 'react-admin';

/** A yes/no column that only draws attention when true (banned, staff, blocked…). */
export function BooleanChip({
  source,
  text,
  color = 'warning',
}: {
  source: string;
  text: string;
  color?: 'warning' | 'error' | 'info';
  label?: string;
}) {
  const record = useRecordContext();
  if (record?.[source] !== true) return null;
  return <Chip size="small" label={text} color={color} />;
}
