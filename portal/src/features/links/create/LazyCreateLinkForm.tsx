import { Loader, Paper } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { CreateLinkFormProps } from './CreateLinkForm.tsx';

const CreateLinkForm = lazy(() =>
  import('./CreateLinkForm.tsx').then((module) => ({ default: module.CreateLinkForm })),
);

/**
 * The create form, loaded on first render: the homepage is the first page most visitors see,
 * and the form (fields, bot check, result views) need not hold it up.
 */
export function LazyCreateLinkForm(props: CreateLinkFormProps) {
  return (
    <Suspense
      fallback={
        <Paper withBorder p="lg" radius="md" mih={200}>
          <Loader size="sm" role="status" aria-label="Loading the create form" />
        </Paper>
      }
    >
      <CreateLinkForm {...props} />
    </Suspense>
  );
}
