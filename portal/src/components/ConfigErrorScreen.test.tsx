import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { render } from '../test/render.tsx';
import { ConfigErrorScreen } from './ConfigErrorScreen.tsx';

describe('ConfigErrorScreen', () => {
  it('names the app and announces every configuration problem', () => {
    render(
      <ConfigErrorScreen
        app="The Shortlane portal"
        problems={['VITE_SUPABASE_URL is not set.', 'VITE_SUPABASE_ANON_KEY is not set.']}
      />,
    );
    expect(
      screen.getByRole('heading', { level: 1, name: 'The Shortlane portal cannot start' }),
    ).toBeVisible();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Configuration is incomplete');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'VITE_SUPABASE_URL is not set.',
      'VITE_SUPABASE_ANON_KEY is not set.',
    ]);
  });
});
