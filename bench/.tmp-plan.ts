import { runSteps } from '../src/shared/csv/steps';
import { planImportRows, RuleSet } from '../src/shared/rules';
const rows = Array.from({ length: 100_000 }, (_, i) => ({ line: i + 2, postDate: '2015-01-01', amount: -(i % 25000) - 1, description: `Grocery Mart #${i % 997}`, category: `Cat ${i % 20}`, currency: null, fitid: null }));
const empty = RuleSet.compile([]).forAccount('Checking');
for (let k = 0; k < 5; k++) {
  const t = performance.now();
  const out = runSteps(planImportRows(rows, empty, 'Checking', () => 'debit'));
  console.log('plan', (performance.now() - t).toFixed(0), 'ms', out.length);
}
