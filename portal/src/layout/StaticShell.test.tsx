import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import indexHtml from '../../index.html?raw';
import { renderApp } from '../test/render.tsx';

/** index.html's copy of the guest homepage's first screen (what its script shows on /app). */
function staticGuestHome(): Element {
  const page = new DOMParser().parseFromString(indexHtml, 'text/html');
  const template = page.querySelector<HTMLTemplateElement>('template#static-guest-home');
  const copy = template?.content.firstElementChild;
  if (!copy) throw new Error('index.html lacks the static guest homepage.');
  return copy;
}

const text = (element: Element | null | undefined) =>
  (element?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Mantine's generated class names (m_8a5d1357): the stylesheet's rules for its components. */
const mantineClasses = (root: Element) =>
  new Set(
    [...root.querySelectorAll('*')]
      .flatMap((element) => [...element.classList])
      .filter((name) => /^m_[0-9a-f]+$/.test(name)),
  );

describe('the static guest homepage in index.html', () => {
  it('says what the page says, in the classes the page uses', async () => {
    renderApp({ route: '/app' });
    const heading = await screen.findByRole('heading', { level: 1 });
    const notice = await screen.findByRole('region', { name: 'Cookie notice' });
    const copy = staticGuestHome();

    expect(text(copy.querySelector('h1'))).toBe(text(heading));
    expect(text(copy.querySelector('h1 + p'))).toBe(text(heading.nextElementSibling));
    expect(text(copy.querySelector('[data-static-cookie-notice] p'))).toBe(
      text(within(notice).getByText(/We use cookies/)),
    );
    // A class Mantine renamed (a new version) would leave the copy unstyled, and the page would
    // jump when React replaces it.
    const rendered = mantineClasses(document.body);
    const copied = mantineClasses(copy);
    expect(copied.size).toBeGreaterThan(5);
    for (const name of copied) expect(rendered).toContain(name);
  });
});
