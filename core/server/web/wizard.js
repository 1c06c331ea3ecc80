// The setup step: where settings live, and the one tooling row. The row
// only shows a command to copy; nothing here ever installs anything.

import { request, ApiError } from './api.js';
import { confirmSharedWrite } from './shared.js';
import { $, el } from './dom.js';

const SOURCES = { flag: 'set by --config-root', env: 'set by AGENTKIT_CONFIG_HOME', default: 'default' };
const SCOPES = {
  profile: 'this profile’s own settings',
  global: 'used wherever no agent-switch profile is active',
  host: 'a config root chosen by the host',
};

export function showFacts(ping) {
  const p = ping.switcherProfile || {};
  const rows = [
    ['Profile', p.active ? `${p.provider}/${p.profile} (agent-switch)` : 'none active'],
    ['Scope', ping.scope.kind, false, SCOPES[ping.scope.kind]],
    ['Settings folder', ping.scope.path, true],
    ['Config root', `${ping.configRoot.path}`, true, SOURCES[ping.configRoot.source] || ping.configRoot.source],
  ];
  $('facts').replaceChildren(...rows.flatMap(([term, value, code, note]) => [
    el('dt', { text: term }),
    el('dd', {}, code ? el('code', { text: value }) : value, note ? el('span', { class: 'muted', text: ` (${note})` }) : null),
  ]));
}

export async function loadTooling() {
  const status = $('tooling-status');
  let d;
  try {
    ({ data: d } = await request('GET', 'wizard/detect-agent-switch'));
  } catch (err) {
    status.textContent = `Could not check for agent-switch: ${err.message}`;
    return;
  }
  const show = !d.installed && !d.dismissed;
  $('tool-list').hidden = !show;
  if (show) {
    status.hidden = true;
    $('install-command').textContent = d.installCommand || '';
    $('companion-repo').href = d.repo;
  } else {
    status.hidden = false;
    status.textContent = d.installed
      ? `agent-switch${d.version ? ` ${d.version}` : ''} is installed. Nothing else to set up.`
      : 'Nothing to set up.';
  }
}

// note says what the last action on the row did.
function note(text, error = false) {
  const n = $('copy-status');
  n.textContent = text;
  n.classList.toggle('is-error', error);
}

// copy puts the command on the clipboard or, where the browser refuses,
// selects it so that the user can copy it by hand.
async function copy() {
  const code = $('install-command');
  try {
    await navigator.clipboard.writeText(code.textContent);
    note('Copied to the clipboard.');
  } catch {
    const range = document.createRange();
    range.selectNodeContents(code);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    note('Selected: press Ctrl+C (⌘C) to copy.');
  }
}

async function dismiss(confirm = false) {
  const btn = $('dismiss-companion');
  btn.disabled = true;
  try {
    await request('POST', 'wizard/dismiss-recommendation', { body: { id: 'agent-switch', confirmSharedWrite: confirm } });
    $('tool-list').hidden = true;
    const status = $('tooling-status');
    status.hidden = false;
    status.textContent = 'Hidden. charter will not recommend agent-switch again.';
    status.focus();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code !== 'shared_write') {
      note(`Could not hide it: ${err.message}`, true);
    } else if (await confirmSharedWrite(err.error)) {
      return await dismiss(true); // the button stays disabled until it is done
    }
  } finally {
    btn.disabled = false;
  }
}

export function initWizard() {
  $('copy-command').addEventListener('click', copy);
  $('dismiss-companion').addEventListener('click', () => dismiss());
}
