import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import document from '@shortlane/shared/api/openapi.json';
import { renderApp } from '../../test/render.tsx';
import { fieldsOf, operationsOf, typeText, type OpenApiDocument } from './openApiView.ts';

const openApi = document as OpenApiDocument;

describe('the API reference page (/app/dev)', () => {
  it(
    'renders every operation of the OpenAPI document, its body fields and the error anchors',
    { timeout: 15_000 },
    async () => {
      renderApp({ route: '/app/dev' });
      // Role queries over this many tables are slow: the page's ids are the anchors it promises.
      // The route's chunk loads first: slow on a busy machine.
      expect(await screen.findByText('Shortlane API', {}, { timeout: 10_000 })).toBeInTheDocument();
      // "Try it" goes to this project's gateway, where the document's relative server lives.
      expect(screen.getByLabelText('API token')).toBeInTheDocument();
      expect(screen.getByText('http://stack.test/functions/v1/api')).toBeInTheDocument();
      const page = globalThis.document;
      for (const view of operationsOf(openApi)) {
        const section = page.getElementById(view.id);
        expect(section, view.id).not.toBeNull();
        expect(within(section!).getByText(view.operation.summary!)).toBeInTheDocument();
      }
      const create = within(page.getElementById('createLink')!);
      expect(create.getByText('POST')).toBeInTheDocument();
      expect(create.getByText('Body (LinkCreate)')).toBeInTheDocument();
      expect(create.getByText('Idempotency-Key')).toBeInTheDocument();
      // Every error body's doc_url (/app/dev#error-<code>) lands on a row.
      for (const { code } of openApi['x-error-codes'] ?? []) {
        expect(page.getElementById(`error-${code}`), code).not.toBeNull();
      }
    },
  );
});

describe('openApiView', () => {
  it('follows references and writes types shortly', () => {
    const page = fieldsOf(openApi, { $ref: '#/components/schemas/LinkPage' });
    expect(page).toEqual([
      {
        name: 'data',
        type: 'Link[]',
        required: true,
        description: undefined,
        defaultValue: undefined,
      },
      {
        name: 'next_cursor',
        type: 'string | null',
        required: true,
        description: undefined,
        defaultValue: undefined,
      },
    ]);
    expect(typeText({ type: 'integer', minimum: 1, maximum: 100 })).toBe('integer (≥ 1, ≤ 100)');
    expect(typeText({ enum: ['active', 'archived'] })).toBe('"active" | "archived"');
  });
});
