import { EntityBaseSchema } from './base.entity';
import { AccountSchema } from '../modules/accounts/account.entity';
import { AuthFailureSchema } from '../modules/auth/auth-failure.entity';
import { InstanceClaimSchema } from '../modules/auth/instance-claim.entity';
import { RefreshTokenSchema } from '../modules/auth/refresh-token.entity';
import { SignInSchema } from '../modules/auth/sign-in.entity';
import { BudgetSchema } from '../modules/budgets/budget.entity';
import { LineItemSchema } from '../modules/budgets/line-item.entity';
import { CategorySchema } from '../modules/categories/category.entity';
import { EnvelopeSchema } from '../modules/envelopes/envelope.entity';
import { HistoryEntrySchema, HistoryRowSchema, TrashedTransactionSchema } from '../modules/history/history.entity';
import { ImportProfileSchema } from '../modules/import/import-profile.entity';
import { ExchangeRateSchema } from '../modules/rates/exchange-rate.entity';
import { RuleSchema } from '../modules/rules/rule.entity';
import { ScheduleOccurrenceSchema, ScheduleSchema } from '../modules/schedules/schedule.entity';
import { BatchSchema } from '../modules/transactions/batch.entity';
import { TransferCandidateSchema, TransferSchema } from '../modules/transfers/transfer.entity';
import { TransactionSchema } from '../modules/transactions/transaction.entity';
import { UserSchema } from '../modules/users/user.entity';
import { PlanAssignedSchema, PlanHoldSchema, PlanMonthSumSchema, PlanMoveSchema } from '../modules/plan/plan.entity';

/** Every entity the ORM knows. A new entity is added here and gets a migration. */
export const entities = [
  EntityBaseSchema,
  UserSchema,
  RefreshTokenSchema,
  AccountSchema,
  CategorySchema,
  BatchSchema,
  TransactionSchema,
  BudgetSchema,
  LineItemSchema,
  EnvelopeSchema,
  ImportProfileSchema,
  SignInSchema,
  AuthFailureSchema,
  InstanceClaimSchema,
  RuleSchema,
  ScheduleSchema,
  ScheduleOccurrenceSchema,
  HistoryEntrySchema,
  HistoryRowSchema,
  TrashedTransactionSchema,
  TransferSchema,
  TransferCandidateSchema,
  ExchangeRateSchema,
  PlanAssignedSchema,
  PlanMoveSchema,
  PlanHoldSchema,
  PlanMonthSumSchema,
];
