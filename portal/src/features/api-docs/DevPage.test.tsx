import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render.tsx';
import { apiDocument, documentFor } from './apiDocument.ts';

describe('the API reference page (/app/dev)', () => {
  it(
    'renders the document through the viewer, pointed at this stack, with the error anchors',
    { timeout: 30_000 },
    async () => {
      renderApp({ route: '/app/dev' });
      // The route's chunk (with the viewer) loads first: slow on a busy machine.
      expect(
        await screen.findByRole(
          'heading',
          { level: 1, name: 'Shortlane API' },
          { timeout: 15_000 },
        ),
      ).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Settings → API' })).toHaveAttribute(
        'href',
        '/app/settings/api',
      );
      expect(screen.getByText('http://stack.test/functions/v1/api')).toBeInTheDocument();
      // The viewer lists every operation of the document, by path, and offers Authorize with
      // no token in it.
      for (const path of Object.keys(apiDocument.paths)) {
        expect((await screen.findAllByText(path, {}, { timeout: 10_000 })).length).toBeGreaterThan(
          0,
        );
      }
      expect(screen.getByRole('button', { name: /Authorize/ })).toBeInTheDocument();
      expect(screen.queryByDisplayValue(/slt_/)).toBeNull();
      // Every error body's doc_url (/app/dev#error-<code>) lands on a row.
      const page = globalThis.document;
      for (const { code } of apiDocument['x-error-codes']) {
        expect(page.getElementById(`error-${code}`), code).not.toBeNull();
      }
    },
  );
});

describe('documentFor', () => {
  it('makes the relative server absolute on this project’s gateway, the rest untouched', () => {
    const spec = documentFor('http://127.0.0.1:54321');
    expect(spec.servers[0]!.url).toBe('http://127.0.0.1:54321/functions/v1/api');
    expect(spec.paths).toBe(apiDocument.paths);
    expect(apiDocument.servers[0]!.url).toBe('/functions/v1/api');
  });
});
