// Minimal HTML for the consent and error pages a browser sees during OAuth.
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1c1e21}
fieldset{border:1px solid #ddd;border-radius:8px;margin:1rem 0}label{display:block;margin:.3rem 0}
button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.5rem;border-radius:6px;border:1px solid #888}
.allow{background:#1877f2;color:#fff;border-color:#1877f2}.note{color:#65676b;font-size:.9rem}</style>
</head><body>
${body}
</body></html>`;
}
