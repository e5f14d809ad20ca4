import { Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useConfig } from '../lib/servicesContext.ts';
import { usePageTitle } from '../lib/usePageTitle.ts';
import classes from './AuthCard.module.css';

/** The frame of the account pages (register, verify, reset, deleted): one card, one heading. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { productName } = useConfig();
  usePageTitle(title, productName);
  return (
    <div className={classes.page}>
      <Paper className={classes.card} withBorder shadow="sm" p="xl">
        <Title order={1} size="h2" mb="lg">
          {title}
        </Title>
        {children}
      </Paper>
    </div>
  );
}
