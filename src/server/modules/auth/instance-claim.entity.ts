import { EntitySchema } from '@mikro-orm/core';

/**
 * A once-only claim on the instance, held by a primary key: `first-user` is taken by the
 * registration that creates the first account while registration is closed, so of any number
 * of concurrent attempts (from any number of processes) exactly one succeeds.
 */
export class InstanceClaim {
  name!: string;
  claimedAt!: string;
}

export const InstanceClaimSchema = new EntitySchema<InstanceClaim>({
  class: InstanceClaim,
  tableName: 'instance_claim',
  properties: {
    name: { type: 'string', length: 64, primary: true },
    claimedAt: { type: 'string', length: 32 },
  },
});
