import type { CreatedLink } from '@shortlane/shared/created-link.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TestBackend } from '../../../test/backend.ts';
import { render } from '../../../test/render.tsx';
import { createTestServices, type TestServices } from '../../../test/services.ts';
import { BulkLinkResult } from './BulkLinkResult.tsx';
import { SingleLinkResult } from './SingleLinkResult.tsx';

// Typing into several fields of a modal takes seconds of jsdom work on a shared machine.
vi.setConfig({ testTimeout: 30_000 });

// tiny_url as a links function without SHORT_URL_BASE answers it: the portal shows the address
// its own base gives (test services: http://{domain}:54321), as every other list of it does.
const LINK: CreatedLink = {
  url: 'https://shop.example.com/spring?utm_source=news',
  aliases: [
    {
      domain: 'tiny.localhost',
      alias: 'spring-2',
      tiny_url: 'https://tiny.localhost/spring-2',
      is_main: false,
      tags: [],
      affiliates: [],
    },
    {
      domain: 'shrt.localhost',
      alias: 'spring',
      tiny_url: 'https://shrt.localhost/spring',
      is_main: true,
      tags: ['launch'],
      affiliates: [],
    },
  ],
};
const MAIN = 'http://shrt.localhost:54321/spring';

function notices({ services }: TestServices) {
  return services.noticeStore
    .getState()
    .notifications.map((notice) => ({ message: notice.message, color: notice.color }));
}

function renderResult(analyticsAllowed = false, env: Record<string, string> = {}) {
  const onShortenAnother = vi.fn<() => void>();
  const backend = new TestBackend();
  const rendered = render(
    <SingleLinkResult
      link={LINK}
      analyticsAllowed={analyticsAllowed}
      onShortenAnother={onShortenAnother}
    />,
    { backend, testServices: createTestServices(backend, env) },
  );
  return { ...rendered, onShortenAnother };
}

