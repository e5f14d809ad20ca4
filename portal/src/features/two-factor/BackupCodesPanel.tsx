import { Alert, Button, Code, CopyButton, Group, List, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@shortlane/shared/messages.ts';

/** The file a user downloads their codes into. */
export const BACKUP_CODES_FILE = 'shortlane-backup-codes.txt';

function download(codes: readonly string[]) {
  const text = `Shortlane two-factor backup codes\nEach code works once.\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = BACKUP_CODES_FILE;
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * New backup codes, shown this once (only their hashes are stored): copy, download, then done.
 */
export function BackupCodesPanel({
  codes,
  onDone,
}: {
  codes: readonly string[];
  onDone: () => void;
}) {
  return (
    <Stack gap="sm" aria-labelledby="backup-codes-title">
      <Alert variant="default" title="Save your backup codes now" id="backup-codes-title">
        They are shown only this once. Each code lets you log in once if you lose your authenticator
        app; using one turns two-factor authentication off.
      </Alert>
      <List aria-label="Backup codes" listStyleType="none" spacing={4}>
        {codes.map((code) => (
          <List.Item key={code}>
            <Code fz="md">{code}</Code>
          </List.Item>
        ))}
      </List>
      <Group>
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy} aria-live="polite">
              {copied ? MESSAGES.copySucceeded : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={() => download(codes)}>
          Download codes
        </Button>
        <Button onClick={onDone}>I have saved my codes</Button>
      </Group>
      <Text size="xs">Keep them somewhere safe, apart from your phone.</Text>
    </Stack>
  );
}
