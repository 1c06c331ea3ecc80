// The shared sources card of the content tab (SPEC §15): each source with
// its URL, ref, pinned commit, the layer that declares it, whether its
// pinned tree is in the cache and whether the last fetch saw an update
// (GET /sources). Read-only: the hub never fetches, so "update available"
// is what the last `charter sources update` (or add) on this machine saw.

import { request } from './api.js';
import { $, el } from './dom.js';

const LAYERS = { scope: 'Your scope', project: 'The project', policy: 'The policy' };

const short = (c) => (c || '').slice(0, 12);

function cell(text, attrs = {}) {
  return el('td', attrs, text);
}

function row(s) {
  const cache = !s.commit ? 'Not pinned' : s.cached ? 'Cached' : 'Not in the cache';
  const update = !s.latest ? 'Not fetched yet' : s.update ? `Update available: ${short(s.latest)}` : 'Up to date';
  return el('tr', { 'data-source': s.name, 'data-update': s.update ? 'true' : 'false', 'data-cached': s.cached ? 'true' : 'false' },
    el('th', { scope: 'row', class: 'source-name' }, s.name),
    cell(el('code', { class: 'source-url', text: s.url })),
    cell(s.ref || 'default branch', { class: 'source-ref' }),
    cell(s.commit ? el('code', { class: 'source-commit', title: s.commit, text: short(s.commit) }) : 'none', { class: 'source-pin' }),
    cell(LAYERS[s.layer] || s.layer, { class: 'source-layer', title: s.settings }),
    cell(cache, { class: 'source-cache' }),
    cell(update, { class: s.update ? 'source-update is-update' : 'source-update' }));
}

// initSources adds the card below the content list; load reads the list
// again (never fetching).
export function initSources({ onFatal }) {
  const status = el('p', { class: 'content-status', id: 'sources-status', role: 'status', 'aria-live': 'polite' });
  const body = el('tbody', { id: 'sources-rows' });
  const table = el('table', { class: 'sources-table', id: 'sources-table', hidden: true },
    el('caption', { class: 'visually-hidden', text: 'Shared sources with their pins' }),
    el('thead', {}, el('tr', {}, ...['Name', 'URL', 'Ref', 'Pinned commit', 'Declared by', 'Cache', 'Update']
      .map((h) => el('th', { scope: 'col', text: h })))),
    body);
  const card = el('section', { id: 'sources-panel', class: 'card sources', 'aria-labelledby': 'sources-title' },
    el('h2', { class: 'card-title', id: 'sources-title', text: 'Shared sources' }),
    el('div', { class: 'card-body' },
      el('p', { class: 'content-lead', text: 'Git repositories whose rules, skills, commands and subagents charter takes at a pinned commit. The hub never fetches: run charter sources update to fetch and move the pins.' }),
      status,
      el('div', { class: 'sources-scroll' }, table)));
  const list = $('content-list');
  if (list) list.after(card);

  const load = async () => {
    try {
      const { data } = await request('GET', 'sources');
      const sources = data.sources || [];
      body.replaceChildren(...sources.map(row));
      table.hidden = sources.length === 0;
      status.textContent = sources.length === 0 ? 'No shared source is declared here: add one with charter sources add URL.' : '';
    } catch (err) {
      if (err.status === 401) { onFatal(err); return; }
      status.textContent = `Could not read the shared sources: ${err.message}`;
    }
  };
  return { load };
}
