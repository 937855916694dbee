import { describe, expect, it } from 'vitest';
import {
  ALL_TIME,
  EMPTY_ENVELOPE_FORM,
  createInput,
  formFromEnvelope,
  rangeOf,
  saveRequest,
  updateInput,
  type EnvelopeForm,
} from '../../src/client/features/envelopes/envelopeForm';
import { createEnvelopeSchema, updateEnvelopeSchema, type EnvelopeDto } from '../../src/shared/schemas/envelopes';

const form = (patch: Partial<EnvelopeForm> = {}): EnvelopeForm => ({ ...EMPTY_ENVELOPE_FORM, ...patch });
const envelope = (patch: Partial<EnvelopeDto> = {}): EnvelopeDto => ({
  id: 7,
  name: 'Food',
  description: 'Eating in and out',
  categories: ['Groceries', 'Dining'],
  color: '#2196F3',
  isActive: true,
  transactions: [],
  transactionCount: 0,
  total: 0,
  currency: 'USD',
  noRate: 0,
  ...patch,
});

const NAME = 'Envelope name is required';
const CATEGORIES = 'At least one category is required';

describe('envelope form validation', () => {
  it.each([
    ['empty form', form(), { name: NAME, categories: CATEGORIES }],
    ['blank name', form({ name: '   ', categories: 'Groceries' }), { name: NAME }],
    ['only commas and spaces', form({ name: 'Food', categories: ' , ,  ' }), { categories: CATEGORIES }],
  ])('%s is refused', (_label, value, errors) => {
    expect(createInput(value)).toEqual({ ok: false, errors });
    expect(updateInput(value, envelope())).toEqual({ ok: false, errors });
  });
});

describe('createInput', () => {
  it.each([
    [
      'trims the name, splits and trims categories, drops empties and repeats; no description key when empty',
      form({ name: '  Food ', categories: ' Groceries, Dining, ,groceries ', description: '   ' }),
      { name: 'Food', categories: ['Groceries', 'Dining'], color: '#4CAF50', isActive: true },
    ],
    [
      'sends a trimmed description when there is one, and the chosen colour',
      form({ name: 'Income', categories: 'Salary', description: ' Pay \n', color: '#2196F3' }),
      { name: 'Income', categories: ['Salary'], color: '#2196F3', isActive: true, description: 'Pay' },
    ],
  ])('%s', (_label, value, expected) => {
    const result = createInput(value);
    expect(result).toEqual({ ok: true, input: expected });
    // What the form sends is exactly what the server's schema keeps.
    if (result.ok) expect(createEnvelopeSchema.parse(result.input)).toMatchObject(expected);
  });

  it('defaults to Green (#4CAF50), active', () => {
    expect(EMPTY_ENVELOPE_FORM).toMatchObject({ color: '#4CAF50', isActive: true, description: '' });
  });
});

describe('updateInput', () => {
  it.each([
    ['a description is sent', envelope(), form({ name: 'Food', categories: 'Groceries', description: 'New' }), 'New'],
    ['an emptied description is removed with null', envelope(), form({ name: 'Food', categories: 'Groceries' }), null],
    [
      'no description before or after: not sent',
      envelope({ description: null }),
      form({ name: 'Food', categories: 'Groceries' }),
      undefined,
    ],
  ])('%s', (_label, original, value, description) => {
    const result = updateInput({ ...value, isActive: false }, original);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.input).toMatchObject({ name: 'Food', categories: ['Groceries'], isActive: false });
    expect('description' in result.input).toBe(description !== undefined);
    expect(result.input.description).toBe(description);
    expect(updateEnvelopeSchema.safeParse(result.input).success).toBe(true);
  });
});

describe('formFromEnvelope and saveRequest', () => {
  it('fills the form from an envelope', () => {
    expect(formFromEnvelope(envelope())).toEqual({
      name: 'Food',
      description: 'Eating in and out',
      categories: 'Groceries, Dining',
      color: '#2196F3',
      isActive: true,
    });
  });

  it.each([
    ['#2196f3', '#2196F3'],
    ['#123456', '#4CAF50'],
  ])('colour %s is shown as %s (one of the ten, else Green)', (color, shown) => {
    expect(formFromEnvelope(envelope({ color, description: null })).color).toBe(shown);
    expect(formFromEnvelope(envelope({ description: null })).description).toBe('');
  });

  it('creates without an envelope and updates it by id otherwise', () => {
    const value = form({ name: 'Food', categories: 'Groceries' });
    expect(saveRequest(value, null)).toMatchObject({ ok: true, kind: 'create' });
    expect(saveRequest(value, envelope())).toMatchObject({ ok: true, kind: 'update', input: { id: 7 } });
    expect(saveRequest(form(), envelope())).toMatchObject({ ok: false });
  });
});

describe('rangeOf (the date filter)', () => {
  it.each([
    ['Show All Time ignores the dates', { ...ALL_TIME, from: '2024-02-01', to: '2024-01-01' }, { ok: true, range: {} }],
    [
      'both dates',
      { showAllTime: false, from: '2024-02-01', to: '2024-02-29' },
      { ok: true, range: { startDate: '2024-02-01', endDate: '2024-02-29' } },
    ],
    ['From only', { showAllTime: false, from: '2024-01-15', to: '' }, { ok: true, range: { startDate: '2024-01-15' } }],
    ['To only', { showAllTime: false, from: '', to: '2024-01-31' }, { ok: true, range: { endDate: '2024-01-31' } }],
    ['neither', { showAllTime: false, from: '', to: '' }, { ok: true, range: {} }],
    [
      'an impossible date is left open',
      { showAllTime: false, from: '2024-02-30', to: '2024-03-01' },
      { ok: true, range: { endDate: '2024-03-01' } },
    ],
    [
      'the same day',
      { showAllTime: false, from: '2024-02-14', to: '2024-02-14' },
      { ok: true, range: { startDate: '2024-02-14', endDate: '2024-02-14' } },
    ],
    [
      'From after To',
      { showAllTime: false, from: '2024-02-01', to: '2024-01-01' },
      { ok: false, error: 'To must not be before From' },
    ],
  ])('%s', (_label, filter, expected) => {
    expect(rangeOf(filter)).toEqual(expected);
  });
});
