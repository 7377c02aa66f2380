// The kinds of event record and who may appear as their actor (docs/api.md, Events: the
// catalogue with an example of each). `data` holds what a reader needs without another call.
export { EVENT_TYPES } from '../schemas/events';
import type { EVENT_TYPES } from '../schemas/events';

export type EventType = keyof typeof EVENT_TYPES;

/**
 * Who made a change: the shape of a version's `created_by`, and two more kinds — the instance's
 * ADMIN_API_KEY (`admin_key`) and the server itself (`system`: the sweep and the like).
 */
export interface EventActor {
  type: 'app' | 'user' | 'owner_key' | 'admin' | 'admin_key' | 'auditor_key' | 'system';
  id: string | null;
  name: string;
}

export const ADMIN_KEY_ACTOR: EventActor = { type: 'admin_key', id: null, name: 'ADMIN_API_KEY' };
/** A change's actor where a version's created_by is null: the admin key made it. */
export const eventActorFor = (actor: EventActor | null | undefined): EventActor => actor ?? ADMIN_KEY_ACTOR;

export const systemActor = (name: string): EventActor => ({ type: 'system', id: null, name });
