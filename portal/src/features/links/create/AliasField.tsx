import { Anchor, TextInput, Tooltip } from '@mantine/core';
import type { CustomAliasAccess } from '@shortlane/shared/domains.ts';
import { Link } from 'react-router-dom';
import { href } from '../../../routes/paths.ts';
import { messageText } from './messageKeys.ts';
import { READABLE } from './readable.ts';

export interface AliasFieldProps {
  access: CustomAliasAccess;
  value: string;
  onChange: (alias: string) => void;
  error?: string;
  disabled?: boolean;
  /** The domain the alias goes under, shown before the field. */
  domain: string;
}

/** Where a locked alias field sends the user (link-creation 5). */
function redirectLink(redirect: 'register' | 'email_verify') {
  return redirect === 'register' ? (
    <Anchor component={Link} to={href('register')} size="xs">
      Sign up to choose your own alias
    </Anchor>
  ) : (
    <Anchor component={Link} to={href('email_verify')} size="xs">
      Verify your e-mail address to choose your own alias
    </Anchor>
  );
}

/**
 * The custom alias (link-creation 5, 8): open when the plan (or, for guests, the domain) allows
 * it; otherwise disabled with the reason as its tooltip, and for guests and unverified users a
 * link to register or to verify the e-mail address.
 */
export function AliasField({ access, value, onChange, error, disabled, domain }: AliasFieldProps) {
  if (access.enabled) {
    return (
      <TextInput
        label="Alias (optional)"
        leftSection={
          <span
            aria-hidden
            style={{ whiteSpace: 'nowrap', fontSize: 12, color: 'var(--mantine-color-gray-7)' }}
          >
            {domain}/
          </span>
        }
        leftSectionWidth={Math.min(200, 14 + domain.length * 7)}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={error}
        disabled={disabled}
        autoComplete="off"
      />
    );
  }
  const reason = messageText(access.tooltip);
  return (
    <div>
      <Tooltip label={reason} position="top-start">
        <TextInput
          label="Alias (optional)"
          value=""
          readOnly
          disabled
          description={reason}
          descriptionProps={READABLE}
          error={error}
        />
      </Tooltip>
      {access.redirect ? redirectLink(access.redirect) : null}
    </div>
  );
}
