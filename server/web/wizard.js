// The setup step (where settings live, whether the tooling row applies) and
// that one row, on the Settings tab. The row only shows a command to copy;
// nothing here ever installs anything.

import { request, ApiError } from './api.js';
import { confirmSharedWrite } from './shared.js';
import { $, el, copyText } from './dom.js';

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

// The row lives on the first tab, shown while it applies (not installed,
// not dismissed): the one place charter recommends anything. The Setup
// step says where it is, or offers to show it again once dismissed.
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
    $('install-command').textContent = d.installCommand || '';
    $('companion-repo').href = d.repo;
  }
  showState(d.installed ? 'installed' : d.dismissed ? 'dismissed' : 'shown', d.version);
}

// showState says in the Setup step what became of the row.
function showState(state, version) {
  $('undismiss-part').hidden = state !== 'dismissed';
  $('tooling-status').textContent = {
    installed: `agent-switch${version ? ` ${version}` : ''} is installed. Nothing else to set up.`,
    dismissed: 'Nothing to set up: you hid the agent-switch recommendation.',
    shown: 'The agent-switch row is on the Settings tab.',
  }[state];
}

// note says what the last action on the row did.
function note(text, error = false) {
  const n = $('copy-status');
  n.textContent = text;
  n.classList.toggle('is-error', error);
}

async function dismiss(confirm = false) {
  const btn = $('dismiss-companion');
  btn.disabled = true;
  try {
    await request('POST', 'wizard/dismiss-recommendation', { body: { id: 'agent-switch', confirmSharedWrite: confirm } });
    $('tool-list').hidden = true;
    showState('dismissed');
    const n = $('companion-note');
    n.hidden = false;
    n.textContent = 'Hidden. charter will not recommend agent-switch again; Setup can show it again.';
    n.focus();
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

// undismiss brings the row back, as `charter dismiss --undo` does.
async function undismiss(confirm = false) {
  const btn = $('undismiss-companion');
  const status = $('tooling-status');
  btn.disabled = true;
  try {
    await request('POST', 'wizard/undismiss-recommendation', { body: { id: 'agent-switch', confirmSharedWrite: confirm } });
    $('companion-note').hidden = true;
    await loadTooling();
    if (!$('tool-list').hidden) status.textContent = 'Shown again: the agent-switch row is on the Settings tab.';
    status.focus();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code !== 'shared_write') {
      status.textContent = `Could not show it again: ${err.message}`;
    } else if (await confirmSharedWrite(err.error)) {
      return await undismiss(true);
    }
  } finally {
    btn.disabled = false;
  }
}

export function initWizard() {
  $('copy-command').addEventListener('click', async () => note(await copyText($('install-command'))));
  $('dismiss-companion').addEventListener('click', () => dismiss());
  $('undismiss-companion').addEventListener('click', () => undismiss());
}
