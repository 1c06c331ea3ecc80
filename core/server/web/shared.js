// The shared-write dialog: a write would pass through a link agent-switch
// shares between profiles. Two choices only; nothing is sent on Cancel.

import { $, pathCode } from './dom.js';

// confirmSharedWrite shows the dialog for a 409 shared_write error and
// resolves true for "Write (affects all profiles)", false for Cancel
// (Escape included).
export function confirmSharedWrite(error) {
  const dialog = $('shared-dialog');
  // A link above the file is a shared folder: everything in it is shared.
  const folder = error.sharedKind === 'dir';
  $('shared-title').textContent = folder ? 'This folder is shared by all profiles' : 'This file is shared by all profiles';
  $('shared-path-label').textContent = folder ? 'Shared folder:' : 'Shared file:';
  $('shared-path').replaceChildren(pathCode(error.sharedPath || ''));
  $('shared-hint').textContent = error.hint || 'agent-switch share off';
  const back = document.activeElement;
  dialog.returnValue = 'cancel';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      if (back && back.isConnected) back.focus();
      resolve(dialog.returnValue === 'write');
    }, { once: true });
    dialog.showModal();
    $('shared-cancel').focus();
  });
}
