import { Migration } from '@mikro-orm/migrations';

/** Names compare trimmed and regardless of case (as src/shared/names.ts, written out so this migration never changes). */
const keyOf = (name: string) => name.trim().toLowerCase();

/** `name (2)`, `name (3)`, ...: the first free one, within the column's 255 characters. */
function freeName(name: string, taken: ReadonlySet<string>): string {
  for (let n = 2; ; n += 1) {
    const suffix = ` (${n})`;
    const candidate = `${name.slice(0, 255 - suffix.length)}${suffix}`;
    if (!taken.has(keyOf(candidate))) return candidate;
  }
}

/**
 * Two rules of a user may not share a name, whatever its case. Rules that did keep the oldest's
 * name; each later one is renamed with a number after it.
 */
export class Migration20261128153716_rule_names extends Migration {
  override async up(): Promise<void> {
    await this.execute(`alter table \`rule\` add column \`name_key\` text not null default '';`);
    const rules = (await this.execute('select id, user_id, name from rule order by user_id, id')) as {
      id: number;
      user_id: number;
      name: string;
    }[];
    const taken = new Map<number, Set<string>>();
    for (const rule of rules) {
      const own = taken.get(rule.user_id) ?? new Set<string>();
      taken.set(rule.user_id, own);
      const name = own.has(keyOf(rule.name)) ? freeName(rule.name, own) : rule.name;
      own.add(keyOf(name));
      await this.execute('update rule set name = ?, name_key = ? where id = ?', [name, keyOf(name), rule.id]);
    }
    await this.execute(`create unique index \`rule_user_name_key_unique\` on \`rule\` (\`user_id\`, \`name_key\`);`);
  }
}
