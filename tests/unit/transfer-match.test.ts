import { describe, expect, it } from 'vitest';
import { matchTransfers, namesAccount, type MatchRow } from '../../src/shared/transfers/match';

const accounts = [
  { id: 1, name: 'Checking 00451234' },
  { id: 2, name: 'Visa Card' },
  { id: 3, name: 'Savings' },
];
let nextId = 100;
const row = (accountId: number, postDate: string, amount: number, description: string): MatchRow => ({
  id: nextId++,
  accountId,
  postDate,
  amount,
  description,
});

describe('a description names an account', () => {
  it.each([
    ['TRANSFER TO SAVINGS', 'Savings', true],
    ['Online transfer from savings acct', 'Savings', true],
    ['PAYMENT FROM CHK XXXX1234', 'Checking 00451234', true],
    ['ACCT 99991234 DEBIT', 'Checking 00451234', true],
    ['REF 1234', 'Checking 00451234', true],
    ['REF 12345', 'Checking 00451234', false],
    ['SAVINGSPLAN GYM', 'Savings', false],
    ['VISA CARD PAYMENT', 'Visa Card', true],
    ['VISA PAYMENT', 'Visa Card', false],
  ])('%s names %s: %s', (description, name, expected) => {
    expect(namesAccount(description, { id: 9, name })).toBe(expected);
  });
});

describe('pairing an imported batch with the other accounts', () => {
  it('links a pair whose description names the other account, even with a same-amount row beside it', () => {
    const fresh = [row(3, '2025-03-04', 50_000, 'TRANSFER FROM CHK XXXX1234')];
    const transfer = row(1, '2025-03-01', -50_000, 'ONLINE TRANSFER TO SAVINGS');
    const decoy = row(1, '2025-03-03', -50_000, 'LANDLORD RENT');
    const { linked, offered } = matchTransfers(fresh, [transfer, decoy], accounts, 5);
    expect(linked).toEqual([expect.objectContaining({ fromId: transfer.id, toId: fresh[0].id })]);
    expect(linked[0].reason).toMatch(/names Savings.*names Checking|names Checking.*names Savings/);
    expect(offered).toEqual([]);
  });

  it('offers, never links, when two rows are named as strongly', () => {
    const fresh = [row(3, '2025-03-04', 50_000, 'TRANSFER FROM CHECKING 00451234')];
    const a = row(1, '2025-03-01', -50_000, 'ONLINE TRANSFER REF 77');
    const b = row(1, '2025-03-03', -50_000, 'LANDLORD RENT');
    const { linked, offered } = matchTransfers(fresh, [a, b], accounts, 5);
    expect(linked).toEqual([]);
    expect(offered.map((pair) => pair.fromId).sort()).toEqual([a.id, b.id].sort());
    expect(offered[0].reason).toMatch(/1 other row of the same amount/);
  });

  it('links the only pair of both rows within two days; three days apart it is offered', () => {
    const near = [row(2, '2025-04-03', 12_345, 'PAYMENT THANK YOU')];
    const nearOut = row(1, '2025-04-01', -12_345, 'ONLINE PMT');
    expect(matchTransfers(near, [nearOut], accounts, 5).linked).toEqual([
      {
        fromId: nearOut.id,
        toId: near[0].id,
        score: 34,
        reason: 'the only row of the opposite amount on both sides, 2 days apart',
      },
    ]);
    const far = [row(2, '2025-04-04', 12_345, 'PAYMENT THANK YOU')];
    const farOut = row(1, '2025-04-01', -12_345, 'ONLINE PMT');
    const result = matchTransfers(far, [farOut], accounts, 5);
    expect(result.linked).toEqual([]);
    expect(result.offered).toEqual([expect.objectContaining({ fromId: farOut.id, toId: far[0].id })]);
  });

  it('does not link the only pair when the other side has a rival in a third account', () => {
    const fresh = [row(2, '2025-05-02', 2_000, 'PAYMENT')];
    const out = row(1, '2025-05-01', -2_000, 'PMT');
    const rival = row(3, '2025-05-01', 2_000, 'DEPOSIT');
    const { linked, offered } = matchTransfers(fresh, [out, rival], accounts, 5);
    expect(linked).toEqual([]);
    expect(offered).toEqual([expect.objectContaining({ fromId: out.id, toId: fresh[0].id })]);
  });

  it('keeps to the window, other accounts, opposite amounts and undismissed pairs', () => {
    const fresh = [row(1, '2025-06-10', -7_000, 'XFER')];
    const others = [
      row(3, '2025-06-16', 7_000, 'six days later'),
      row(1, '2025-06-10', 7_000, 'same account'),
      row(3, '2025-06-10', -7_000, 'same sign'),
      row(2, '2025-06-11', 7_001, 'another amount'),
    ];
    expect(matchTransfers(fresh, others, accounts, 5)).toEqual({ linked: [], offered: [] });
    const dismissed = row(3, '2025-06-11', 7_000, 'turned down');
    expect(matchTransfers(fresh, [dismissed], accounts, 5, (a, b) => a + b === fresh[0].id + dismissed.id)).toEqual({
      linked: [],
      offered: [],
    });
    expect(matchTransfers(fresh, [dismissed], accounts, 0).offered).toEqual([]);
  });

  it('pairs each row once: two equal transfers a day apart are offered, not linked crosswise', () => {
    const fresh = [
      row(3, '2025-07-02', 10_000, 'TRANSFER FROM CHECKING'),
      row(3, '2025-07-03', 10_000, 'TRANSFER FROM CHECKING'),
    ];
    const others = [row(1, '2025-07-01', -10_000, 'TO SAVINGS'), row(1, '2025-07-02', -10_000, 'TO SAVINGS')];
    const { linked, offered } = matchTransfers(fresh, others, accounts, 5);
    expect(linked).toEqual([]);
    expect(offered).toHaveLength(4);
  });
});
