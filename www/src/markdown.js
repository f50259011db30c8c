// Stands in for codemirror-json-schema's markdown renderer (see build.mjs): the schema's
// descriptions are plain sentences with `code` spans, so escape them and keep the spans.
const escape = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderMarkdown(text) {
  return escape(String(text ?? '')).replace(/`([^`]+)`/g, '<code>$1</code>');
}
