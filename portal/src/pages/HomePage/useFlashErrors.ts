import { useEffect } from 'react';
import { useServices } from '../../lib/servicesContext.ts';
import { useAppState } from '../../state/appState.ts';

/**
 * The home layout (link-creation 2): when flash messages carry errors, a modal titled Error
 * shows them joined by line breaks; once shown they are gone.
 */
export function useFlashErrors() {
  const { dialogs, flash } = useServices();
  const { flashMessages } = useAppState();
  useEffect(() => {
    const errors = flashMessages.filter((message) => message.type === 'error');
    if (errors.length === 0) return;
    dialogs.showError({ title: 'Error', message: errors.map((error) => error.message).join('\n') });
    flash.clear('error');
  }, [flashMessages, dialogs, flash]);
}
