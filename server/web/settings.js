// The settings form: built from the schema, filled from GET /settings,
// saved with PATCH /settings sending only what changed.

import { request, ApiError } from './api.js';
import { $, el, pathCode } from './dom.js';
import { Field, layout, toField, sameValue, jsonText } from './fields.js';
import { confirmSharedWrite } from './shared.js';

// pick reads a dotted key from nested values.
function pick(values, key) {
  return key.split('.').reduce((o, seg) => (o && typeof o === 'object' ? o[seg] : undefined), values);
}

export class SettingsForm {
  constructor({ onFatal, onSaved = () => {} }) {
    this.onFatal = onFatal;
    this.onSaved = onSaved;
    this.fields = new Map(); // key → Field
    this.saved = new Map(); // key → value as last read from the server
    this.resets = new Set(); // keys to unset on save
    this.origins = {};
    this.etag = '';
    this.layers = []; // [{name, path, exists, etag}] from GET /settings
    this.locks = {}; // key → what the policy does to it
    this.target = 'scope'; // the layer a save writes
    this.form = $('settings-form');
    this.busy = false;
    this.form.addEventListener('submit', (e) => { e.preventDefault(); this.save(); });
    $('discard').addEventListener('click', () => this.discard());
    $('stale-reload').addEventListener('click', () => this.reload());
    window.addEventListener('beforeunload', (e) => {
      if (this.changes().count > 0) e.preventDefault();
    });
  }

  async load() {
    try {
      const { data: schema } = await request('GET', 'settings/schema');
      this.render(schema);
      const { data, etag } = await request('GET', 'settings', { exact: true });
      this.apply(data, etag);
    } catch (err) {
      this.loadFailed(err);
    }
  }

  // loadFailed explains in place why there is no form (a malformed
  // settings file names its path and line); a bad token ends the page.
  loadFailed(err) {
    if (err.status === 401 || err.code === 'unreachable') {
      this.onFatal(err);
      return;
    }
    $('sections').replaceChildren(el('div', { class: 'alert alert-error', role: 'alert' },
      el('h2', { class: 'alert-title', text: 'The settings could not be read' }),
      el('p', { text: err.message })));
    $('savebar').hidden = true;
  }

  render(schema) {
    const onChange = (field, what) => this.changed(field, what);
    const sections = layout(schema).map((sec) => {
      const headingId = `sec-${sec.name}`;
      const body = el('div', { class: 'card-body' });
      for (const f of sec.fields) body.append(this.addField(f, onChange));
      for (const g of sec.groups) {
        const fs = el('fieldset', { class: 'group' }, el('legend', { class: 'group-title', text: g.title }));
        for (const f of g.fields) fs.append(this.addField(f, onChange));
        body.append(fs);
      }
      return el('section', { class: 'card settings-section', 'aria-labelledby': headingId },
        el('h2', { class: 'card-title', id: headingId, text: sec.title }), body);
    });
    $('sections').replaceChildren(...sections);
  }

  addField({ prop, label }, onChange) {
    const f = new Field(prop, label, onChange);
    this.fields.set(f.key, f);
    return f.row;
  }

  // reload reads the settings again and drops every unsaved change.
  async reload() {
    try {
      const { data, etag } = await request('GET', 'settings', { exact: true });
      this.apply(data, etag);
      $('stale').hidden = true;
      this.status('No unsaved changes');
    } catch (err) {
      if (err.status === 401 || err.code === 'unreachable') this.onFatal(err);
      else this.status(`Could not reload: ${err.message}`);
    }
  }

  // apply shows a settings document from GET or PATCH.
  apply(doc, etag) {
    this.etag = etag || '';
    this.origins = doc.origins || {};
    this.layers = doc.layers || [];
    this.locks = doc.locks || {};
    if (!this.layer(this.target) || !this.layer(this.target).path) this.target = 'scope';
    this.renderLayers();
    this.resets.clear();
    for (const [key, f] of this.fields) {
      const v = toField(f.kind, pick(doc.values, key));
      this.saved.set(key, v);
      f.value = v;
      f.setError('');
    }
    const unknown = doc.unknown || [];
    const note = $('unknown-keys');
    note.hidden = unknown.length === 0;
    note.textContent = unknown.length
      ? `The settings file also holds keys charter does not know (${unknown.join(', ')}). They are kept as they are.`
      : '';
    this.refresh();
  }

  layer(name) { return this.layers.find((l) => l.name === name); }

  // targetFile is the file a save writes.
  get targetFile() { const l = this.layer(this.target); return (l && l.path) || ''; }

  // renderLayers offers the layers a save can write: the scope always, the
  // project's two files when the server has a project.
  renderLayers() {
    const choices = [
      ['scope', 'This scope', 'your settings for this scope'],
      ['project', 'Project', 'shared with the team through git'],
      ['projectLocal', 'Project, only me', 'this checkout only, never committed'],
    ].filter(([name]) => { const l = this.layer(name); return l && l.path; });
    const picker = $('layer-picker');
    picker.hidden = choices.length < 2;
    $('layer-options').replaceChildren(...choices.map(([name, label, hint]) => {
      const input = el('input', { type: 'radio', name: 'layer', value: name, id: `layer-${name}` });
      input.checked = name === this.target;
      input.addEventListener('change', () => { this.target = name; this.renderLayers(); this.refresh(); });
      return el('label', { class: 'layer-option', for: `layer-${name}` }, input,
        el('span', { class: 'layer-name', text: label }), el('span', { class: 'layer-hint', text: ` — ${hint}` }));
    }));
    const l = this.layer(this.target);
    $('layer-file').replaceChildren(l && l.exists ? 'Writes ' : 'Creates ', pathCode(this.targetFile, { id: 'layer-path' }));
  }

