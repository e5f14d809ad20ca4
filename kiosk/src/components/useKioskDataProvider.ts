import { useDataProvider } from 'react-admin';
import type { KioskDataProvider } from '../providers/dataProvider.ts';

/** The data provider with the kiosk's rpc and callFunction. */
export const useKioskDataProvider = () => useDataProvider<KioskDataProvider>();