/** The width and height a PNG's IHDR chunk declares. */
function pngSize(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(String.fromCharCode(...bytes.subarray(12, 16))).toBe('IHDR');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  vi.restoreAllMocks();
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

describe('SingleLinkResult (link-creation 2)', () => {
  it('shows the long URL and the short URLs, the main one first, each with a Visit link', () => {
    renderResult();
    const title = screen.getByRole('heading', { name: 'Your short link is ready' });
    expect(title).toBeVisible();
    // It replaced the form the user was in: the focus goes to it, not to the page's body.
    expect(title).toHaveFocus();
    expect(screen.getByText(LINK.url)).toBeVisible();
    const items = within(screen.getByRole('list', { name: 'Short URLs' })).getAllByRole('listitem');
    expect(items.map((item) => within(item).getAllByRole('link')[0]!.textContent)).toEqual([
      MAIN,
      'http://tiny.localhost:54321/spring-2',
    ]);
    const visit = screen.getByRole('link', { name: `Visit ${MAIN}` });
    expect(visit).toHaveAttribute('href', MAIN);
    expect(visit).toHaveAttribute('target', '_blank');
    expect(visit.getAttribute('rel')).toContain('noopener');
  });

  it('builds every address from the configured base: production https when there is none', () => {
    renderResult(false, { VITE_SHORT_URL_BASE: '' });
    expect(
      screen.getByRole('link', { name: 'Visit https://shrt.localhost/spring' }),
    ).toHaveAttribute('href', 'https://shrt.localhost/spring');
    expect(
      screen.getByRole('button', { name: 'Copy https://shrt.localhost/spring' }),
    ).toBeVisible();
    expect(
      screen.getByRole('button', { name: 'QR code of https://shrt.localhost/spring' }),
    ).toBeVisible();
  });

  it('links to My URLs only when analytics are not allowed; Shorten another calls back', async () => {
    const { user, onShortenAnother, unmount } = renderResult(false);
    expect(screen.getByRole('link', { name: 'My URLs' })).toHaveAttribute('href', '/app/my-urls');
    await user.click(screen.getByRole('button', { name: 'Shorten another' }));
    expect(onShortenAnother).toHaveBeenCalledTimes(1);
    unmount();
    renderResult(true);
    expect(screen.queryByRole('link', { name: 'My URLs' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Shorten another' })).toBeVisible();
  });

  it('copies a short URL and says so', async () => {
    const { user, testServices } = renderResult();
    await user.click(screen.getByRole('button', { name: `Copy ${MAIN}` }));
    expect(await navigator.clipboard.readText()).toBe(MAIN);
    expect(screen.getByRole('button', { name: `Copy ${MAIN}` })).toHaveTextContent('Copied');
    expect(notices(testServices)).toEqual([{ message: 'Copied to clipboard.', color: 'teal' }]);
  });

  it('says so when the clipboard refuses', async () => {
    const { user, testServices } = renderResult();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(
      new DOMException('Write permission denied.', 'NotAllowedError'),
    );
    await user.click(screen.getByRole('button', { name: `Copy ${MAIN}` }));
    await waitFor(() =>
      expect(notices(testServices)).toEqual([
        { message: 'Could not copy to clipboard.', color: 'red' },
      ]),
    );
    expect(screen.getByRole('button', { name: `Copy ${MAIN}` })).toHaveTextContent('Copy');
  });

  it('shares to the five networks in a new tab, the short URL encoded', async () => {
    const { user } = renderResult();
    await user.click(screen.getByRole('button', { name: `Share ${MAIN}` }));
    const menu = await screen.findByRole('menu');
    const encoded = encodeURIComponent(MAIN);
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => [item.textContent, item.getAttribute('href')])).toEqual([
      ['Facebook', `https://www.facebook.com/sharer/sharer.php?u=${encoded}`],
      ['Twitter', `https://twitter.com/intent/tweet?url=${encoded}`],
      ['WhatsApp', `https://api.whatsapp.com/send?text=${encoded}`],
      ['LinkedIn', `https://www.linkedin.com/sharing/share-offsite/?url=${encoded}`],
      ['Email', `mailto:?body=${encoded}`],
    ]);
    for (const item of items) {
      expect(item).toHaveAttribute('target', '_blank');
      expect(item.getAttribute('rel')).toContain('noopener');
    }
  });

  it('shows the QR code at 127 px and downloads SVG, PNG 400 and PNG 1200', async () => {
    const saved: Blob[] = [];
    const names: string[] = [];
    // jsdom has no object URLs; capture what would be downloaded instead.
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      saved.push(blob as Blob);
      return `blob:test/${saved.length}`;
    };
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    const { user } = renderResult();
    await user.click(screen.getByRole('button', { name: `QR code of ${MAIN}` }));
    const dialog = await screen.findByRole('dialog', { name: 'QR code' });
    const image = await within(dialog).findByRole('img', { name: `QR code of ${MAIN}` });
    expect([image.getAttribute('width'), image.getAttribute('height')]).toEqual(['127', '127']);
    expect(decodeURIComponent(image.getAttribute('src')!)).toMatch(
      /^data:image\/svg\+xml;charset=utf-8,<svg [^>]*width="127" height="127"/,
    );

    for (const [index, label] of ['SVG', 'PNG', 'PNG 1200'].entries()) {
      await user.click(within(dialog).getByRole('button', { name: `Download ${label}` }));
      await waitFor(() => expect(names).toHaveLength(index + 1));
    }
    expect(names).toEqual([
      'shrt.localhost-54321-spring.svg',
      'shrt.localhost-54321-spring-400.png',
      'shrt.localhost-54321-spring-1200.png',
    ]);
    expect(saved.map((blob) => blob.type)).toEqual(['image/svg+xml', 'image/png', 'image/png']);
    expect(pngSize(new Uint8Array(await saved[1]!.arrayBuffer()))).toEqual({
      width: 400,
      height: 400,
    });
    expect(pngSize(new Uint8Array(await saved[2]!.arrayBuffer()))).toEqual({
      width: 1200,
      height: 1200,
    });
  });
});

describe('BulkLinkResult (link-creation 2)', () => {
  it('says the batch is scheduled with its total, and starts another', async () => {
    const onStartAnother = vi.fn<() => void>();
    const { user } = render(
      <BulkLinkResult
        batch={{ jobId: 'job-1', totalItems: 1250 }}
        onStartAnother={onStartAnother}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Batch scheduled' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Batch scheduled' })).toHaveFocus();
    expect(screen.getByText(/Total items added/)).toHaveTextContent('Total items added: 1,250');
    await user.click(screen.getByRole('button', { name: 'Start another batch' }));
    expect(onStartAnother).toHaveBeenCalledTimes(1);
  });
});
