import { ActionIcon, Indicator, Loader } from '@mantine/core';
import { Link } from 'react-router-dom';
import { BellIcon, CartIcon, HelpIcon } from '../../components/icons.tsx';
import { useCartQuantityQuery } from '../../data/cart-quantity-query.ts';
import { useUnreadNotificationCountQuery } from '../../data/notifications-unread-query.ts';
import { paths } from '../../routes/paths.ts';

export function HelpLink() {
  return (
    <ActionIcon
      component={Link}
      to={paths.help}
      variant="subtle"
      color="gray"
      size="lg"
      aria-label="Help"
    >
      <HelpIcon />
    </ActionIcon>
  );
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The bell: a dot when something is unread, a spinner while the count loads. */
export function NotificationBell() {
  const unread = useUnreadNotificationCountQuery();
  const count = unread.data ?? 0;
  const label = unread.isPending
    ? 'Notifications, loading'
    : count > 0
      ? `Notifications, ${plural(count, 'unread', 'unread')}`
      : 'Notifications';
  return (
    <ActionIcon
      component={Link}
      to={paths.notifications}
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={label}
    >
      {unread.isPending ? (
        <Loader size={16} aria-hidden="true" data-testid="notifications-spinner" />
      ) : (
        <Indicator disabled={count === 0} color="red" size={9} offset={2} data-testid="unread-dot">
          <BellIcon />
        </Indicator>
      )}
    </ActionIcon>
  );
}

export function CartLink() {
  const quantity = useCartQuantityQuery().data ?? 0;
  return (
    <ActionIcon
      component={Link}
      to={paths['shopping-cart']}
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={
        quantity > 0 ? `Shopping cart, ${plural(quantity, 'item', 'items')}` : 'Shopping cart'
      }
    >
      <Indicator disabled={quantity === 0} label={quantity} size={16} offset={2}>
        <CartIcon />
      </Indicator>
    </ActionIcon>
  );
}
