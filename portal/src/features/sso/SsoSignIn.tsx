import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useServices } from '../../lib/servicesContext.ts';
import { href, paths } from '../../routes/paths.ts';
import { ssoTargetOf } from './ssoTarget.ts';

const NOT_SET_UP = 'Single sign-on is not set up for this domain or organization.';

/**
 * "Sign in with SSO" on the login page: by work e-mail (its domain) or organization slug,
 * through supabase-js signInWithSSO; the browser then goes to the identity provider, which
 * brings it back signed in.
 */
export function SsoSignIn() {
  const { supabase, leave } = useServices();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const start = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const target = ssoTargetOf(value);
    if (!target) {
      setFailure('Enter your work e-mail or your organization’s name as in its address.');
      return;
    }
    setBusy(true);
    // Back into the organization (its landing rule picks the page), or home if it is unknown.
    const slug =
      'slug' in target
        ? target.slug
        : (await supabase.rpc('sso_organization_for_domain', { p_domain: target.domain })).data;
    const redirectTo = `${window.location.origin}${slug ? href('org.root', { org: slug }) : paths.homepage}`;
    let answer;
    if ('slug' in target) {
      const provider = await supabase.rpc('sso_provider_for_organization', { p_slug: target.slug });
      if (provider.error || !provider.data) {
        setBusy(false);
        setFailure(provider.error ? 'Something went wrong. Try again.' : NOT_SET_UP);
        return;
      }
      answer = await supabase.auth.signInWithSSO({
        providerId: provider.data,
        options: { redirectTo },
      });
    } else {
      answer = await supabase.auth.signInWithSSO({
        domain: target.domain,
        options: { redirectTo },
      });
    }
    if (answer.error || !answer.data) {
      setBusy(false);
      setFailure(
        answer.error?.code === 'sso_provider_not_found'
          ? NOT_SET_UP
          : 'Something went wrong. Try again.',
      );
      return;
    }
    leave(answer.data.url);
  };

  if (!open) {
    return (
      <Button variant="default" fullWidth onClick={() => setOpen(true)}>
        Sign in with SSO
      </Button>
    );
  }
  return (
    <form onSubmit={(event) => void start(event)} aria-label="Sign in with SSO" noValidate>
      <Stack gap="sm">
        {failure && (
          <Alert color="red" role="alert" title="Could not start single sign-on">
            {failure}
          </Alert>
        )}
        <TextInput
          label="Work e-mail or organization"
          autoComplete="email"
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          autoFocus
        />
        <Button type="submit" loading={busy} fullWidth>
          Continue with SSO
        </Button>
      </Stack>
    </form>
  );
}
