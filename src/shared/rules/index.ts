export * from './schema';
export { applyRules, conditionsMatch, regexLiteral, RuleSet, type RuleOutcome, type RuleRow } from './match';
export { checkRegex, MAX_PATTERN_LENGTH, MAX_UNBOUNDED, RULE_REGEX_FLAGS, type RegexCheck } from './safe-regex';
export { planImportRows, type CategoryOrigin, type PlannedImportRow } from './import-plan';
