// The content tab: every rule, skill, command and subagent in effect here
// (GET /content), with its origin, tier, state and the agents that get it;
// a checkbox per rule and skill that adds or removes its name in
// rules.disabled / skills.disabled of the layer that decides the item at
// its level (PATCH /settings with that layer's ETag): a project item in the
// project's committed settings, which render the project's files; one of
// the user's in this scope's; the personal project-local file only when
// the user picks it. A read-only preview shows the body as text.

import { request, ApiError } from './api.js';
import { $, el, pathCode } from './dom.js';
import { confirmSharedWrite } from './shared.js';

const KINDS = [
  ['rule', 'Rules'], ['skill', 'Skills'], ['command', 'Commands'], ['subagent', 'Subagents'],
];
const STATES = { active: 'Active', disabled: 'Disabled', below_tier: 'Below tier', policy: 'Required by policy' };
const LAYERS = {
  scope: ['This scope', 'your settings for this scope'],
  project: ['Project', 'shared with the team through git'],
  projectLocal: ['Project, only me', 'this checkout only, never committed'],
};
// PICKS are the choices of where toggles write: by each item's level (a
// project item in the project's settings, a user item in this scope's), or
// the personal project-local file for every item.
const PICKS = {
  level: ['Where each item is applied', 'a project item in the project\'s settings, one of yours in this scope\'s'],
  projectLocal: ['Project, only me', 'this checkout only, never committed: no agent\'s files change'],
};
// FILES say which level's agent files a write to each layer changes
// (project files render from the committed project settings only).
const FILES = {
  scope: 'your user-level agent files change on the next apply',
  project: 'the project\'s agent files change on the next apply --project',
  projectLocal: 'no agent\'s files change: only what charter shows and answers in this checkout',
};
// KEYS are the settings key and the layer's list of each kind a toggle edits.
const KEYS = { rule: ['rules.disabled', 'rules', 'setsRules'], skill: ['skills.disabled', 'skills', 'setsSkills'] };

const ORIGIN = { global: 'global settings folder', scope: 'this scope', project: 'the project', policy: 'the policy' };

// loadedText is what the agents reported loading of an item: only Claude
// Code reports it (its InstructionsLoaded hook), for the rules it gets.
function loadedText(l) {
  if (!l) return 'No agent reports loading';
  const at = l.at ? new Date(l.at).toLocaleString() : '';
  switch (l.state) {
    case 'loaded': return `Loaded by ${l.agent} in the last session (${at})`;
    case 'not_loaded': return `Not loaded in the last session (loaded by ${l.agent}, ${at})`;
    default: return 'Never loaded';
  }
}

export class ContentPage {
  constructor({ onFatal, onChanged = () => {} }) {
    this.onFatal = onFatal;
    this.onChanged = onChanged;
    this.doc = { items: [], layers: [], policy: '' };
    this.target = 'level';
    this.busy = false;
    $('preview-close').addEventListener('click', () => this.closePreview());
  }

  async load() {
    try {
      const { data } = await request('GET', 'content');
      this.doc = data;
      if (this.target !== 'level' && !this.layer(this.target)) this.target = 'level';
      this.render();
    } catch (err) {
      this.failed(err, 'Could not read the content');
    }
  }

  layer(name) { return this.doc.layers.find((l) => l.layer === name); }

  // layerFor is the layer a toggle of it writes: the one that decides it
  // at its level, unless the personal file was picked.
  layerFor(it) {
    if (this.target === 'projectLocal') return 'projectLocal';
    return it.level === 'project' && this.layer('project') ? 'project' : 'scope';
  }

