// The quality gates card: a "Run gates" button that runs the served
// project's gates (POST /api/v1/gates/run) and shows each gate's outcome,
// with the last lines of a failing gate's output. An untrusted project's
// own commands are listed above it, with the button that trusts them, and
// a required gate without a command (GET /api/v1/gates) says so, with the
// command the project suggests to copy.

import { request } from './api.js';
import { $, el, copyText } from './dom.js';
import { TrustNotice } from './trust.js';

const STATUS = { passed: 'passed', failed: 'failed', timed_out: 'timed out', skipped: 'skipped', untrusted: 'not trusted' };
const ROW_STATE = { passed: 'current', skipped: 'skipped', untrusted: 'blocked' };

function seconds(ms) {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function gateRow(g) {
  const row = el('li', { class: 'apply-row gate-row', 'data-gate': g.name, 'data-state': ROW_STATE[g.status] || 'outdated' },
    el('span', { class: 'apply-agent', text: g.name }),
    el('span', { class: 'apply-path', text: g.status === 'skipped' || g.status === 'untrusted' ? '' : seconds(g.elapsedMs) }),
    el('span', { class: 'apply-state', text: STATUS[g.status] || g.status }));
  const more = [];
  if (g.message) more.push(el('p', { class: 'field-desc gate-message', text: g.message }));
  if ((g.status === 'failed' || g.status === 'timed_out') && g.outputTail && g.outputTail.length) {
    more.push(el('pre', { class: 'gate-tail', text: g.outputTail.join('\n') }));
  }
  return more.length ? [row, el('li', { class: 'gate-detail' }, ...more)] : [row];
}

// hint is a line for one required gate without a command.
function hint(u) {
  const noun = { tests: 'test', lint: 'lint', coverage: 'coverage' }[u.gate] || u.gate;
  const lead = `No ${noun} command is configured (${u.key} is empty), so Run gates skips ${u.gate}.`;
  if (!u.suggested) return el('li', { class: 'gate-hint', 'data-gate': u.gate }, el('p', { class: 'field-desc', text: lead }));
  const code = el('code', { class: 'command-text gate-suggestion', text: u.suggested.set });
  const done = el('span', { class: 'copy-status', role: 'status', 'aria-live': 'polite' });
  const copy = el('button', { type: 'button', class: 'btn btn-small', text: 'Copy' });
  copy.addEventListener('click', async () => { done.textContent = await copyText(code); });
  return el('li', { class: 'gate-hint', 'data-gate': u.gate },
    el('p', { class: 'field-desc', text: `${lead} ${u.suggested.from} suggests:` }),
    el('div', { class: 'command' }, code, copy), done);
}

// initGates adds the card after the agent files panel. loaded resolves once
// the trust state and the gates without a command are read; refresh reads
// the latter again (after a save).
export function initGates({ onFatal }) {
  const hints = el('ul', { class: 'gate-hints', id: 'gate-hints', hidden: true });
  const refresh = async () => {
    try {
      const { data } = await request('GET', 'gates');
      const missing = data.unconfigured || [];
      hints.replaceChildren(...missing.map(hint));
      hints.hidden = missing.length === 0;
    } catch (err) {
      if (err.status === 401) onFatal(err);
      // else the run says it: the gate is listed as skipped
    }
  };
  const list = el('ul', { class: 'apply-targets', id: 'gate-results', hidden: true });
  const status = el('p', { class: 'apply-status', id: 'gate-status', role: 'status', 'aria-live': 'polite', text: 'Not run yet.' });
  const button = el('button', { type: 'button', class: 'btn', id: 'run-gates', text: 'Run gates' });
  const trust = new TrustNotice({
    onFatal,
    onTrusted: () => {
      list.replaceChildren(); // the last run's "not trusted" rows are stale now
      list.hidden = true;
      status.textContent = 'Trusted. Run gates now runs the project\'s commands.';
      button.focus();
    },
  });
  const card = el('section', { id: 'gates-panel', class: 'card apply', 'aria-labelledby': 'gates-title' },
    el('h2', { class: 'card-title', id: 'gates-title', text: 'Run the quality gates' }),
    el('div', { class: 'card-body' },
      el('p', { class: 'apply-lead', text: 'Runs the required gates of the project this server was started in, as charter gate run does.' }),
      trust.node,
      hints,
      list),
    el('div', { class: 'apply-foot' }, status, button));
  const anchor = $('apply-panel');
  if (anchor) anchor.after(card);

  button.addEventListener('click', async () => {
    button.disabled = true;
    status.textContent = 'Running the gates…';
    const started = Date.now();
    const tick = setInterval(() => { status.textContent = `Running the gates… ${seconds(Date.now() - started)}`; }, 500);
    try {
      const { data } = await request('POST', 'gates/run', { body: {} });
      const gates = data.gates || [];
      list.replaceChildren(...gates.flatMap(gateRow));
      list.hidden = gates.length === 0;
      const untrusted = gates.filter((g) => g.status === 'untrusted');
      if (untrusted.length) await trust.load(); // the state may have changed since
      if (gates.length === 0) status.textContent = 'No gate is required.';
      else if (data.ok) status.textContent = gates.some((g) => g.status === 'skipped') ? 'Every gate that ran passed; some have no command yet.' : 'Every gate passed.';
      else if (untrusted.length && !gates.some((g) => g.status === 'failed' || g.status === 'timed_out')) {
        status.textContent = `Not run: ${untrusted.map((g) => g.name).join(', ')} — this project's commands are not trusted.`;
      } else status.textContent = `Failing: ${gates.filter((g) => g.status === 'failed' || g.status === 'timed_out').map((g) => g.name).join(', ')}.`;
    } catch (err) {
      if (err.status === 401) { onFatal(err); return; }
      status.textContent = err.code === 'gate_running' ? 'The gates are already running: wait for that run to finish.' : err.message;
    } finally {
      clearInterval(tick);
      button.disabled = false;
    }
  });
  return { loaded: Promise.all([trust.load(), refresh()]), refresh };
}
