// The dashboard's one stylesheet and one small script, served by the service itself (no build
// step). The script only enhances: every page works with it blocked (forms post, links link).
export const STYLESHEET = `
:root{--bg:#f6f7f9;--card:#fff;--ink:#1d2330;--muted:#5b6475;--line:#dfe3ea;--brand:#3b5bdb;--brand-ink:#fff;
--ok:#1f7a4d;--ok-bg:#e3f5ec;--warn:#8a5a00;--warn-bg:#fff3d6;--bad:#b42318;--bad-bg:#fde8e6;--info:#1c5d99;--info-bg:#e4effa;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg);line-height:1.5}
*{box-sizing:border-box}body{margin:0}[hidden]{display:none!important}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1.25rem;margin:0 0 1rem}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}dl.facts ul{margin:0;padding-left:1.1rem}
a{color:var(--brand)}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid #8aa4ff;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem 1rem;z-index:10}
header.top{background:#1d2330;color:#fff}header.top .bar{max-width:72rem;margin:0 auto;padding:.6rem 1.25rem;display:flex;gap:1.5rem;align-items:center;flex-wrap:wrap}
header.top .brand{font-weight:700;letter-spacing:.02em;color:#fff;text-decoration:none}
header.top nav ul{display:flex;gap:.25rem;list-style:none;margin:0;padding:0;flex-wrap:wrap}
header.top nav a{color:#d5dbe8;text-decoration:none;padding:.35rem .7rem;border-radius:.4rem;display:inline-block}
header.top nav a:hover{background:#2e3647;color:#fff}header.top nav a[aria-current=page]{background:#3b4558;color:#fff}
header.top .who{margin-left:auto;display:flex;gap:.75rem;align-items:center;font-size:.9rem;color:#b8c0d0}
header.top .who a.reference{color:#d5dbe8}
header.top .who button{background:transparent;border:1px solid #59637a;color:#e6eaf2;padding:.25rem .7rem}
.count{background:#e8590c;color:#fff;border-radius:1rem;padding:0 .45rem;font-size:.8rem;margin-left:.3rem}
main{max-width:72rem;margin:0 auto;padding:1.5rem 1.25rem 4rem}
h1{font-size:1.6rem;margin:.2rem 0 1rem}h2{font-size:1.15rem;margin:0 0 .5rem}h3{font-size:1rem;margin:1rem 0 .4rem}
.lead{color:var(--muted);margin-top:-.5rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:.6rem;padding:1rem 1.25rem;margin:0 0 1rem;box-shadow:0 1px 2px rgba(20,30,50,.04)}
.card header{display:flex;gap:.75rem;align-items:baseline;flex-wrap:wrap;margin-bottom:.5rem}
.muted{color:var(--muted)}.mono,code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.88em}
.content{white-space:pre-wrap;overflow-wrap:anywhere;background:#fafbfc;border:1px solid var(--line);border-radius:.4rem;padding:.75rem;margin:.5rem 0}
.badge{display:inline-block;border-radius:1rem;padding:.05rem .6rem;font-size:.8rem;font-weight:600;background:var(--info-bg);color:var(--info);white-space:nowrap}
.badge-published,.badge-active,.badge-delivered,.badge-approved{background:var(--ok-bg);color:var(--ok)}
.badge-failed,.badge-rejected,.badge-needs_reconnect,.badge-revoked{background:var(--bad-bg);color:var(--bad)}
.badge-pending_approval,.badge-partial,.badge-pending,.badge-sending,.badge-publishing{background:var(--warn-bg);color:var(--warn)}
table{width:100%;border-collapse:collapse;font-size:.93rem}th,td{text-align:left;padding:.45rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}td.wrap{overflow-wrap:anywhere}
form.inline{display:inline}
.actions{display:flex;gap:.75rem;flex-wrap:wrap;align-items:flex-end;margin-top:.75rem}
.actions form.reject{display:flex;gap:.5rem;align-items:flex-end;flex:1 1 24rem;margin-left:auto}.reject .grow{flex:1}.reject textarea{min-height:2.4rem}
button,.button{font:inherit;border-radius:.4rem;border:1px solid var(--line);background:#fff;color:var(--ink);padding:.4rem .9rem;cursor:pointer;text-decoration:none;display:inline-block}
button.primary{background:var(--brand);border-color:var(--brand);color:var(--brand-ink)}button.danger{background:#fff;border-color:#e3a29b;color:var(--bad)}
button:hover{filter:brightness(.96)}
label{display:block;font-weight:600;font-size:.9rem;margin-bottom:.2rem}.field{margin-bottom:.75rem}.check{display:flex;gap:.4rem;align-items:center;font-weight:400}
input[type=text],input[type=url],input[type=email],input[type=number],select,textarea{font:inherit;padding:.4rem .55rem;border:1px solid #c5ccd8;border-radius:.4rem;background:#fff;min-width:14rem}
textarea{width:100%;min-height:3.5rem}
.notice{border-radius:.5rem;padding:.7rem 1rem;margin-bottom:1rem;border:1px solid}
.notice.ok{background:var(--ok-bg);border-color:#a6dcbf;color:#14512f}.notice.bad{background:var(--bad-bg);border-color:#f0b4ad;color:#7a1a12}.notice.info{background:var(--info-bg);border-color:#b5d0ee}
.secret{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}.secret code{background:#1d2330;color:#f1f3f8;padding:.5rem .7rem;border-radius:.4rem;font-size:.95rem;overflow-wrap:anywhere}
.media{display:flex;gap:.5rem;flex-wrap:wrap;margin:.5rem 0}.media img,.media video{max-height:9rem;max-width:14rem;border-radius:.4rem;border:1px solid var(--line);background:#eee}
.targets{display:grid;gap:.5rem;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));margin:.5rem 0}
.target{border:1px solid var(--line);border-radius:.45rem;padding:.5rem .7rem;font-size:.9rem}.target dl{margin:.3rem 0 0;display:grid;grid-template-columns:auto 1fr;gap:.1rem .6rem}
.target dt{color:var(--muted)}.target dd{margin:0;overflow-wrap:anywhere}.warnings{color:var(--warn);margin:.3rem 0 0;padding-left:1.1rem}
.filters{display:flex;gap:.75rem;align-items:flex-end;flex-wrap:wrap;margin-bottom:1rem}.filters .field{margin:0}
.pager{display:flex;justify-content:space-between;margin-top:1rem}
.empty{text-align:center;padding:2.5rem 1rem;color:var(--muted)}
.signin{max-width:34rem;margin:4rem auto}.signin pre{background:#1d2330;color:#f1f3f8;padding:.75rem 1rem;border-radius:.4rem;overflow:auto}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}.actions.tight{margin:0}
caption.caption{text-align:left;padding:0 0 .4rem}
details summary{cursor:pointer;color:var(--brand)}
`;

export const SCRIPT = `
// Progressive enhancement only: confirmations, copy buttons, and switches that submit themselves.
document.addEventListener('submit', (event) => {
  const form = event.target;
  const question = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
  if (question && !window.confirm(question)) event.preventDefault();
});
document.addEventListener('change', (event) => {
  const input = event.target;
  if (input instanceof HTMLInputElement && input.dataset.autosubmit !== undefined && input.form) input.form.requestSubmit();
});
for (const button of document.querySelectorAll('[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copy || '');
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent || '');
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select and copy it by hand';
    }
  });
}
for (const hidden of document.querySelectorAll('[data-js-hide]')) hidden.hidden = true;
`;
