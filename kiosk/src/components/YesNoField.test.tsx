import { render, screen } from '@testing-library/react';
import { I18nContextProvider, RecordContextProvider } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { kioskI18nProvider } from '../providers/i18nProvider.ts';
import { YesNoField } from './YesNoField.tsx';

describe('YesNoField', () => {
  it('reads a boolean as Yes or No, and an unset value as nothing', () => {
    render(
      <I18nContextProvider value={kioskI18nProvider()}>
        <RecordContextProvider value={{ id: 'u1', staff: true, hidden: false, unknown: null }}>
          <p data-testid="staff">
            <YesNoField source="staff" />
          </p>
          <p data-testid="hidden">
            <YesNoField source="hidden" />
          </p>
          <p data-testid="unknown">
            <YesNoField source="unknown" />
          </p>
        </RecordContextProvider>
      </I18nContextProvider>,
    );
    expect(screen.getByTestId('staff')).toHaveTextContent(/^Yes$/);
    expect(screen.getByTestId('hidden')).toHaveTextContent(/^No$/);
    expect(screen.getByTestId('unknown')).toBeEmptyDOMElement();
  });
});
