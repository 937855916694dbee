import { describe, expect, it } from 'vitest';
import { rowLabel } from '../../src/client/components/transactions/TransactionRow';
import type { TransactionDto } from '../../src/shared/schemas/transactions';

const row = (amount: number, currency: string | null): TransactionDto =>
  ({ description: 'Lunch', postDate: '2025-03-01', amount, currency, parentTransactionId: null }) as TransactionDto;

describe("a transaction row's label", () => {
  it.each<[number, string | null, string]>([
    [-450, 'USD', 'Lunch -4.50 on 2025-03-01'],
    [-123_456, 'EUR', 'Lunch -1,234.56 on 2025-03-01'],
    [-1500, 'JPY', 'Lunch -1,500 on 2025-03-01'],
    [-1234, 'BHD', 'Lunch -1.234 on 2025-03-01'],
    [-450, null, 'Lunch -4.50 on 2025-03-01'],
  ])('writes %i %s with its currency’s decimals', (amount, currency, label) => {
    expect(rowLabel(row(amount, currency))).toBe(label);
  });
});
