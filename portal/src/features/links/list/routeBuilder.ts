/**
 * The route builder's model: the rules being edited (each with its conditions, all or any of
 * which must hold), their checks before saving, the arguments of
 * save_alias_routes, and the "test against a sample visitor", which runs the redirector's own
 * evaluator (shared/src/routing.ts) so the builder cannot promise what the redirect does not do.
 */
import {
  matchRoute,
  type RedirectRoute,
  type RouteRule,
  type RouteVisitor,
} from '@shortlane/shared/routing.ts';

export interface BuilderValue {
  id: string;
  name: string;
  type: string;
  values: string[] | Record<string, string> | null;
  custom_values: boolean;
  is_assoc: boolean;
  argument: 'parameter' | 'time_zone' | null;
}
export interface BuilderCondition {
  id: string;
  name: string;
  has_operations: boolean;
}
export interface BuilderOperation {
  id: string;
  name: string;
  types: string[];
  support_list: boolean;
}
export interface BuilderData {
  values: BuilderValue[];
  conditions: BuilderCondition[];
  operations: BuilderOperation[];
  urls_conditions: { id: string; name: string }[];
}

/** One condition of a rule as edited: "<value> <condition> <operation> <operands>". */
export interface DraftCondition {
  /** Stable while editing (React key); not saved. */
  key: string;
  value: string;
  condition: string;
  operation: string;
  /** Comma-separated. */
  operands: string;
  argument: string;
}

/** One rule as edited: "if <conditions, all or any of them> then go to <url>". */
export interface DraftRule {
  /** Stable while editing (React key); not saved. */
  key: string;
  url: string;
  /** One of the builder data's urls_conditions: whether all or any condition must hold. */
  match: string;
  conditions: DraftCondition[];
}

/** What save_alias_routes accepts (its own checks say the same). */
export const MAX_RULES = 50;
export const MAX_CONDITIONS_PER_RULE = 20;

let keys = 0;
const nextKey = () => `draft-${++keys}`;

export function newDraftCondition(): DraftCondition {
  return {
    key: nextKey(),
    value: 'country',
    condition: 'if',
    operation: 'equals',
    operands: '',
    argument: '',
  };
}

export function newDraftRule(): DraftRule {
  return { key: nextKey(), url: '', match: 'all', conditions: [newDraftCondition()] };
}

function draftCondition(rule: RouteRule): DraftCondition {
  return {
    key: nextKey(),
    value: rule.value,
    condition: rule.condition,
    operation: rule.operation ?? '',
    operands: rule.operands.join(', '),
    argument: rule.argument ?? '',
  };
}

/** Saved routes (app.link_routes's shape) as drafts; a route without rules always holds. */
export function draftsFromRoutes(routes: readonly RedirectRoute[]): DraftRule[] {
  return routes.map((route) => ({
    key: nextKey(),
    url: route.url,
    match: route.match,
    conditions:
      route.rules.length > 0
        ? route.rules.map(draftCondition)
        : [{ ...newDraftCondition(), condition: 'always', operation: '' }],
  }));
}

export function operandList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

export function conditionOf(data: BuilderData, id: string): BuilderCondition | undefined {
  return data.conditions.find((condition) => condition.id === id);
}

export function valueOf(data: BuilderData, id: string): BuilderValue | undefined {
  return data.values.find((value) => value.id === id);
}

/** The operations that apply to a value's type. */
export function operationsFor(data: BuilderData, valueId: string): BuilderOperation[] {
  const type = valueOf(data, valueId)?.type;
  return data.operations.filter((operation) => type != null && operation.types.includes(type));
}

/** The fixed choices of a value, as [code, label] pairs; empty when it takes free input. */
export function choicesOf(value: BuilderValue | undefined): [string, string][] {
  if (!value?.values) return [];
  return Array.isArray(value.values)
    ? value.values.map((choice) => [choice, choice])
    : Object.entries(value.values);
}

