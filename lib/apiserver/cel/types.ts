/**
 * Types shared by the CEL rule engine: compiled rules, the per-CRD rule tree and options.
 *
 * @module
 */
import type { cel } from "../deps.ts";
import type { CompiledNode, ValidationRule } from "../schema/types.ts";

/**
 * Variables a rule program is evaluated with (a type alias, not an interface, so it is a
 * `Record<string, CelInput>` as the CEL planner takes its bindings).
 */
export type CelBindings = {
  readonly self: cel.CelInput;
  readonly oldSelf?: cel.CelInput;
};

/** A planned CEL expression; returns a value or a CEL error value, never throws. */
export type CelProgram = (bindings: CelBindings) => cel.CelValue | cel.CelError;

/** Why a rule did not compile: which field of the rule is at fault and the Kubernetes text. */
export interface RuleProblem {
  readonly field: "rule" | "message" | "messageExpression" | "reason" | "fieldPath";
  readonly type: "FieldValueInvalid" | "FieldValueRequired" | "FieldValueNotSupported";
  readonly detail: string;
}

/** One `x-kubernetes-validations` entry, compiled once per CRD version. */
export type CompiledRule =
  | {
    readonly type: "ok";
    readonly rule: ValidationRule;
    readonly program: CelProgram;
    /** The planned `messageExpression`, if the rule has one. */
    readonly messageProgram?: CelProgram;
    /** Whether the rule reads `oldSelf` (a transition rule: skipped without an old value). */
    readonly usesOldSelf: boolean;
    /** The rule's `fieldPath` in field-path form (`a.b[key]`), if set. */
    readonly fieldPath?: string;
  }
  | { readonly type: "error"; readonly rule: ValidationRule; readonly problems: RuleProblem[] };

/** Evaluation cost counter shared by one CRD's programs (evaluation is synchronous). */
export interface CostMeter {
  /** Steps used by the current evaluation. */
  used: number;
  /** Steps the current evaluation may use. */
  limit: number;
  /** Set when `used` went over `limit`; loops stop iterating from then on. */
  exceeded: boolean;
}

/** A schema node that carries rules or has a descendant that does. */
export interface RuleNode {
  readonly node: CompiledNode;
  readonly rules: readonly CompiledRule[];
  readonly properties?: ReadonlyMap<string, RuleNode>;
  readonly additionalProperties?: RuleNode;
  readonly items?: RuleNode;
}

/** All CEL rules of one CRD version, compiled. */
export interface CompiledCelRules {
  /** The root of the rule tree, or `undefined` when the schema has no rules. */
  readonly root?: RuleNode;
  readonly meter: CostMeter;
}

/** Cost limits of {@link CelValidatorOptions}. */
export interface CelCostOptions {
  /**
   * Cost units one rule (or message expression) evaluation may use. Default 1,000,000 (the
   * number Kubernetes uses as its per-call limit). A unit is one comprehension iteration
   * (`all`, `exists`, `exists_one`, `filter`, `map`) plus one per rule evaluated.
   */
  readonly perRuleCostLimit?: number;
  /** Cost units all rules of one object may use together. Default 10,000,000 (Kubernetes'). */
  readonly totalCostBudget?: number;
}

/** Options of `celValidator` / `validateCelRules`. */
export interface CelValidatorOptions extends CelCostOptions {
  /**
   * The object before an update. Given, transition rules (those reading `oldSelf`) run
   * wherever an old value correlates (same property, map key, or list-map key); without
   * it (create), they are skipped.
   */
  readonly oldObject?: unknown;
}
