import { Notifications, type NotificationsStore } from '@mantine/notifications';

/** Where notices appear; loaded just after the first page (see StateProviders). */
export default function NoticesContainer({ store }: { store: NotificationsStore }) {
  return <Notifications store={store} position="top-right" />;
}
