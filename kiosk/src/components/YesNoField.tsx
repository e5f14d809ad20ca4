import { Typography } from '@mui/material';
import { useFieldValue, useTranslate, type FieldProps } from 'react-admin';

/**
 * A yes/no value in words (react-admin's own "Yes"/"No", through the i18n provider): bare ✓/✕
 * icons read as nothing to a screen reader and little to a newcomer. Empty when unset.
 */
export function YesNoField(props: FieldProps) {
  const value: unknown = useFieldValue(props);
  const translate = useTranslate();
  if (typeof value !== 'boolean') return null;
  return (
    <Typography component="span" variant="body2">
      {translate(value ? 'ra.boolean.true' : 'ra.boolean.false')}
    </Typography>
  );
}
