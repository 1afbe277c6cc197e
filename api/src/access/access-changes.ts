import { z } from 'zod';
import type { LiveBus, LiveBusUnsubscribe } from '../live/live-bus.js';
import type { ItemRef } from './creator-grant.js';

/** Every api process hears of sharing changes here, to review the levels of its open sockets. */
export const ACCESS_CHANNEL = 'access';

const AccessChangeSchema = z.object({ item_type: z.enum(['sheet', 'group']), item_id: z.string(), user_id: z.string() });
export type AccessChange = z.infer<typeof AccessChangeSchema>;

/** Sharing changes, told to every api process through the live bus (this one too). */
export class AccessChanges {
  constructor(
    private readonly bus: LiveBus,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  async announce(item: ItemRef, userId: string): Promise<void> {
    await this.bus.publish(ACCESS_CHANNEL, { item_type: item.type, item_id: item.id, user_id: userId } satisfies AccessChange);
  }

  subscribe(handler: (change: AccessChange) => void): Promise<LiveBusUnsubscribe> {
    return this.bus.subscribe(ACCESS_CHANNEL, (message) => {
      const parsed = AccessChangeSchema.safeParse(message);
      if (parsed.success) handler(parsed.data);
      else this.log.warn({ issue: parsed.error.issues[0]?.message }, 'live bus: malformed access change ignored');
    });
  }
}
