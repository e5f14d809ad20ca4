import type { ComponentType } from 'react';

/**
 * Where an ad slot's content comes from. The local default is our own house ads; an ad network
 * plugs in as another provider (its script and markup inside `Slot`) without the shell changing.
 */
export interface AdProvider {
  name: string;
  /** Renders one slot; `slot` names the placement, for the network's reporting. */
  Slot: ComponentType<{ slot: string }>;
}
