import { parseCategoryList } from '../../../shared/envelopes';
import {
  DEFAULT_ENVELOPE_COLOR,
  ENVELOPE_COLORS,
  type CreateEnvelopeInput,
  type EnvelopeDto,
  type UpdateEnvelopeInput,
} from '../../../shared/schemas/envelopes';
import { isIsoDate } from '../../../shared/dates/calendar';

/** What the create/edit modal holds while the user types. */
export interface EnvelopeForm {
  name: string;
  description: string;
  /** Comma-separated category names, as typed. */
  categories: string;
  color: string;
  isActive: boolean;
}

export type EnvelopeFormErrors = Partial<Record<'name' | 'categories', string>>;

export const EMPTY_ENVELOPE_FORM: EnvelopeForm = {
  name: '',
  description: '',
  categories: '',
  color: DEFAULT_ENVELOPE_COLOR,
  isActive: true,
};

/** The form for editing an envelope (a colour outside the ten choices falls back to Green). */
export function formFromEnvelope(envelope: EnvelopeDto): EnvelopeForm {
  const known = ENVELOPE_COLORS.find((c) => c.value.toUpperCase() === envelope.color.toUpperCase());
  return {
    name: envelope.name,
    description: envelope.description ?? '',
    categories: envelope.categories.join(', '),
    color: known ? known.value : DEFAULT_ENVELOPE_COLOR,
    isActive: envelope.isActive,
  };
}

type Checked<T> = { ok: true; input: T } | { ok: false; errors: EnvelopeFormErrors };

/** Name required (trimmed), at least one category (comma list, trimmed, empties removed). */
function check(form: EnvelopeForm): {
  errors: EnvelopeFormErrors;
  name: string;
  categories: string[];
  description: string;
} {
  const name = form.name.trim();
  const categories = parseCategoryList(form.categories);
  const errors: EnvelopeFormErrors = {};
  if (!name) errors.name = 'Envelope name is required';
  if (categories.length === 0) errors.categories = 'At least one category is required';
  return { errors, name, categories, description: form.description.trim() };
}

/** The create call's input; the description is sent only when not empty. */
export function createInput(form: EnvelopeForm): Checked<CreateEnvelopeInput> {
  const { errors, name, categories, description } = check(form);
  if (errors.name || errors.categories) return { ok: false, errors };
  return {
    ok: true,
    input: { name, categories, color: form.color, isActive: true, ...(description ? { description } : {}) },
  };
}

/**
 * The update call's data. The description is sent when not empty; when the user emptied a
 * description the envelope had, null is sent so it is really removed (omitting it would
 * silently keep the old text).
 */
export function updateInput(form: EnvelopeForm, original: EnvelopeDto): Checked<UpdateEnvelopeInput> {
  const { errors, name, categories, description } = check(form);
  if (errors.name || errors.categories) return { ok: false, errors };
  const data: UpdateEnvelopeInput = { name, categories, color: form.color, isActive: form.isActive };
  if (description) data.description = description;
  else if (original.description) data.description = null;
  return { ok: true, input: data };
}

export type SaveRequest =
  | { ok: false; errors: EnvelopeFormErrors }
  | { ok: true; kind: 'create'; input: CreateEnvelopeInput }
  | { ok: true; kind: 'update'; input: { id: number; data: UpdateEnvelopeInput } };

/** The call the modal makes: create without an envelope, update of `envelope` otherwise. */
export function saveRequest(form: EnvelopeForm, envelope: EnvelopeDto | null): SaveRequest {
  if (!envelope) {
    const checked = createInput(form);
    return checked.ok ? { ok: true, kind: 'create', input: checked.input } : checked;
  }
  const checked = updateInput(form, envelope);
  return checked.ok ? { ok: true, kind: 'update', input: { id: envelope.id, data: checked.input } } : checked;
}

/** The date filter as the user set it. */
export interface DateFilter {
  showAllTime: boolean;
  from: string;
  to: string;
}

export const ALL_TIME: DateFilter = { showAllTime: true, from: '', to: '' };

/**
 * The `envelopes.list` input for a filter, or an error when From is after To. Empty or
 * unfinished dates leave that side open.
 */
export function rangeOf(
  filter: DateFilter,
): { ok: true; range: { startDate?: string; endDate?: string } } | { ok: false; error: string } {
  if (filter.showAllTime) return { ok: true, range: {} };
  const startDate = isIsoDate(filter.from) ? filter.from : undefined;
  const endDate = isIsoDate(filter.to) ? filter.to : undefined;
  if (startDate && endDate && startDate > endDate) return { ok: false, error: 'To must not be before From' };
  return { ok: true, range: { ...(startDate ? { startDate } : {}), ...(endDate ? { endDate } : {}) } };
}
