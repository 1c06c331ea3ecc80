// The agent files panel: what GET /apply reports for each agent's
// instruction file, and "Apply to agents", which POSTs /apply under the same
// shared-write contract as a settings save. When the server serves a
// project, a second part does the same for the project's files
// (?project=true, {"project":true}).

import { request, ApiError } from './api.js';
import { $, el, pathCode } from './dom.js';
import { confirmSharedWrite } from './shared.js';
import { renderFiles } from './applyfiles.js';

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

// Part is one level's files: a list, a status line and an Apply button.
// The user level's are the user's own agent files; the project's are the
// served project's, written as `charter apply --project` writes them.
class Part {
  constructor({ ids, project, onFatal, onChange }) {
    this.list = $(ids.list);
    this.statusLine = $(ids.status);
    this.button = $(ids.button);
    this.project = project;
    this.onFatal = onFatal;
    this.onChange = onChange;
    this.busy = false;
    this.files = el('div', { class: 'apply-files', id: ids.files, hidden: true });
    this.list.after(this.files);
    this.filesPending = 0;
    this.filesConflicts = 0;
    this.button.addEventListener('click', () => this.run());
  }

  // load asks which files are out of date (it writes nothing) and returns
  // the agents the report names, or null when the check failed.
  async load() {
    try {
      const { data } = await request('GET', this.project ? 'apply?project=true' : 'apply');
      this.showFiles(data);
      this.show(data.targets);
      this.summary();
      return data.agents || [];
    } catch (err) {
      this.showFiles({});
      this.show([]); // what was shown may no longer hold
      this.failed(err, 'Could not check the agent files');
      return null;
    }
  }

  // outdated counts the files Apply would write.
  outdated() {
    return this.count('outdated', 'missing', 'blocked') + this.filesPending;
  }

  // showFiles shows the content files and budget of an apply document.
  showFiles(data, done = false) {
    const n = renderFiles(this.files, data.files, data.budget, { done });
    this.filesPending = n.pending;
    this.filesConflicts = n.conflicts;
  }

  count(...states) {
    return this.list.querySelectorAll(states.map((s) => `[data-state="${s}"]`).join(', ')).length;
  }

  show(targets) {
    this.list.replaceChildren(...targets.map((t) => el('li', { class: 'apply-row', 'data-agent': t.agent, 'data-state': stateOf(t) },
      el('span', { class: 'apply-agent', text: t.agent }),
      pathCode(t.path, { class: 'path apply-path', title: t.path }),
      el('span', { class: 'apply-state', text: STATES[stateOf(t)] || t.state }),
      t.sharedPath ? el('p', { class: 'apply-shared muted', text: 'Shared by all profiles through agent-switch' }) : null,
      t.diff ? diffView(t.diff) : null)));
    this.list.hidden = targets.length === 0;
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
    if (this.filesPending) parts.push(`${files(this.filesPending)} of rules, skills, commands or subagents to write or remove.`);
    if (this.filesConflicts) {
      this.status(`${parts.join(' ')} ${files(this.filesConflicts)} in the way: charter did not write ${this.filesConflicts === 1 ? 'it' : 'them'} or ${this.filesConflicts === 1 ? 'it was' : 'they were'} edited by hand; move ${this.filesConflicts === 1 ? 'it' : 'them'} away or run charter import.`.trim(), { error: true });
      return;
    }
    if (parts.length) this.status(parts.join(' '));
    else this.status('Every agent file is up to date.', { ok: true });
  }

  status(text, { ok = false, error = false } = {}) {
    const st = this.statusLine;
    st.textContent = text;
    st.classList.toggle('is-ok', ok);
    st.classList.toggle('is-error', error);
  }

  buttons() {
    const n = this.outdated();
    this.button.disabled = this.busy || n === 0;
    this.button.classList.toggle('btn-primary', n > 0);
    this.onChange();
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
      const body = { confirmSharedWrite: confirm };
      if (this.project) body.project = true;
      const { data } = await request('POST', 'apply', { body });
      const n = data.targets.filter((t) => t.state === 'written').length
        + (data.files || []).filter((f) => f.state === 'written' || f.state === 'pruned').length;
      this.showFiles(data, true);
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
    if ((!at || at === document.body || !at.checkVisibility()) && !this.button.disabled) this.button.focus();
  }
}

export class ApplyPanel {
  // project is the project the server serves (ping's project), or null.
  constructor({ onFatal, project = null }) {
    const onChange = () => this.changed();
    this.parts = [new Part({ ids: { list: 'apply-targets', files: 'apply-files', status: 'apply-status', button: 'apply' }, project: false, onFatal, onChange })];
    if (project) {
      $('apply-user-title').hidden = false;
      $('apply-project-title').replaceChildren('This project (', pathCode(project.path, { id: 'apply-project-dir' }), ')');
      $('apply-project-part').hidden = false;
      this.parts.push(new Part({ ids: { list: 'apply-project-targets', files: 'apply-project-files', status: 'apply-project-status', button: 'apply-project' }, project: true, onFatal, onChange }));
    }
    $('apply-offer-go').addEventListener('click', () => {
      $('apply-panel').scrollIntoView({ block: 'nearest', behavior: reduced() ? 'auto' : 'smooth' });
      // The first part with something to write takes the focus.
      const next = this.parts.find((p) => !p.button.disabled) || this.parts[0];
      next.button.focus({ preventScroll: true });
    });
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && !this.parts.some((p) => p.busy)) this.load();
    });
  }

  // load checks every part and tells how many files are out of date.
  async load() {
    const agents = await Promise.all(this.parts.map((p) => p.load()));
    const known = agents.find((a) => a !== null);
    if (known) this.known(known);
    return this.outdated();
  }

  // afterSave checks again and, when the save left files out of date,
  // offers the next step in the save bar.
  async afterSave() {
    $('apply-offer').hidden = (await this.load()) === 0;
  }

  // outdated counts the files the parts' Apply buttons would write.
  outdated() {
    return this.parts.reduce((n, p) => n + p.outdated(), 0);
  }

  changed() {
    $('apply-panel').setAttribute('aria-busy', String(this.parts.some((p) => p.busy)));
    if (this.outdated() === 0) $('apply-offer').hidden = true;
  }

  // known names the agents charter can write for, as the server's agent
  // table lists them: the hub keeps no list of its own.
  known(agents) {
    const lead = document.querySelector('#apply-panel .apply-lead');
    if (!lead) return;
    let p = document.getElementById('apply-agents');
    if (!p) {
      p = el('p', { id: 'apply-agents', class: 'apply-agents muted' });
      lead.after(p);
    }
    p.textContent = agents.length ? `Agents charter knows: ${agents.join(', ')}.` : '';
    p.hidden = agents.length === 0;
  }
}
