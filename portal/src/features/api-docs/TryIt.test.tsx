import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import document from '@shortlane/shared/api/openapi.json';
import { render } from '../../test/render.tsx';
import { ApiReference } from './ApiReference.tsx';
import { operationsOf, type OpenApiDocument } from './openApiView.ts';
import { buildRequest, exampleBody, serverUrlOf } from './tryIt.ts';

const openApi = document as OpenApiDocument;
const SERVER = 'http://127.0.0.1:30221/functions/v1/api';
// The whole reference is a large page for jsdom.
const SLOW = { timeout: 20_000 };
const view = (id: string) => operationsOf(openApi).find((candidate) => candidate.id === id)!;

describe('tryIt', () => {
  it('puts the document’s relative server on the project’s gateway', () => {
    expect(serverUrlOf(openApi, 'http://127.0.0.1:30221')).toBe(SERVER);
    expect(serverUrlOf(openApi, 'https://abc.supabase.co/')).toBe(
      'https://abc.supabase.co/functions/v1/api',
    );
  });

  it('builds the request from path, query and header values and the token', () => {
    const built = buildRequest(view('getLinkAnalytics'), SERVER, {
      token: ' slt_abc ',
      values: { id: 'a b', period: 'last_7_day' },
      body: null,
    });
    if (!built.ok) throw new Error(built.problem);
    expect(built.url).toBe(`${SERVER}/v1/links/a%20b/analytics?period=last_7_day`);
    expect(new Headers(built.init.headers).get('authorization')).toBe('Bearer slt_abc');
    expect(built.init.method).toBe('GET');

    const create = buildRequest(view('createLink'), SERVER, {
      token: 'slt_abc',
      values: { 'Idempotency-Key': 'k1' },
      body: '{"url":"https://example.com"}',
    });
    if (!create.ok) throw new Error(create.problem);
    const headers = new Headers(create.init.headers);
    expect(headers.get('idempotency-key')).toBe('k1');
    expect(headers.get('content-type')).toBe('application/json');
  });

  it('says what is missing instead of sending', () => {
    const get = view('getLink');
    expect(buildRequest(get, SERVER, { token: '', values: { id: 'x' }, body: null })).toEqual({
      ok: false,
      problem: 'Enter your API token first.',
    });
    expect(buildRequest(get, SERVER, { token: 't', values: {}, body: null })).toEqual({
      ok: false,
      problem: 'id is required.',
    });
    expect(
      buildRequest(view('createLink'), SERVER, { token: 't', values: {}, body: '{nope' }),
    ).toEqual({ ok: false, problem: 'The body is not valid JSON.' });
  });

  it('starts a body with the schema’s required fields', () => {
    const body = exampleBody(openApi, { $ref: '#/components/schemas/LinkCreate' });
    expect(Object.keys(body)).toEqual(['url', 'domain']);
  });
});

describe('the reference page’s Try it', () => {
  it('sends an operation with the reader’s token and shows the answer', SLOW, async () => {
    const send = vi.fn<typeof fetch>(async () =>
      Response.json(
        { data: [{ domain: 'shl.localhost' }] },
        { headers: { 'X-RateLimit-Remaining': '59', 'X-RateLimit-Limit': '60' } },
      ),
    );
    const { user } = render(
      <ApiReference document={openApi} tryIt={{ serverUrl: SERVER, send }} />,
    );
    await user.type(screen.getByLabelText('API token'), 'slt_mine');
    const section = within(globalThis.document.getElementById('listDomains')!);
    const toggle = section.getByRole('button', { name: 'Try it' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(section.getByRole('button', { name: 'Hide Try it' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await user.click(section.getByRole('button', { name: 'Send request' }));

    expect(await section.findByText('Response: 200', { exact: false })).toBeInTheDocument();
    expect(section.getByRole('table', { name: 'Response headers' })).toHaveTextContent('59');
    expect(section.getByLabelText('Response body')).toHaveTextContent('shl.localhost');
    expect(send).toHaveBeenCalledTimes(1);
    const [url, init] = send.mock.calls[0]!;
    expect(url).toBe(`${SERVER}/v1/domains`);
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer slt_mine');
  });

  it('asks for a token before sending anything', SLOW, async () => {
    const send = vi.fn<typeof fetch>();
    const { user } = render(
      <ApiReference document={openApi} tryIt={{ serverUrl: SERVER, send }} />,
    );
    const section = within(globalThis.document.getElementById('listDomains')!);
    await user.click(section.getByRole('button', { name: 'Try it' }));
    await user.click(section.getByRole('button', { name: 'Send request' }));
    expect(await section.findByRole('alert')).toHaveTextContent('Enter your API token first.');
    expect(send).not.toHaveBeenCalled();
  });
});
