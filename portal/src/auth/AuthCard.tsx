import { Paper, Title, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';
import { useConfig } from '../lib/servicesContext.ts';
import { usePageTitle } from '../lib/usePageTitle.ts';
import classes from './AuthCard.module.css';

/**
 * The frame of the account pages (login and its two-factor steps, register, verify, reset,
 * deleted): one card, one heading, the document title.
 */
export function AuthCard({
  title,
  headingGap = 'lg',
  children,
}: {
  title: string;
  /** Less when a line of explanation follows the heading. */
  headingGap?: MantineSpacing;
  children: ReactNode;
}) {
  const { productName } = useConfig();
  usePageTitle(title, productName);
  return (
    <div className={classes.page}>
      <Paper className={classes.card} withBorder shadow="sm" p="xl">
        <Title order={1} size="h2" mb={headingGap}>
          {title}
        </Title>
        {children}
      </Paper>
    </div>
  );
}
