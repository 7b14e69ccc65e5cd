// The figures of the bench: id, label, goal, and how a measured value is judged. A goal is
// `{ max }` (ratio or size must be at most) or `{ min }` (at least); a figure with `reported: true`
// has no goal and is shown for context only. The CI check (`--check`) allows noise: a ratio fails
// only when the median of the quick run's rounds is beyond the goal by more than `noiseMargin`
// (1.2×: max goals fail above 1.2 × goal, min goals below goal / 1.2). Sizes are deterministic and
// get no margin; memory is judged by its own test (bounded, and under its byte budget).
// A figure whose goal is known to be out of reach carries a `guard` (same form as the goal) and a
// `guardWhy`: while it misses its goal it is judged against the guard instead ('known miss', shown
// with the goal, passes the check), so that it cannot get worse unnoticed. bench/README.md lists
// each guard with the measurements behind it.

export const noiseMargin = 1.2;

/** @typedef {{ id: string, label: string, unit: 'ratio'|'bytes'|'memory', goal: { max?: number, min?: number }, guard?: { max?: number, min?: number }, guardWhy?: string, reported?: boolean, ours?: number, baseline?: number, oursText?: string, baselineText?: string, oursLabel?: string, baselineLabel?: string, ratio?: number, value?: number, ratios?: number[], note?: string, error?: string, bounded?: boolean, peers?: object }} Figure */

/**
 * 'met' | 'margin' (missed, but within the noise margin: passes the CI check) | 'known miss'
 * (missed, within its guard: passes the CI check) | 'MISSED' | 'n/a' (could not be measured: fails
 * the check) | 'reported' (no goal).
 */
export function judge(figure, { check = false } = {}) {
  if (figure.error !== undefined) return 'n/a';
  if (figure.reported) return 'reported';
  if (figure.unit === 'memory') {
    return figure.bounded && !(figure.value > figure.goal.max) ? 'met' : 'MISSED';
  }
  const value = figure.unit === 'ratio' ? figure.ratio : figure.value;
  if (value === undefined || Number.isNaN(value)) return 'n/a';
  const beyond = (limit, margin) =>
    (limit.max !== undefined && value > limit.max * margin) ||
    (limit.min !== undefined && value < limit.min / margin);
  const margin = check && figure.unit === 'ratio' ? noiseMargin : 1;
  if (!beyond(figure.goal, 1)) return 'met';
  if (!beyond(figure.goal, margin)) return 'margin';
  if (figure.guard !== undefined && !beyond(figure.guard, margin)) return 'known miss';
  return 'MISSED';
}

/** Whether a figure passes the CI check. */
export const passes = (status) =>
  status === 'met' || status === 'margin' || status === 'known miss' || status === 'reported';

/**
 * Whether a figure, as measured so far, is beyond the CI check (judged in check mode: a ratio beyond
 * `noiseMargin` × its goal, and its guard if it has one, or not measurable). In check mode the
 * route and cold-start suites measure such a figure again before it is judged.
 */
export const beyondCheck = (figure) => !passes(judge(figure, { check: true }));

export function goalText(figure) {
  if (figure.reported) return 'reported';
  if (figure.unit === 'memory') return `bounded, ≤ ${(figure.goal.max / 1048576).toFixed(0)} MB retained`;
  const text = (limit) =>
    figure.unit === 'bytes'
      ? `≤ ${(limit.max / 1024).toFixed(1).replace(/\.0$/, '')} KB`
      : limit.max !== undefined
        ? `≤ ${limit.max}×`
        : `≥ ${limit.min}×`;
  return figure.guard === undefined
    ? text(figure.goal)
    : `${text(figure.goal)} (guard ${text(figure.guard)})`;
}
