import { EntitySchema } from '@mikro-orm/core';
import type { RuleActions, RuleCondition } from '../../../shared/rules';
import { User } from '../users/user.entity';

/** A categorisation rule of one user (src/shared/rules): conditions and actions are JSON. */
export class Rule {
  id!: number;
  user!: User;
  name!: string;
  /** Lower-cased name: two rules of a user may not share a name, whatever its case. */
  nameKey!: string;
  conditions!: RuleCondition[];
  actions!: RuleActions;
  /** Lower runs first; ties go to the older rule (lower id). */
  priority!: number;
  enabled!: boolean;
  createdAt!: string;
}

export const RuleSchema = new EntitySchema<Rule>({
  class: Rule,
  tableName: 'rule',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: false },
    name: { type: 'string', length: 255 },
    // SQLite can add a NOT NULL column to a table with rows only with a default; every write sets it.
    nameKey: { type: 'string', length: 255, ignoreSchemaChanges: ['default'] },
    conditions: { type: 'json' },
    actions: { type: 'json' },
    priority: { type: 'integer' },
    enabled: { type: 'boolean', default: true },
    createdAt: { type: 'string', length: 32 },
  },
  // A user's rules in the order they run.
  indexes: [{ name: 'rule_user_priority_index', properties: ['user', 'priority'] }],
  uniques: [{ name: 'rule_user_name_key_unique', properties: ['user', 'nameKey'] }],
});
