/**
 * Run-wide budgets across the Temporal boundary: before each LLM call a budgeted task asks its run for a grant (the
 * run reserves the mean cost of a call), after the call it settles the actual spend (workflows/run/budget.ts).
 */
import { defineSignal } from '@temporalio/workflow';
import type { TokenUsage } from '../lib/llm/types';

export interface SpendRequest {
  workflowId: string;
  callKey: string;
}

export interface SpendSettle {
  callKey: string;
  usage: TokenUsage;
  costUsd: number;
}

/** The run side's ledger (plain data: it travels through continue-as-new). */
export interface BudgetLedger {
  reservedUsd: Record<string, number>;
  reservedTokens: Record<string, number>;
  waiting: SpendRequest[];
  settledCalls: number;
}

export const spendRequestSignal = defineSignal<[SpendRequest]>('spendRequest');
export const spendSettleSignal = defineSignal<[SpendSettle]>('spendSettle');
export const spendGrantSignal = defineSignal<[{ callKey: string }]>('spendGrant');
