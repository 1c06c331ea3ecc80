// The content files of the agent files panel: each rule, skill, command
// and subagent file apply projects, per agent, with its state, and the
// bytes of always-loaded instructions per agent against its documented
// limit (the `files` and `budget` of GET and POST /apply).

import { el, pathCode } from './dom.js';

// LABELS name a file's state; planned is GET's (what Apply would do),
// done is POST's (what it did).
const LABELS = {
  current: 'Up to date',
  outdated: 'Outdated',
  missing: 'Not written yet',
  written: 'Updated',
  foreign: 'Not charter’s file',
  edited: 'Edited by hand',
  blocked: 'Not written',
};

// PENDING are the states Apply changes; CONFLICT those it refuses to touch.
const PENDING = new Set(['outdated', 'missing', 'pruned', 'blocked']);
const CONFLICT = new Set(['foreign', 'edited']);

const kib = (n) => (n < 1024 ? `${n} bytes` : `${(n / 1024).toFixed(1)} KiB`);

// budgetLine says how much an agent loads on every request.
function budgetLine(b) {
  if (!b) return null;
  const over = b.limit > 0 && b.bytes > b.limit;
  const text = b.limit > 0
    ? `${kib(b.bytes)} of ${kib(b.limit)} always loaded${over ? ': over the agent’s limit' : ''}`
    : `${kib(b.bytes)} always loaded`;
  return el('span', { class: `apply-budget${over ? ' is-over' : ''}`, 'data-agent': b.agent, text });
}

// renderFiles fills box with files and budget, grouped by agent, and
// returns how many files Apply would change and how many it refuses.
export function renderFiles(box, files = [], budget = [], { done = false } = {}) {
  const agents = [...new Set([...budget.map((b) => b.agent), ...files.map((f) => f.agent)])];
  const groups = agents.map((agent) => {
    const mine = files.filter((f) => f.agent === agent);
    const placed = mine.filter((f) => f.state !== 'unsupported');
    const gaps = mine.filter((f) => f.state === 'unsupported');
    const title = `apply-files-${box.id}-${agent}`;
    return el('section', { class: 'apply-files-agent', 'data-agent': agent, 'aria-labelledby': title },
      el('h4', { class: 'apply-files-title', id: title },
        el('span', { class: 'apply-agent', text: agent }), ' ',
        budgetLine(budget.find((b) => b.agent === agent))),
      placed.length ? el('ul', { class: 'apply-targets' }, ...placed.map((f) => el('li', {
        class: 'apply-row apply-file', 'data-agent': f.agent, 'data-kind': f.kind, 'data-item': f.item, 'data-state': f.state,
      },
      el('span', { class: 'apply-kind', text: `${f.kind} ${f.item}` }),
      pathCode(f.path, { class: 'path apply-path', title: f.path }),
      el('span', { class: 'apply-state', text: f.state === 'pruned' ? (done ? 'Removed' : 'Will be removed') : (LABELS[f.state] || f.state) })))) : null,
      gaps.length ? el('p', { class: 'apply-gaps muted', text: `No place for: ${gaps.map((f) => `${f.kind} ${f.item}`).join(', ')}.` }) : null);
  });
  box.replaceChildren(...(groups.length ? [el('h3', { class: 'apply-part-title', text: 'Rules, skills, commands and subagents' }), ...groups] : []));
  box.hidden = groups.length === 0;
  return {
    pending: done ? 0 : files.filter((f) => PENDING.has(f.state)).length,
    conflicts: files.filter((f) => CONFLICT.has(f.state)).length,
  };
}
