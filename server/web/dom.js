// The DOM helpers every module of the hub uses.

// $ finds an element by id.
export const $ = (id) => document.getElementById(id);

// el builds an element: el('p', {class: 'x'}, 'text', child…).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

// pathCode shows a file path as code that wraps after a separator rather
// than inside a name: a <wbr> follows each / and \, and a name of common
// length is kept whole (a browser would also break after its hyphens).
export function pathCode(path, attrs = {}) {
  const parts = String(path).split(/(?<=[\\/])/);
  const name = (part) => (part.length <= 40 ? el('span', { class: 'seg' }, part) : part);
  const nodes = parts.flatMap((part, i) => (i < parts.length - 1 ? [name(part), document.createElement('wbr')] : [name(part)]));
  return el('code', { class: 'path', ...attrs }, ...nodes);
}

// copyText puts a code element's text on the clipboard or, where the
// browser refuses, selects it so that the user can copy it by hand; it
// returns what happened, to say beside the button.
export async function copyText(code) {
  try {
    await navigator.clipboard.writeText(code.textContent);
    return 'Copied to the clipboard.';
  } catch {
    const range = document.createRange();
    range.selectNodeContents(code);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    return 'Selected: press Ctrl+C (⌘C) to copy.';
  }
}
