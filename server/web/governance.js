// The permissions and MCP servers card of the content tab (SPEC §14):
// every permission rule in force with its verdict, the layer and file it
// comes from and whether the policy locks it; every MCP server with its
// origin and whether apply projects it (GET /governance). Read-only: a
// rule is changed in the settings file of its layer.

import { request } from './api.js';
import { $, el } from './dom.js';

const LAYERS = { global: 'Global', scope: 'Your scope', project: 'The project', projectLocal: 'The project (personal)', policy: 'The policy' };
const REASONS = { disabled: 'Not projected: disabled (mcp.disabled)', not_allowed: 'Not projected: not in the policy’s mcp.allowed', untrusted: 'Not projected: the project is not trusted (charter trust)' };

const layer = (name, origin) => el('td', { class: 'gov-layer', title: origin }, LAYERS[name] || name, el('br'), el('code', { class: 'gov-origin', text: origin }));

function ruleRow(r) {
  return el('tr', { 'data-rule': r.rule, 'data-verdict': r.verdict, 'data-locked': r.locked ? 'true' : 'false', 'data-layer': r.layer },
    el('td', { class: `gov-verdict is-${r.verdict}`, text: r.verdict }),
    el('th', { scope: 'row' }, el('code', { class: 'gov-rule', text: r.rule })),
    layer(r.layer, r.origin),
    el('td', { class: 'gov-lock', text: r.locked ? 'Locked by policy' : '' }));
}

function serverRow(s) {
  return el('tr', { 'data-server': s.name, 'data-projected': s.projected ? 'true' : 'false', 'data-layer': s.layer },
    el('th', { scope: 'row', class: 'gov-server', text: s.name }),
    el('td', {}, el('code', { class: 'gov-what', text: s.command ? [s.command, ...(s.args || [])].join(' ') : s.url })),
    layer(s.layer, s.origin),
    el('td', { class: 'gov-state', text: s.projected ? 'Projected' : (REASONS[s.reason] || s.reason) }));
}

function table(id, caption, heads) {
  const body = el('tbody', { id: `${id}-rows` });
  const t = el('table', { class: 'sources-table', id: `${id}-table`, hidden: true },
    el('caption', { class: 'visually-hidden', text: caption }),
    el('thead', {}, el('tr', {}, ...heads.map((h) => el('th', { scope: 'col', text: h })))), body);
  return { t, body };
}

// initGovernance adds the card after the shared sources card (or the
// content list); load reads both lists again.
export function initGovernance({ onFatal }) {
  const status = el('p', { class: 'content-status', id: 'governance-status', role: 'status', 'aria-live': 'polite' });
  const rules = table('permissions', 'Permission rules in force', ['Verdict', 'Rule', 'From', 'Lock']);
  const servers = table('servers', 'MCP servers', ['Name', 'Command or URL', 'From', 'State']);
  const refused = el('ul', { class: 'gov-refused', id: 'permissions-refused', hidden: true });
  const card = el('section', { id: 'governance-panel', class: 'card sources', 'aria-labelledby': 'governance-title' },
    el('h2', { class: 'card-title', id: 'governance-title', text: 'Permissions and MCP servers' }),
    el('div', { class: 'card-body' },
      el('p', { class: 'content-lead', text: 'What agents may do: deny beats ask beats allow, and the lists add up over every layer. The policy’s deny and ask rules are locked: no lower layer can remove or loosen them. Change a rule in the settings file of its layer; charter apply writes them into each agent’s files.' }),
      status,
      el('h3', { class: 'apply-part-title', text: 'Permission rules' }),
      el('div', { class: 'sources-scroll' }, rules.t),
      refused,
      el('h3', { class: 'apply-part-title', text: 'MCP servers' }),
      el('div', { class: 'sources-scroll' }, servers.t)));
  const after = $('sources-panel') || $('content-list');
  if (after) after.after(card);

  const load = async () => {
    try {
      const { data } = await request('GET', 'governance');
      const perms = (data.permissions && data.permissions.rules) || [];
      const list = data.servers || [];
      const bad = (data.permissions && data.permissions.refused) || [];
      rules.body.replaceChildren(...perms.map(ruleRow));
      servers.body.replaceChildren(...list.map(serverRow));
      rules.t.hidden = perms.length === 0;
      servers.t.hidden = list.length === 0;
      refused.replaceChildren(...bad.map((r) => el('li', {}, `Not in force: ${r.verdict} `, el('code', { text: r.rule }),
        ` in ${r.origin} would loosen the policy; remove it.`)));
      refused.hidden = bad.length === 0;
      const none = [];
      if (perms.length === 0) none.push('No permission rules: each agent keeps its own defaults.');
      if (list.length === 0) none.push('No MCP servers declared.');
      status.textContent = none.join(' ');
    } catch (err) {
      if (err.status === 401) { onFatal(err); return; }
      status.textContent = `Could not read the permissions and servers: ${err.message}`;
    }
  };
  return { load };
}