export function conditionRule(draft: DraftCondition, data: BuilderData): RouteRule {
  const hasOperation = conditionOf(data, draft.condition)?.has_operations ?? true;
  return {
    value: draft.value,
    condition: draft.condition,
    operation: hasOperation ? draft.operation || null : null,
    operands: hasOperation ? operandList(draft.operands) : [],
    argument: valueOf(data, draft.value)?.argument ? draft.argument.trim() || null : null,
  };
}

export function draftRoute(draft: DraftRule, data: BuilderData, id = draft.key): RedirectRoute {
  return {
    id,
    url: draft.url.trim(),
    match: draft.match,
    rules: draft.conditions.map((condition) => conditionRule(condition, data)),
  };
}

/** save_alias_routes's p_routes. */
export function saveArgs(drafts: readonly DraftRule[], data: BuilderData): RedirectRoute[] {
  return drafts.map((draft) => {
    const { url, match, rules } = draftRoute(draft, data);
    return { url, match, rules } as RedirectRoute;
  });
}

export interface ConditionErrors {
  argument?: string;
  operation?: string;
  operands?: string;
}
export interface RuleErrors {
  url?: string;
  /** By the rule's conditions, in order. */
  conditions: ConditionErrors[];
}

function conditionErrors(draft: DraftCondition, data: BuilderData): ConditionErrors {
  const errors: ConditionErrors = {};
  const value = valueOf(data, draft.value);
  const hasOperation = conditionOf(data, draft.condition)?.has_operations ?? true;
  if (value?.argument === 'parameter' && draft.argument.trim() === '')
    errors.argument = 'Name the query parameter.';
  if (hasOperation) {
    const operation = data.operations.find((entry) => entry.id === draft.operation);
    const operands = operandList(draft.operands);
    if (!operation) errors.operation = 'Choose an operation.';
    else if (operands.length === 0) errors.operands = 'Give a value.';
    else if (operands.length > 1 && !operation.support_list)
      errors.operands = 'Give exactly one value.';
  }
  return errors;
}

/** What the form can tell before the server does (the server judges URLs and rules again). */
export function draftErrors(draft: DraftRule, data: BuilderData): RuleErrors {
  const errors: RuleErrors = {
    conditions: draft.conditions.map((condition) => conditionErrors(condition, data)),
  };
  const url = draft.url.trim();
  if (url === '') errors.url = 'The URL field is required.';
  else if (!/^https?:\/\/[^\s/]+/i.test(url)) errors.url = 'The url must be a valid URL.';
  return errors;
}

export function hasErrors(errors: RuleErrors): boolean {
  return (
    errors.url !== undefined ||
    errors.conditions.some((condition) => Object.keys(condition).length > 0)
  );
}

export interface SampleVisitor {
  country: string;
  device: string;
  language: string;
}

/** The sample as the evaluator sees it: what is not asked is unknown; the time is now. */
export function sampleRouteVisitor(sample: SampleVisitor, now = Date.now()): RouteVisitor {
  const text = (value: string) => (value.trim() === '' ? null : value.trim());
  return {
    country: text(sample.country)?.toUpperCase() ?? null,
    device: text(sample.device),
    os: null,
    browser: null,
    language: text(sample.language)?.toLowerCase() ?? null,
    referrer: null,
    search: '',
    now,
    clicks: null,
  };
}

/** Where the sample visitor would go: the 0-based rule that holds first, or the destination. */
export function testRoutes(
  drafts: readonly DraftRule[],
  data: BuilderData,
  sample: SampleVisitor,
  destination: string,
  now = Date.now(),
): { index: number | null; url: string } {
  const routes = drafts.map((draft, index) => draftRoute(draft, data, String(index)));
  const matched = matchRoute(routes, sampleRouteVisitor(sample, now));
  return matched
    ? { index: Number(matched.id), url: matched.url }
    : { index: null, url: destination };
}

export function moveDraft<T>(items: readonly T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (target < 0 || target >= items.length) return [...items];
  const next = [...items];
  [next[index], next[target]] = [next[target] as T, next[index] as T];
  return next;
}
