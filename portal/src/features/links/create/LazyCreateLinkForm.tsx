import { Paper } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { CreateFormLoading } from './CreateFormLoading.tsx';
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
        <Paper withBorder p="lg" radius="md">
          <CreateFormLoading withHeading />
        </Paper>
      }
    >
      <CreateLinkForm {...props} />
    </Suspense>
  );
}
