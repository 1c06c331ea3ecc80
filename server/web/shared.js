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
  // A shared source: other profiles read it through their links.
  const readers = Array.isArray(error.readers) ? error.readers : [];
  $('shared-message').textContent = readers.length > 0
    ? `agent-switch links the profiles ${readers.join(', ')} to this ${folder ? 'folder' : 'file'}, so this change applies to every one of them, not just this one.`
    : 'This change would be written through a link that agent-switch shares between profiles, so it applies to every profile, not just this one.';
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
