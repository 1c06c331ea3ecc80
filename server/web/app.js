// Boot: token from the fragment, banner from ping, then the settings form,
// the agent files panel and the setup step. Keeps the server alive while
// the tab is in use.

import { readSession, request, beaconShutdown, session } from './api.js';
import { $, pathCode } from './dom.js';
import { SettingsForm } from './settings.js';
import { ApplyPanel } from './apply.js';
import { initGates } from './gates.js';
import { initContent } from './content.js';
import { initSources } from './sources.js';
import { initGovernance } from './governance.js';
import { initWizard, loadTooling, showFacts } from './wizard.js';

const PING_EVERY = 60_000;

function fatal(err) {
  const unauthorized = err.status === 401 || !session.token;
  $('fatal-title').textContent = unauthorized ? 'This page has no valid key' : 'Something went wrong';
  $('fatal-message').textContent = unauthorized
    ? 'Run charter serve --open to open the hub with its key. A page from an earlier run stops working when its server stops.'
    : err.message;
  $('fatal').hidden = false;
  $('app').hidden = true;
}

// banner describes the scope the server actually serves: a host root is
// the host's, whatever profile is active.
function banner(ping) {
  const p = ping.switcherProfile || {};
  const scope = ping.scope || {};
  const kind = scope.kind || 'global';
  const title = $('scope-title');
  const detail = [];
  if (kind === 'host') {
    const root = (ping.configRoot && ping.configRoot.path) || scope.path || '';
    title.replaceChildren('Host root ', pathCode(root), ' — changes here apply to this config root only');
    if (p.active) detail.push(` The agent-switch profile ${p.provider}/${p.profile} is active, but the host chose this root, so its settings apply.`);
  } else if (kind === 'profile') {
    title.replaceChildren(`Profile ${p.provider}/${p.profile} — changes here apply to this profile only`);
  } else {
    title.replaceChildren('Global settings — no agent-switch profile is active');
  }
  $('scope-detail').replaceChildren('Settings folder ', pathCode(scope.path || ''), ...detail);
  // The project's .charter/ files apply over the scope's, so say which one.
  const proj = $('scope-project');
  proj.hidden = !ping.project;
  if (ping.project) {
    proj.replaceChildren('Project ', pathCode(ping.project.path, { id: 'project-path' }),
      ' — its .charter settings apply over these in this project');
  }
  $('scope-banner').dataset.kind = kind;
  $('scope-banner').hidden = false;
  // A source build says "dev": no "v" before a word that is not a version.
  const v = (ping.version || '').replace(/^v/, '');
  $('version').textContent = !v ? '' : v === 'dev' ? 'dev (built from source)' : `v${v}`;
}

// Tabs follow the WAI-ARIA pattern: arrows move between them, Tab leaves.
function initTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  const select = (tab) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      $(t.getAttribute('aria-controls')).hidden = !on;
    }
  };
  for (const [i, tab] of tabs.entries()) {
    tab.addEventListener('click', () => select(tab));
    tab.addEventListener('keydown', (e) => {
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      const next = tabs[(to + tabs.length) % tabs.length];
      select(next);
      next.focus();
    });
  }
  $('goto-settings').addEventListener('click', () => { select(tabs[0]); tabs[0].focus(); });
}

// keepAlive pings while the tab is visible, so that the idle watchdog does
// not stop a server in use. A tab opened by `charter serve --open` owns the
// server and stops it when it goes away.
function keepAlive() {
  const ping = () => {
    if (document.visibilityState === 'visible') request('GET', 'ping').catch(() => {});
  };
  setInterval(ping, PING_EVERY);
  document.addEventListener('visibilitychange', ping);
  if (session.opened) window.addEventListener('pagehide', beaconShutdown);
}

async function boot() {
  readSession();
  initTabs();
  initWizard();
  if (!session.token) {
    fatal({ status: 401 });
    return;
  }
  let ping;
  try {
    ({ data: ping } = await request('GET', 'ping'));
  } catch (err) {
    fatal(err);
    return;
  }
  banner(ping);
  showFacts(ping);
  $('app').hidden = false;
  keepAlive();
  const agents = new ApplyPanel({ onFatal: fatal, project: ping.project });
  const gates = initGates({ onFatal: fatal });
  const form = new SettingsForm({ onFatal: fatal, onSaved: () => { agents.afterSave(); content.load(); shared.load(); gov.load(); gates.refresh(); } });
  // A toggle changes the settings the form shows and the files apply writes.
  const content = initContent({ onFatal: fatal, onChanged: () => { agents.afterSave(); if (form.changes().count === 0) form.reload(); } });
  const shared = initSources({ onFatal: fatal });
  const gov = initGovernance({ onFatal: fatal });
  await Promise.all([form.load(), agents.load(), content.load(), shared.load(), gov.load(), loadTooling(), gates.loaded]);
  document.body.dataset.ready = 'true';
}

boot();
