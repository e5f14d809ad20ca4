import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { render } from '../../test/render.tsx';
import { ClicksChart } from './ClicksChart.tsx';

const points = [
  { time: 1, label: 'Nov 22, 15:00', clicks: 2 },
  { time: 2, label: 'Nov 22, 16:00', clicks: 7 },
  { time: 3, label: 'Nov 22, 17:00', clicks: 0 },
];

describe('ClicksChart', () => {
  it('draws the area with count lines and labels, and names the bucket under the pointer', async () => {
    const { container } = render(<ClicksChart points={points} />);
    const surface = container.querySelector('svg[data-chart="clicks"]')!;
    expect(surface).not.toBeNull();
    // 0 to 8 in steps of 2: five dashed lines, five labels.
    expect(surface.querySelectorAll('line')).toHaveLength(5);
    for (const tick of ['0', '2', '4', '6', '8'])
      expect(screen.getByText(tick)).toBeInTheDocument();
    expect(surface.querySelectorAll('path')[1]!.getAttribute('d')).toMatch(/^M0,750C/);

    // jsdom lays nothing out: the pointer is at the plot's left edge, over the first bucket.
    fireEvent.pointerMove(surface.parentElement!, { clientX: 0 });
    expect(await screen.findByText('Clicks: 2')).toBeInTheDocument();
    expect(screen.getByText('Nov 22, 15:00')).toBeInTheDocument();
    fireEvent.pointerLeave(surface.parentElement!);
    expect(screen.queryByText('Clicks: 2')).not.toBeInTheDocument();
  });
});