  failed(err, what) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 401 || err.code === 'unreachable') {
      this.onFatal(err);
      return;
    }
    this.status(`${what}: ${err.message}`, { error: true });
  }

  status(text, { ok = false, error = false } = {}) {
    const st = $('content-status');
    st.textContent = text;
    st.classList.toggle('is-ok', ok);
    st.classList.toggle('is-error', error);
  }

  render() {
    this.renderLayers();
    const sections = KINDS.map(([kind, title]) => {
      const items = this.doc.items.filter((it) => it.kind === kind);
      const id = `content-${kind}-title`;
      return el('section', { class: 'card content-kind', 'data-kind': kind, 'aria-labelledby': id },
        el('h2', { class: 'card-title', id, text: `${title} (${items.length})` }),
        el('div', { class: 'card-body' }, items.length
          ? el('ul', { class: 'content-items' }, ...items.map((it) => this.row(it)))
          : el('p', { class: 'muted content-empty' }, `No ${title.toLowerCase()} yet: `, el('code', { text: `charter ${kind}s new NAME` }), ' adds one.')));
    });
    $('content-list').replaceChildren(...sections);
  }

  // renderLayers offers where toggles write: by level, or the personal file.
  renderLayers() {
    const choices = Object.keys(PICKS).filter((k) => k === 'level' || this.layer(k));
    $('content-layers').hidden = choices.length < 2;
    $('content-layer-options').replaceChildren(...choices.map((k) => {
      const id = `content-layer-${k}`;
      const input = el('input', { type: 'radio', name: 'content-layer', value: k, id });
      input.checked = k === this.target;
      input.addEventListener('change', () => { this.target = k; this.render(); });
      return el('label', { class: 'layer-option', for: id }, input,
        el('span', { class: 'layer-name', text: PICKS[k][0] }), el('span', { class: 'layer-hint', text: ` — ${PICKS[k][1]}` }));
    }));
    const used = this.target === 'projectLocal' ? ['projectLocal'] : ['project', 'scope'].filter((n) => this.layer(n));
    $('content-layer-file').replaceChildren(...used.flatMap((n, i) => {
      const l = this.layer(n);
      return [i ? '; ' : '', `${LAYERS[n][0]}: ${l.exists ? 'toggles write' : 'toggles create'} `, pathCode(l.path, { id: `content-layer-path-${n}` })];
    }));
  }

  row(it) {
    const key = `${it.kind}-${it.name}`;
    const nameId = `content-name-${key}`;
    const facts = [
      el('span', { class: 'content-fact' }, `From ${ORIGIN[it.layer] || it.layer} `, pathCode(it.origin, { class: 'path content-path' })),
      it.tier ? el('span', { class: 'content-fact', text: `Tier ${it.tier}` }) : null,
      it.globs && it.globs.length ? el('span', { class: 'content-fact', text: `For ${it.globs.join(', ')}` }) : null,
      el('span', { class: 'content-fact content-agents', text: it.receivedBy.length ? `Agents: ${it.receivedBy.join(', ')}` : 'No agent gets it' }),
      el('span', { class: 'content-fact content-loaded', 'data-loaded': it.loaded ? it.loaded.state : 'unreported', text: loadedText(it.loaded) }),
    ];
    // The state shown is what the item's level's files get; where this
    // checkout's settings make it differ, that is said beside it.
    const files = it.filesState || it.state;
    if (files !== it.state) facts.push(el('span', { class: 'content-fact content-here', text: `Here: ${(STATES[it.state] || it.state).toLowerCase()} (what charter shows and answers in this checkout)` }));
    return el('li', { class: 'content-row', 'data-kind': it.kind, 'data-name': it.name, 'data-state': files, 'data-here': it.state },
      el('div', { class: 'content-head' },
        el('span', { class: 'content-name', id: nameId, text: it.name }),
        el('span', { class: 'content-state', text: STATES[files] || files })),
      it.description ? el('p', { class: 'content-desc', text: it.description }) : null,
      el('p', { class: 'content-facts' }, ...facts),
      el('div', { class: 'content-actions' }, this.toggle(it, nameId),
        el('button', { type: 'button', class: 'btn btn-small content-preview-btn', 'aria-describedby': nameId, text: 'Preview' })));
  }

  // toggle is the checkbox of a rule or skill: checked while the chosen
  // layer's list names it. A policy item is locked, naming the policy.
  toggle(it, nameId) {
    if (!KEYS[it.kind]) return el('span', { class: 'muted content-always', text: 'Always active' });
    if (it.state === 'policy') {
      return el('span', { class: 'content-lock' }, 'Locked: required by ', pathCode(this.doc.policy || it.origin, { class: 'path content-policy' }));
    }
    const target = this.layerFor(it);
    const l = this.layer(target);
    const [, list] = KEYS[it.kind];
    const id = `content-toggle-${it.kind}-${it.name}`;
    const filesId = `content-files-${it.kind}-${it.name}`;
    const box = el('input', { type: 'checkbox', id, class: 'content-toggle', 'aria-describedby': `${nameId} ${filesId}` });
    box.checked = !!l && l[list].includes(it.name);
    box.disabled = !l || this.busy;
    box.addEventListener('change', () => this.write(it, box.checked));
    return el('span', { class: 'content-toggle-wrap', 'data-layer': target },
      el('label', { class: 'content-toggle-label', for: id }, box, `Disabled in ${LAYERS[target][0].toLowerCase()} settings`),
      el('span', { class: 'muted content-toggle-files', id: filesId, text: ` (${FILES[target]})` }));
  }

  // write adds or removes the item's name in the chosen layer's list.
  async write(it, disable, confirm = false) {
    const target = this.layerFor(it);
    const l = this.layer(target);
    const [key, list, sets] = KEYS[it.kind];
    const names = l[list].filter((n) => n !== it.name);
    if (disable) names.push(it.name);
    this.busy = true;
    this.status('Saving…');
    let again = false;
    try {
      await request('PATCH', 'settings', {
        body: { layer: target, set: { [key]: names }, confirmSharedWrite: confirm },
        headers: { 'If-Match': l.etag },
      });
      this.busy = false;
      await this.load();
      const now = this.doc.items.find((x) => x.kind === it.kind && x.name === it.name);
      const above = this.doc.layers.slice(this.doc.layers.indexOf(this.layer(target)) + 1)
        .find((x) => x[sets] && LAYERS[x.layer]);
      const said = `${it.name} ${disable ? 'disabled' : 'enabled'} in ${LAYERS[target][0].toLowerCase()} settings: ${FILES[target]}.`;
      const files = (STATES[now.filesState || now.state] || '').toLowerCase();
      if (above) this.status(`${said} ${LAYERS[above.layer][0]} settings also set ${key} and win here, where it is ${STATES[now.state].toLowerCase()}; in the files of its level it is ${files}.`);
      else this.status(said, { ok: true });
      this.onChanged();
    } catch (err) {
      this.busy = false;
      if (err.status === 409 && err.code === 'shared_write') {
        again = await confirmSharedWrite(err.error);
        if (!again) this.status('Not saved: the shared file was left as it is.');
      } else if (err.status === 412) {
        await this.load();
        this.status('These settings changed elsewhere: reloaded, try again.', { error: true });
      } else {
        this.failed(err, 'Not saved');
      }
      if (!again) this.render();
    }
    if (again) await this.write(it, disable, true);
    const box = document.getElementById(`content-toggle-${it.kind}-${it.name}`);
    if (box) box.focus();
  }

  // preview shows the item's body as text (textContent: no markup runs).
  async preview(kind, name, opener) {
    try {
      const { data } = await request('GET', `content/${encodeURIComponent(kind)}/${encodeURIComponent(name)}`);
      $('preview-title').textContent = `${kind} ${data.name}`;
      $('preview-origin').replaceChildren(pathCode(data.origin));
      $('preview-body').textContent = data.body;
      $('preview-files').textContent = data.files && data.files.length ? `Other files: ${data.files.join(', ')}` : '';
      this.opener = opener;
      $('content-preview').hidden = false;
      $('preview-title').focus();
    } catch (err) {
      this.failed(err, `Could not show ${name}`);
    }
  }

  closePreview() {
    $('content-preview').hidden = true;
    if (this.opener && this.opener.isConnected) this.opener.focus();
  }

  // listen routes the list's clicks: one listener for every row.
  listen() {
    $('content-list').addEventListener('click', (e) => {
      const btn = e.target.closest('.content-preview-btn');
      if (!btn) return;
      const row = btn.closest('.content-row');
      this.preview(row.dataset.kind, row.dataset.name, btn);
    });
  }
}

export function initContent(opts) {
  const page = new ContentPage(opts);
  page.listen();
  return page;
}
