import { Checkbox, Group, Loader, Paper, Text } from '@mantine/core';
import { ANTI_ROBOT } from '@shortlane/shared/constants.ts';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useImperativeHandle,
  useRef,
  useState,
  type Ref,
} from 'react';
import { skipGlobalErrors } from '../../../api/globalResponses.ts';
import type { AntiRobotConfig } from '../../../lib/config.ts';
import { useServices } from '../../../lib/servicesContext.ts';

/** What the form may do with the widget: start over after each attempt. */
export interface BotCheckHandle {
  reset(): void;
}

export interface BotCheckProps {
  config: AntiRobotConfig;
  /** A fresh token, or null once it expired or the widget was reset. */
  onToken: (token: string | null) => void;
  /** The widget failed (network, provider); the token is gone. */
  onError: () => void;
  error?: string | null;
  ref?: Ref<BotCheckHandle>;
}

type SandboxState = 'idle' | 'solving' | 'verified';

interface SandboxAnswer {
  success?: unknown;
  response?: unknown;
}

/**
 * The local stack's stand-in for hCaptcha (supabase/local captcha-sandbox.ts): ticking the box
 * asks `${sandboxUrl}/token` for a response token, which the edge functions verify at the
 * sandbox's siteverify exactly as they verify a real one. It behaves as the spec's widget does:
 * success emits the token, the token expires after 299 999 ms and the widget resets, a failure
 * emits an error and the widget tries again on its own after the retry interval.
 */
function SandboxWidget({
  config,
  onToken,
  onError,
  error,
  ref,
}: BotCheckProps & { config: Extract<AntiRobotConfig, { provider: 'sandbox' }> }) {
  // The portal's fetch (tests answer it), without the global handler: the widget says itself
  // what went wrong, once per minute at most.
  const { apiFetch } = useServices();
  const [state, setState] = useState<SandboxState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const attempt = useRef(0);
  /** The latest solve, for the automatic retry a failed one schedules. */
  const retry = useRef<() => void>(() => undefined);

  const clearTimer = () => {
    if (timer.current != null) clearTimeout(timer.current);
    timer.current = null;
  };

  const reset = useCallback(() => {
    clearTimer();
    attempt.current += 1;
    setState('idle');
    onToken(null);
  }, [onToken]);

  const solve = useCallback(async () => {
    clearTimer();
    const current = ++attempt.current;
    setState('solving');
    try {
      const response = await apiFetch(`${config.sandboxUrl}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...skipGlobalErrors },
        body: JSON.stringify({ sitekey: config.siteKey }),
      });
      const answer = (await response.json()) as SandboxAnswer;
      if (current !== attempt.current) return; // reset meanwhile: this token is not wanted
      if (!response.ok || answer.success !== true || typeof answer.response !== 'string') {
        throw new Error(`The bot check answered ${response.status}.`);
      }
      setState('verified');
      onToken(answer.response);
      timer.current = setTimeout(() => {
        setState('idle');
        onToken(null);
      }, ANTI_ROBOT.tokenExpiryMs);
    } catch {
      if (current !== attempt.current) return;
      setState('idle');
      onError();
      timer.current = setTimeout(() => retry.current(), ANTI_ROBOT.retryIntervalMs);
    }
  }, [apiFetch, config.sandboxUrl, config.siteKey, onToken, onError]);

  useEffect(() => {
    retry.current = () => void solve();
  }, [solve]);
  useImperativeHandle(ref, () => ({ reset }), [reset]);
  useEffect(() => clearTimer, []);

  return (
    <Paper withBorder p="sm" radius="sm" maw={320}>
      <Group justify="space-between" wrap="nowrap">
        <Checkbox
          label="I am human"
          checked={state === 'verified'}
          disabled={state === 'solving'}
          error={error}
          onChange={(event) => {
            if (event.currentTarget.checked) void solve();
            else reset();
          }}
        />
        {state === 'solving' ? <Loader size="xs" role="status" aria-label="Checking" /> : null}
      </Group>
      <Text size="xs" c="gray.7" mt={4}>
        Bot check (local sandbox)
      </Text>
    </Paper>
  );
}

// hCaptcha's loader is only needed where a real sitekey is configured.
const HCaptchaWidget = lazy(() => import('./HCaptchaWidget.tsx'));

/** The bot-check widget of link-creation 2 and 4, for guests. */
export function BotCheck(props: BotCheckProps) {
  if (props.config.provider === 'sandbox')
    return <SandboxWidget {...props} config={props.config} />;
  return (
    <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading the bot check" />}>
      <HCaptchaWidget {...props} config={props.config} />
    </Suspense>
  );
}
