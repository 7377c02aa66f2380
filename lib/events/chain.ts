// A chain of the event log: one workspace's records in one environment (live or sandbox), as
// credentials see them.
export interface Chain {
  ownerId: string;
  sandbox: boolean;
}

/** A chain's name in checkpoints and exports: `<owner id>/live` or `<owner id>/sandbox`. */
export const chainName = (c: Chain) => `${c.ownerId}/${c.sandbox ? 'sandbox' : 'live'}`;
