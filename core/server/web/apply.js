// The agent files panel: what GET /apply reports for each agent's
// instruction file, and "Apply to agents", which POSTs /apply under the same
// shared-write contract as a settings save.

import { request, ApiError } from './api.js';
import { $, el, pathCode } from './dom.js';
import { confirmSharedWrite } from './shared.js';

const STATES = {
  current: 'Up to date',
  outdated: 'Outdated',
  missing: 'Not written yet', // outdated, and the file does not exist
  written: 'Updated',
  blocked: 'Not written',
};

// stateOf is a target's state as the panel shows it.
const stateOf = (t) => (t.state === 'outdated' && t.missing ? 'missing' : t.state);

const files = (n) => `${n} ${n === 1 ? 'file' : 'files'}`;

// capital starts a server message with a capital letter.
const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// diffView shows a unified diff with added and removed lines marked.
function diffView(diff) {
  const lines = diff.replace(/\n$/, '').split('\n').map((line) => {
    const kind = /^(\+\+\+|---)/.test(line) ? 'file' : { '+': 'add', '-': 'del', '@': 'hunk' }[line[0]];
    return el('span', { class: kind ? `diff-${kind}` : false, text: `${line}\n` });
  });
  return el('details', { class: 'apply-diff' }, el('summary', { text: 'Show changes' }), el('pre', {}, ...lines));
}

// reduced says whether the user asked for less motion.
const reduced = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

export class ApplyPanel {
  constructor({ onFatal }) {
    this.onFatal = onFatal;
    this.busy = false;
    $('apply').addEventListener('click', () => this.run());
    $('apply-offer-go').addEventListener('click', () => {
      $('apply-panel').scrollIntoView({ block: 'nearest', behavior: reduced() ? 'auto' : 'smooth' });
      $('apply').focus({ preventScroll: true });
    });
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && !this.busy) this.load();
    });
  }

  // load asks which files are out of date (it writes nothing) and tells
  // how many are.
  async load() {
    try {
      const { data } = await request('GET', 'apply');
      this.show(data.targets);
      this.summary();
    } catch (err) {
      this.show([]); // what was shown may no longer hold
      this.failed(err, 'Could not check the agent files');
    }
    return this.outdated();
  }

  // afterSave checks again and, when the save left files out of date,
  // offers the next step in the save bar.
  async afterSave() {
    $('apply-offer').hidden = (await this.load()) === 0;
  }

  // outdated counts the files Apply would write.
  outdated() {
    return this.count('outdated', 'missing', 'blocked');
  }

  count(...states) {
    return document.querySelectorAll(states.map((s) => `#apply-targets [data-state="${s}"]`).join(', ')).length;
  }

  show(targets) {
    $('apply-targets').replaceChildren(...targets.map((t) => el('li', { class: 'apply-row', 'data-agent': t.agent, 'data-state': stateOf(t) },
      el('span', { class: 'apply-agent', text: t.agent }),
      pathCode(t.path, { class: 'path apply-path', title: t.path }),
      el('span', { class: 'apply-state', text: STATES[stateOf(t)] || t.state }),
      t.sharedPath ? el('p', { class: 'apply-shared muted', text: 'Shared by all profiles through agent-switch' }) : null,
      t.diff ? diffView(t.diff) : null)));
    $('apply-targets').hidden = targets.length === 0;
    this.buttons();
  }

  // summary tells apart files that hold earlier settings from files that
  // do not exist yet.
  summary() {
    const old = this.count('outdated', 'blocked');
    const missing = this.count('missing');
    const parts = [];
    if (old) parts.push(`${files(old)} out of date: agents still follow the earlier settings.`);
    if (missing) parts.push(`${files(missing)} not written yet: ${missing === 1 ? 'its agent does' : 'their agents do'} not know these settings.`);
    if (parts.length) this.status(parts.join(' '));
    else this.status('Every agent file is up to date.', { ok: true });
  }

  status(text, { ok = false, error = false } = {}) {
    const st = $('apply-status');
    st.textContent = text;
    st.classList.toggle('is-ok', ok);
    st.classList.toggle('is-error', error);
  }

  buttons() {
    const n = this.outdated();
    $('apply').disabled = this.busy || n === 0;
    $('apply').classList.toggle('btn-primary', n > 0);
    $('apply-panel').setAttribute('aria-busy', String(this.busy));
    if (n === 0) $('apply-offer').hidden = true;
  }

  // failed explains an error in place: no agent to pick (422) or broken
  // markers (409) say what to fix; a bad token ends the page.
  failed(err, what) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 401 || err.code === 'unreachable') {
      this.onFatal(err);
      return;
    }
    this.status(err.status === 422 ? capital(err.message) : `${what}: ${err.message}`, { error: true });
  }

  async run(confirm = false) {
    if (this.busy) return;
    this.busy = true;
    this.buttons();
    this.status('Writing…');
    let again = false;
    try {
      const { data } = await request('POST', 'apply', { body: { confirmSharedWrite: confirm } });
      const n = data.targets.filter((t) => t.state === 'written').length;
      this.show(data.targets);
      this.status(n ? `Applied: ${files(n)} updated.` : 'Nothing to apply: every agent file was up to date.', { ok: true });
    } catch (err) {
      if (err.status === 409 && err.code === 'shared_write') {
        this.status('Waiting for your choice…');
        again = await confirmSharedWrite(err.error);
        if (!again) {
          this.show(err.error.targets || []);
          this.status('Not applied: the shared file was left as it is.');
        }
      } else {
        this.failed(err, 'Not applied');
      }
    } finally {
      this.busy = false;
      this.buttons();
    }
    if (again) {
      await this.run(true);
      return;
    }
    // Focus left with the dialog or the disabled button: give it back.
    const at = document.activeElement;
    if ((!at || at === document.body || !at.checkVisibility()) && !$('apply').disabled) $('apply').focus();
  }
}
