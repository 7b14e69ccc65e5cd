// One plain-text table (no colours, so CI logs and the README can hold it as is).
import { goalText, judge, noiseMargin } from './figures.mjs';

export function formatTime(ns) {
  if (ns === undefined || Number.isNaN(ns)) return '—';
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(ns >= 1e8 ? 0 : 1)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(ns >= 1e5 ? 0 : 2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

export const formatMB = (bytes) => (bytes === undefined ? '—' : `${(bytes / 1048576).toFixed(1)} MB`);

export const formatBytes = (bytes) => (bytes === undefined ? '—' : `${(bytes / 1024).toFixed(1)} KB`);

function cells(figure, options) {
  const status = judge(figure, options);
  const mark = {
    met: '✓ met',
    margin: `≈ within ${noiseMargin}× noise margin`,
    'known miss': '✗ missed (within its guard)',
    MISSED: '✗ MISSED',
    'n/a': '— n/a',
    reported: 'reported',
  }[status];
  if (figure.error !== undefined) {
    return [figure.label, '—', '—', '—', goalText(figure), `${mark} (${figure.error})`];
  }
  if (figure.unit === 'bytes') {
    const peers = Object.entries(figure.peers ?? {})
      .map(([name, bytes]) => `${name} ${formatBytes(bytes)}`)
      .join(', ');
    return [figure.label, formatBytes(figure.value), peers || '—', '—', goalText(figure), mark];
  }
  if (figure.unit === 'memory') {
    return [
      figure.label,
      `retained ${formatMB(figure.value)}, peak ${formatMB(figure.peak)}`,
      figure.baselineLabel ?? '—',
      '—',
      goalText(figure),
      mark,
    ];
  }
  const ours =
    figure.oursText ?? `${formatTime(figure.ours)}${figure.oursLabel ? ` ${figure.oursLabel}` : ''}`;
  const baseline =
    figure.baselineText !== undefined
      ? `${figure.baselineLabel ? `${figure.baselineLabel}: ` : ''}${figure.baselineText}`
      : `${formatTime(figure.baseline)}${figure.baselineLabel ? ` ${figure.baselineLabel}` : ''}`;
  return [figure.label, ours, baseline, `${figure.ratio.toFixed(2)}×`, goalText(figure), mark];
}

export function renderTable(figures, options = {}) {
  const header = ['figure', 'hosted-payments', 'measured against', 'ratio', 'goal', 'status'];
  const rows = [header, ...figures.map((figure) => cells(figure, options))];
  const widths = header.map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  const line = (row) => `| ${row.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ')} |`;
  return [
    line(rows[0]),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.slice(1).map(line),
  ].join('\n');
}
