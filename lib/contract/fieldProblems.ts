/**
 * Problems a schema's own refinement names in its issue's `params.problem`: the schemas also run
 * in content scripts, which carry no translations, so their refinements say what is wrong by code
 * and lib/i18n/problems.ts chooses the words. Typed here, below every schema that names one, so a
 * misspelt code is a type error (`'http-url' satisfies FieldProblem`).
 */
export type FieldProblem = 'http-url' | 'dates-not-ascending' | 'too-long';
