import HCaptcha from '@hcaptcha/react-hcaptcha';
import { Text } from '@mantine/core';
import { useImperativeHandle, useRef } from 'react';
import type { AntiRobotConfig } from '../../../lib/config.ts';
import type { BotCheckProps } from './BotCheck.tsx';

/** hCaptcha itself, for a real sitekey. */
export default function HCaptchaWidget({
  config,
  onToken,
  onError,
  error,
  ref,
}: BotCheckProps & { config: Extract<AntiRobotConfig, { provider: 'hcaptcha' }> }) {
  const captcha = useRef<HCaptcha>(null);
  useImperativeHandle(
    ref,
    () => ({
      reset() {
        captcha.current?.resetCaptcha();
        onToken(null);
      },
    }),
    [onToken],
  );
  return (
    <div>
      <HCaptcha
        ref={captcha}
        sitekey={config.siteKey}
        onVerify={(token) => onToken(token)}
        onExpire={() => onToken(null)}
        onChalExpired={() => onToken(null)}
        onError={() => {
          onToken(null);
          onError();
        }}
      />
      {error ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </div>
  );
}
