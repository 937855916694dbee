export * from './schema';
export { applyRules, conditionsMatch, regexLiteral, RuleSet, type RuleOutcome, type RuleRow } from './match';
export {
  checkRegex,
  compileRulePattern,
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_PROGRAM,
  storedRulePattern,
  type RegexCheck,
  type RulePattern,
} from './pattern';
export { planImportRows, type CategoryOrigin, type PlannedImportRow } from './import-plan';