  changed(field, what) {
    if (what === 'reset') {
      this.resets.add(field.key);
      field.value = field.defaultValue;
    } else {
      this.resets.delete(field.key);
    }
    field.setError('');
    this.refresh();
  }

  // changes lists what a save would send.
  changes() {
    const set = new Map();
    for (const [key, f] of this.fields) {
      if (!this.resets.has(key) && !sameValue(f.value, this.saved.get(key))) set.set(key, f);
    }
    return { set, unset: [...this.resets], count: set.size + this.resets.size };
  }

  refresh() {
    const { set, count } = this.changes();
    for (const [key, f] of this.fields) {
      const pending = this.resets.has(key) ? 'reset' : set.has(key) ? 'edit' : '';
      f.show({ origin: this.origins[key], target: this.targetFile, layer: this.layerOf(this.origins[key]), lock: this.locks[key], pending });
    }
    this.buttons(count);
    if (!this.busy) {
      this.status(count === 0 ? 'No unsaved changes' : `${count} unsaved ${count === 1 ? 'change' : 'changes'}`);
    }
  }

  // layerOf names the layer a file belongs to.
  layerOf(origin) {
    const l = this.layers.find((x) => x.path && x.path === origin);
    return l ? l.name : '';
  }

  buttons(count = this.changes().count) {
    $('save').disabled = this.busy || count === 0;
    $('discard').disabled = this.busy || count === 0;
    $('savebar').classList.toggle('is-dirty', count > 0);
  }

  setBusy(busy) {
    this.busy = busy;
    this.form.setAttribute('aria-busy', String(busy));
    this.buttons();
  }

  discard() {
    for (const [key, f] of this.fields) {
      f.value = this.saved.get(key);
      f.setError('');
    }
    this.resets.clear();
    this.refresh();
  }

  status(text, ok = false) {
    const st = $('save-status');
    st.textContent = text;
    st.classList.toggle('is-ok', ok);
  }

  // body builds the PATCH body by hand: numbers keep the text typed. base
  // holds the value read of every key changed, so that a save conflicts
  // only with a change to those same keys (SPEC §8).
  body(set, unset, confirm) {
    const pairs = [...set].map(([key, f]) => `${JSON.stringify(key)}:${jsonText(f.kind, f.value)}`);
    const base = [...set.keys(), ...unset].map((key) =>
      `${JSON.stringify(key)}:${jsonText(this.fields.get(key).kind, this.saved.get(key))}`);
    return `{"set":{${pairs.join(',')}},"unset":${JSON.stringify(unset)},"base":{${base.join(',')}},"layer":${JSON.stringify(this.target)},"confirmSharedWrite":${confirm}}`;
  }

  async save() {
    const { set, unset, count } = this.changes();
    if (count === 0 || this.busy) return;
    let firstBad = null;
    for (const f of set.values()) {
      const msg = f.problem();
      f.setError(msg);
      if (msg && !firstBad) firstBad = f;
    }
    if (firstBad) {
      this.status('Not saved: fix the highlighted setting first');
      firstBad.input.focus();
      return;
    }
    $('stale').hidden = true;
    this.setBusy(true);
    this.status('Saving…');
    let outcome;
    try {
      outcome = await this.send(set, unset, false);
    } finally {
      this.setBusy(false);
    }
    this.status(outcome.message, outcome.ok);
    if (outcome.focus) outcome.focus.focus();
    if (outcome.ok) this.onSaved();
  }

  // send PATCHes and tells how it went: {ok, message, focus}.
  async send(set, unset, confirm) {
    const n = set.size + unset.length;
    try {
      const { data, etag } = await request('PATCH', 'settings', {
        body: this.body(set, unset, confirm), exact: true,
      });
      this.apply(data, etag);
      return { ok: true, message: `Saved ${n} ${n === 1 ? 'change' : 'changes'}` };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return this.failed(err, set, unset);
    }
  }

  async failed(err, set, unset) {
    if (err.status === 409 && err.code === 'shared_write') {
      this.status('Waiting for your choice…');
      if (await confirmSharedWrite(err.error)) {
        this.status('Saving…');
        return this.send(set, unset, true);
      }
      return { message: 'Not saved: your changes are still here' };
    }
    if (err.status === 422 && Array.isArray(err.error.problems)) {
      let first = null;
      for (const p of err.error.problems) {
        const f = this.fields.get(p.key);
        if (f) {
          f.setError(p.message);
          first = first || f;
        }
      }
      const n = err.error.problems.length;
      return { message: `Not saved: ${n} ${n === 1 ? 'setting needs' : 'settings need'} attention`, focus: first && first.input };
    }
    if (err.status === 422 && err.code === 'locked_by_policy') {
      const f = this.fields.get(err.error.key);
      if (f) f.setError(err.message);
      return { message: 'Not saved: the policy does not allow this value', focus: f && f.input };
    }
    if (err.status === 412) {
      $('stale').hidden = false;
      return { message: 'Not saved', focus: $('stale-reload') };
    }
    if (err.status === 401 || err.code === 'unreachable') this.onFatal(err);
    return { message: `Not saved: ${err.message}` };
  }
}
