// Form controls for one setting each, built from its JSON Schema property.
// A field's value is what its control shows: a boolean for bool, a string
// for enum, the exact typed text for int, decimal, duration and string, an
// array for list.

import { el } from './dom.js';

const ORDER = { bool: 0, enum: 1, int: 2, decimal: 3, duration: 4, string: 5, list: 6 };

// humanize turns a key segment into a label: on_failure → "On failure".
export function humanize(seg) {
  const words = seg.replace(/[_-]+/g, ' ').replace(/\bmin\b/, 'minimum').replace(/\bmax\b/, 'maximum');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// sameValue compares two field values.
export function sameValue(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);
  }
  return a === b;
}

// toField turns a value from GET /settings (numbers kept as text) into a field value.
export function toField(kind, v) {
  switch (kind) {
    case 'bool': return v === true;
    case 'list': return Array.isArray(v) ? v.map(String) : [];
    default: return v === null || v === undefined ? '' : String(v);
  }
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

// jsonText encodes a field value for PATCH. Numbers are written from the
// exact text typed, never through a float; text that is no JSON number is
// sent as a string, so that the server explains what is wrong with it.
export function jsonText(kind, value) {
  if ((kind === 'int' || kind === 'decimal') && JSON_NUMBER.test(value)) return value;
  return JSON.stringify(value);
}

// rangeText describes a number's bounds: "0 to 100", "at least 0".
function rangeText(p) {
  const lo = p.minimum !== undefined ? String(p.minimum) : null;
  const hi = p.maximum !== undefined ? String(p.maximum) : null;
  if (lo !== null && hi !== null) return `${lo} to ${hi}`;
  if (lo !== null) return `at least ${lo}`;
  if (hi !== null) return `at most ${hi}`;
  return '';
}

// layout walks the schema into sections of fields and groups of fields,
// in the order and with the titles the schema gives (x-sections). A nested
// object with one leaf is folded into its label ("Tests required"); one
// with more becomes a group of its own ("Budget").
export function layout(schema) {
  const props = schema.properties || {};
  return (schema['x-sections'] || []).filter((sec) => props[sec.name])
    .map((sec) => ({ ...sec, ...(props[sec.name]['x-key'] // a key that is its own section (sources)
      ? { fields: [{ prop: props[sec.name], label: humanize(sec.name) }], groups: [] }
      : collect(props[sec.name], [])) }));
}

function collect(obj, prefix) {
  const fields = [];
  const groups = [];
  for (const [name, p] of Object.entries(obj.properties || {})) {
    if (p['x-key']) {
      fields.push({ prop: p, label: humanize([...prefix, name].join(' ')) });
    } else if (p.properties) { // a section (it may also be null in a file)
      const sub = collect(p, []);
      if (sub.fields.length + sub.groups.length > 1) {
        groups.push({ title: humanize(name), ...sub });
      } else {
        fields.push(...collect(p, [...prefix, name]).fields);
      }
    }
  }
  fields.sort((a, b) => (ORDER[a.prop['x-kind']] ?? 9) - (ORDER[b.prop['x-kind']] ?? 9));
  return { fields, groups };
}

let seq = 0;

const basename = (path) => path.split(/[\\/]/).pop();

// LAYER_WORDS names a layer where a value is inherited from.
const LAYER_WORDS = {
  global: 'the global settings', scope: 'this scope', project: 'the project', projectLocal: 'your project-local file',
};

// Field is one setting's row: label, description, origin, control, error.
export class Field {
  constructor(prop, label, onChange) {
    this.prop = prop;
    this.key = prop['x-key'];
    this.kind = prop['x-kind'];
    this.onChange = onChange;
    this.id = `f${++seq}`;
    this.items = [];
    this.build(label);
  }

  build(label) {
    const p = this.prop;
    const ids = { desc: `${this.id}-desc`, origin: `${this.id}-origin`, err: `${this.id}-err` };
    const describedBy = `${ids.desc} ${ids.origin} ${ids.err}`;
    this.control = this.makeControl(describedBy);
    this.labelEl = el('label', { class: 'field-label', for: this.id, id: `${this.id}-label`, text: label });
    this.originEl = el('p', { class: 'field-origin', id: ids.origin });
    this.lockEl = el('p', { class: 'field-lock', hidden: true });
    this.errorEl = el('p', { class: 'field-error', id: ids.err, hidden: true });
    this.resetBtn = el('button', { type: 'button', class: 'link-button field-reset', hidden: true, text: 'Reset to default' });
    // Its name is its visible text (WCAG 2.5.3); the field it resets is its description.
    this.resetBtn.setAttribute('aria-describedby', `${this.id}-label`);
    this.resetBtn.addEventListener('click', () => this.onChange(this, 'reset'));
    const range = (this.kind === 'int' || this.kind === 'decimal') ? rangeText(p) : '';
    const desc = el('p', { class: 'field-desc', id: ids.desc, text: p.description || '' });
    if (range) desc.append(el('span', { class: 'field-range', text: ` Range: ${range}.` }));
    this.row = el('div', { class: `field field-${this.kind}`, 'data-key': this.key },
      el('div', { class: 'field-text' },
        el('div', { class: 'field-head' }, this.labelEl, el('code', { class: 'field-key', text: this.key })),
        desc,
        el('div', { class: 'field-meta' }, this.originEl, this.resetBtn), this.lockEl),
      el('div', { class: 'field-control' }, this.control),
      this.errorEl);
  }

  makeControl(describedBy) {
    const p = this.prop;
    const changed = () => this.onChange(this, 'edit');
    switch (this.kind) {
      case 'bool': {
        this.input = el('input', { type: 'checkbox', role: 'switch', id: this.id, class: 'switch', 'aria-describedby': describedBy });
        this.input.addEventListener('change', changed);
        return this.input;
      }
      case 'enum': {
        this.input = el('select', { id: this.id, 'aria-describedby': describedBy },
          ...(p.enum || []).filter((c) => c !== null).map((c) => el('option', { value: c, text: c })));
        this.input.addEventListener('change', changed);
        return this.input;
      }
      case 'int':
      case 'decimal': {
        // The unit, when the schema names one, sits beside the number and
        // is read out with it.
        const unit = p['x-unit'] ? el('span', { class: 'field-unit', id: `${this.id}-unit`, text: p['x-unit'] }) : null;
        this.input = el('input', {
          type: 'number', id: this.id, inputmode: this.kind === 'int' ? 'numeric' : 'decimal',
          step: this.kind === 'int' ? '1' : 'any', min: p.minimum, max: p.maximum,
          'aria-describedby': unit ? `${unit.id} ${describedBy}` : describedBy, autocomplete: 'off',
        });
        this.input.addEventListener('input', changed);
        return unit ? el('div', { class: 'number-unit' }, this.input, unit) : this.input;
      }
      case 'list': {
        const noun = (p.items && p.items.description) || 'item';
        this.chips = el('ul', { class: 'chips', 'aria-label': `${this.key} items` });
        this.input = el('input', { type: 'text', id: this.id, placeholder: `Add a ${noun}`, 'aria-describedby': describedBy, autocomplete: 'off', spellcheck: 'false' });
        const add = el('button', { type: 'button', class: 'btn btn-small', text: 'Add' });
        add.setAttribute('aria-label', `Add ${noun}`);
        const addItem = () => {
          const v = this.input.value.trim();
          if (v && !this.items.includes(v)) {
            this.items = [...this.items, v];
            this.renderChips();
            changed();
          }
          this.input.value = '';
          this.input.focus();
        };
        add.addEventListener('click', addItem);
        this.input.addEventListener('keydown', (e) => {
          if (e.key === 'Enter') { e.preventDefault(); addItem(); }
        });
        return el('div', { class: 'list-editor' }, this.chips, el('div', { class: 'list-add' }, this.input, add));
      }
      case 'string': {
        // Commands and paths: typed as is, no spelling fixes.
        this.input = el('input', {
          type: 'text', id: this.id, class: 'field-text-input mono', placeholder: 'not set',
          'aria-describedby': describedBy, autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off',
        });
        this.input.addEventListener('input', changed);
        return this.input;
      }
      case 'duration': {
        this.input = el('input', {
          type: 'text', id: this.id, inputmode: 'text', placeholder: 'e.g. 90s or 10m', size: '10',
          'aria-describedby': describedBy, autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off',
        });
        this.input.addEventListener('input', changed);
        return this.input;
      }
      default: {
        this.input = el('input', { type: 'text', id: this.id, 'aria-describedby': describedBy });
        this.input.addEventListener('input', changed);
        return this.input;
      }
    }
  }

  renderChips() {
    const noun = (this.prop.items && this.prop.items.description) || 'item';
    this.chips.replaceChildren(...this.items.map((item, i) => {
      const rm = el('button', { type: 'button', class: 'chip-remove', 'aria-label': `Remove ${noun} ${item}` }, '×');
      rm.addEventListener('click', () => {
        this.items = this.items.filter((_, j) => j !== i);
        this.renderChips();
        this.onChange(this, 'edit');
        const next = this.chips.querySelectorAll('.chip-remove')[Math.min(i, this.items.length - 1)];
        (next || this.input).focus();
      });
      return el('li', { class: 'chip' }, el('span', { class: 'chip-text', text: item }), rm);
    }));
    this.chips.hidden = this.items.length === 0;
  }

  // value is what the control shows now.
  get value() {
    switch (this.kind) {
      case 'bool': return this.input.checked;
      case 'list': return [...this.items];
      default: return this.input.value.trim();
    }
  }

  set value(v) {
    switch (this.kind) {
      case 'bool': this.input.checked = v === true; break;
      case 'list': this.items = [...v]; this.renderChips(); break;
      default: this.input.value = v;
    }
  }

  // problem is a client-side check; the server judges everything else.
  problem() {
    if ((this.kind === 'int' || this.kind === 'decimal') && (this.input.validity.badInput || this.value === '')) {
      return 'Enter a number.';
    }
    if (this.kind === 'duration' && !/^\s*(\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)((\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))*\s*$/.test(this.value)) {
      return 'Enter a duration with a unit, such as 90s, 10m or 1h.';
    }
    return '';
  }

  get defaultValue() { return toField(this.kind, this.prop.default); }

  // show sets where the value comes from, whether it can be reset and what
  // the policy does to it. A default value says nothing: most are, and a
  // tag on each is noise. The full path of a file is one hover away.
  show({ origin, target, layer, lock, pending }) {
    const fromFile = origin && origin !== 'default';
    this.originEl.replaceChildren();
    this.originEl.removeAttribute('title');
    if (pending === 'reset') {
      this.originEl.append('Resets on save (the value below this layer applies)');
    } else if (pending === 'edit') {
      this.originEl.append('Unsaved change');
    } else if (layer === 'policy') {
      this.originEl.append('Set by the policy ', el('code', { text: basename(origin) }));
      this.originEl.title = origin;
    } else if (fromFile) {
      this.originEl.append(origin === target ? 'Set in ' : `Inherited from ${LAYER_WORDS[layer] || 'the file'} `, el('code', { text: basename(origin) }));
      this.originEl.title = origin;
    }
    this.originEl.hidden = !this.originEl.hasChildNodes();
    this.row.dataset.pending = pending || '';
    this.resetBtn.hidden = pending === 'reset' || origin !== target;
    // A locked key is read-only: no layer can change it. A bound only
    // narrows what may be saved.
    const locked = !!(lock && lock.locked);
    this.row.classList.toggle('is-locked', locked);
    this.lockEl.hidden = !lock;
    this.lockEl.replaceChildren();
    if (lock) {
      // The reason names the policy file: "locked to full by /etc/…".
      const reason = String(lock.reason || '');
      this.lockEl.append(el('span', { class: 'lock-icon', 'aria-hidden': 'true', text: locked ? '🔒 ' : '⇅ ' }),
        reason.charAt(0).toUpperCase() + reason.slice(1));
    }
    for (const c of this.row.querySelectorAll('input, select, button:not(.field-reset)')) c.disabled = locked;
    if (locked) this.resetBtn.hidden = true;
  }

  setError(msg) {
    // The server's messages start with the key, which the row already shows.
    if (msg && msg.startsWith(`${this.key}: `)) msg = msg.slice(this.key.length + 2);
    this.errorEl.textContent = msg || '';
    this.errorEl.hidden = !msg;
    this.row.classList.toggle('has-error', !!msg);
    if (msg) this.input.setAttribute('aria-invalid', 'true');
    else this.input.removeAttribute('aria-invalid');
  }
}
