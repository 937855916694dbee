import type { BudgetDto, LineItemDto } from '../../../shared/schemas/budgets';

declare module '@tanstack/react-router' {
  interface HistoryState {
    /** The budget to edit on /create-budget (Edit Budget). Absent when creating or copying. */
    budget?: BudgetDto;
    /** Its line items (Edit Budget), or the line items to copy into a new budget (Copy Budget). */
    lineItems?: LineItemDto[];
  }
}

export {};
