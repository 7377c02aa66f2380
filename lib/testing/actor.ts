// Who the event log names for changes that tests make straight through the domain functions.
import { systemActor } from '../events/catalogue';

export const TEST_ACTOR = systemActor('test');
