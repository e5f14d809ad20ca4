import { ActionIcon, Indicator } from '@mantine/core';
import { Link } from 'react-router-dom';
import { CartIcon, HelpIcon } from '../../components/icons.tsx';
import { useCartQuantityQuery } from '../../data/cart-quantity-query.ts';
import { paths } from '../../routes/paths.ts';

// The bell lives with the notifications feature; the bar takes its icons from here.
export { NotificationBell } from '../../features/notifications/NotificationBell.tsx';

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
