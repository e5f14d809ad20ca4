import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from '../test/render.tsx';
import { useRememberedCoupon } from './coupon.ts';

function Remembered() {
  const { code } = useRememberedCoupon();
  return <p>Remembered: {code ?? 'none'}</p>;
}

/** One hook forgets the coupon; a second one mounts afterwards, as the pricing page does. */
function ForgetThenMountAnother() {
  const { forget } = useRememberedCoupon();
  const [second, setSecond] = useState(false);
  return (
    <>
      <button
        onClick={() => {
          forget();
          setSecond(true);
        }}
      >
        Forget
      </button>
      {second && <Remembered />}
    </>
  );
}

describe('useRememberedCoupon', () => {
  it('leaves no coupon in storage once forgotten, even when another reader mounts later', async () => {
    localStorage.setItem('coupon', 'SPRING');
    const { user } = render(<ForgetThenMountAnother />);
    await user.click(screen.getByRole('button', { name: 'Forget' }));
    expect(await screen.findByText('Remembered: none')).toBeInTheDocument();
    expect(localStorage.getItem('coupon')).toBeNull();
  });

  it('reads a remembered code, and no storage means none', () => {
    localStorage.removeItem('coupon');
    render(<Remembered />);
    expect(screen.getByText('Remembered: none')).toBeInTheDocument();
    expect(localStorage.getItem('coupon')).toBeNull();
  });
});
