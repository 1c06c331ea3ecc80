// The trust notice of the quality gates card (SPEC §13): while the served
// project's own commands are untrusted it lists them exactly (key, value,
// file) with a "Trust this project's commands" button, which sends the
// hash of what it showed (POST /api/v1/trust). Changed meanwhile, the
// server refuses and the notice shows the new values instead.

import { request } from './api.js';
import { el, pathCode } from './dom.js';
import { confirmSharedWrite } from './shared.js';

// Characters that would hide or reorder what a value runs (controls,
// zero-width and bidi marks) are shown escaped, as the CLI quotes them.
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'g');

function shownValue(v) {
  if (!HIDDEN.test(v)) return v;
  return JSON.stringify(v).replace(HIDDEN_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function valueItem(v) {
  return el('li', { class: 'trust-value', 'data-key': v.key },
    el('code', { class: 'trust-key', text: v.key }),
    el('pre', { class: 'trust-command', text: shownValue(v.value) }),
    el('p', { class: 'trust-file' }, `set in ${v.layer === 'projectLocal' ? 'the project-local file' : 'the project file'} `, pathCode(v.path)));
}

// TrustNotice renders GET /api/v1/trust into the gates card.
export class TrustNotice {
  constructor({ onFatal, onTrusted }) {
    this.onFatal = onFatal;
    this.onTrusted = onTrusted;
    this.shown = null; // the document whose values are on screen
    this.title = el('h3', { class: 'trust-title', id: 'trust-title', tabindex: '-1' });
    this.lead = el('p', { class: 'trust-lead' });
    this.values = el('ul', { class: 'trust-values', id: 'trust-values' });
    this.button = el('button', { type: 'button', class: 'btn btn-primary', id: 'trust-project', text: "Trust this project's commands" });
    this.status = el('p', { class: 'trust-status', id: 'trust-status', role: 'status', 'aria-live': 'polite' });
    this.notice = el('div', { class: 'note trust-notice', id: 'trust-notice', role: 'region', 'aria-labelledby': 'trust-title', hidden: true },
      this.title, this.lead, this.values, el('div', { class: 'trust-foot' }, this.button, this.status));
    this.ok = el('p', { class: 'apply-status is-ok trust-ok', id: 'trust-ok', hidden: true });
    this.node = el('div', { class: 'trust' }, this.notice, this.ok);
    this.button.addEventListener('click', () => this.trust());
  }

  // load reads the trust state; a server without a project shows nothing.
  async load() {
    try {
      const { data } = await request('GET', 'trust');
      this.render(data);
    } catch (err) {
      if (err.status === 401) { this.onFatal(err); return; }
      if (err.code === 'not_found') { this.render(null); return; }
      this.render(null);
      this.notice.hidden = false;
      this.title.textContent = 'The trust of this project could not be read';
      this.lead.textContent = err.message;
      this.values.replaceChildren();
      this.button.hidden = true;
    }
  }

  get untrusted() { return !!this.shown && this.shown.state === 'untrusted'; }

  render(doc, note = '') {
    this.shown = doc;
    const untrusted = !!doc && doc.state === 'untrusted';
    this.notice.hidden = !untrusted;
    this.button.hidden = false;
    this.ok.hidden = !(doc && doc.state === 'trusted');
    this.ok.textContent = "You trust this project's commands: the gates run them.";
    this.status.textContent = note;
    if (!untrusted) return;
    this.title.textContent = doc.changed
      ? "This project's commands changed since you trusted them"
      : "This project's commands are not trusted";
    this.lead.textContent = "The project's own settings ask charter to run or obey these values. They never run until you trust them, and any change to them makes the project untrusted again. Check each one:";
    this.values.replaceChildren(...doc.values.map(valueItem));
  }

  async trust() {
    const sha256 = this.shown && this.shown.sha256;
    this.button.disabled = true;
    this.status.textContent = 'Trusting…';
    try {
      let body = { sha256 };
      for (;;) {
        try {
          const { data } = await request('POST', 'trust', { body });
          this.render(data);
          this.onTrusted();
          return;
        } catch (err) {
          if (err.code !== 'shared_write' || body.confirmSharedWrite) throw err;
          if (!(await confirmSharedWrite(err.error))) {
            this.status.textContent = 'Not trusted: the trust file is shared by all profiles, and you chose not to write it.';
            return;
          }
          body = { sha256, confirmSharedWrite: true };
        }
      }
    } catch (err) {
      if (err.status === 401) { this.onFatal(err); return; }
      if (err.code === 'untrusted' && err.error.trust) {
        // Never trust blind: show what the project asks now, and say so.
        this.render(err.error.trust, 'Not trusted: the commands changed since they were shown. Check them again.');
        this.title.focus();
        return;
      }
      this.status.textContent = err.message;
    } finally {
      this.button.disabled = false;
    }
  }
}
