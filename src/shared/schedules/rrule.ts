/**
 * The one import of the `rrule` library. Its CommonJS entry is a UMD bundle whose names Node.js's
 * ES-module loader cannot see (tests and scripts load it that way; the server bundle and the
 * client get real named exports), so the names are taken from whichever object holds them.
 */
import * as rruleModule from 'rrule';

type RRuleModule = typeof rruleModule;
const named = rruleModule as Partial<RRuleModule> & { default?: RRuleModule };
const loaded = (named.RRule ? rruleModule : named.default) as RRuleModule;

export const { RRule, Weekday } = loaded;
export type RRuleOptions = rruleModule.Options;
