import { Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One titled block of a settings page (user settings, team settings). */
export function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}
