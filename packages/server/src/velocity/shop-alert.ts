import type { Limit, Velocity } from './velocity.ts';

/** The one subject of the `shop` dimension. */
export const SHOP = 'all';

/**
 * Whether the shop is under a card-testing attack: its declines within the alert's window reached the alert's max
 * (limits.ts `shopAlert`). Counted shop-wide, so a script rotating addresses, sessions and orders still trips it;
 * then every new proof-of-work challenge costs more, for everyone, until the declines age out of the window.
 */
export class ShopAlert {
  readonly #velocity: Velocity;
  readonly #alert: Limit;

  constructor(velocity: Velocity, alert: Limit) {
    this.#velocity = velocity;
    this.#alert = alert;
  }

  async raised(): Promise<boolean> {
    return (await this.#velocity.count(this.#alert.action, this.#alert.dimension, SHOP, this.#alert.windowMs)) >= this.#alert.max;
  }
}
