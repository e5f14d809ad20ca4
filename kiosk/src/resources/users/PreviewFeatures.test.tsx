import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, type DataProvider, RecordContextProvider } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { kioskI18nProvider } from '../../providers/i18nProvider.ts';
import { PreviewFeatures, withFeature } from './PreviewFeatures.tsx';

describe('withFeature', () => {
  it('adds a feature once and removes it', () => {
    expect(withFeature([], 'organizations', true)).toEqual(['organizations']);
    expect(withFeature(['organizations'], 'organizations', true)).toEqual(['organizations']);
    expect(withFeature(['organizations'], 'organizations', false)).toEqual([]);
  });
});

describe('PreviewFeatures', { timeout: 20_000 }, () => {
  it('reads the profile and switches the organizations preview through an update', async () => {
    let stored: string[] = [];
    const dataProvider = {
      getOne: vi.fn(async () => ({ data: { id: 'u1', preview_features: stored } })),
      update: vi.fn(async (_resource: string, params: { data: { preview_features: string[] } }) => {
        stored = params.data.preview_features;
        return { data: { id: 'u1', preview_features: stored } };
      }),
    } as unknown as DataProvider;
    render(
      <AdminContext dataProvider={dataProvider} i18nProvider={kioskI18nProvider()}>
        <RecordContextProvider value={{ id: 'u1', email: 'ada@example.com' }}>
          <PreviewFeatures />
        </RecordContextProvider>
      </AdminContext>,
    );
    const toggle = await screen.findByRole('switch', { name: /Organizations/ });
    expect(toggle).not.toBeChecked();
    expect(dataProvider.getOne).toHaveBeenCalledWith(
      'profiles',
      expect.objectContaining({ id: 'u1' }),
    );
    await userEvent.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(dataProvider.update).toHaveBeenCalledWith(
      'profiles',
      expect.objectContaining({ id: 'u1', data: { preview_features: ['organizations'] } }),
    );
  });
});
