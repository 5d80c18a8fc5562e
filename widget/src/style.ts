/**
 * Widget CSS, scoped by the shadow root. Colours come from the theme as custom properties:
 * pb/pf/pbo accept, db/df/dbo decline, bb/bf/bbo other buttons, wb/wf/wl/wbo window, ib/if/ibb/ibf blocker.
 */
export const CSS =
  '.r,.f{font:clamp(14px,1em,18px)/1.5 serif;font-family:inherit;color:var(--wf);text-align:left}' +
  '.r{position:fixed;z-index:2147483646;inset:auto 0 0}' +
  '.o{position:fixed;inset:0;background:#0009}' +
  '.b{position:relative;background:var(--wb);border:1px solid var(--wbo);box-shadow:0 4px 24px #0005;padding:20px 24px;max-height:85vh;overflow:auto;box-sizing:border-box;margin:0 auto;max-width:960px}' +
  '.top{inset:0 0 auto}.center{inset:0;display:grid;place-items:center}.center .b{width:min(640px,94vw)}' +
  '.bottomleft,.bottomright{inset:auto auto 16px 16px;width:min(440px,94vw)}.bottomright{inset:auto 16px 16px auto}' +
  'h2{font-size:1em;margin:0 0 8px}h3{font-size:1.05em;margin:16px 0 4px}p{margin:8px 0}' +
  'a{color:var(--wl)}.l a{margin-right:12px}' +
  'button{font:inherit;font-weight:700;cursor:pointer;padding:10px 18px;border-radius:6px;border:2px solid var(--bbo);background:var(--bb);color:var(--bf);margin:4px 8px 4px 0}' +
  '.a{background:var(--pb);color:var(--pf);border-color:var(--pbo)}.d{background:var(--db);color:var(--df);border-color:var(--dbo)}' +
  '.k{border:0;background:none;color:var(--wl);text-decoration:underline;padding:4px}' +
  '.x{position:absolute;top:8px;right:8px;padding:4px 10px}' +
  '.n{display:flex;flex-wrap:wrap;margin-top:12px}' +
  ':focus-visible{outline:3px solid var(--wl);outline-offset:2px}' +
  '.g{display:flex;gap:8px;align-items:center;font-weight:700}.g input{width:20px;height:20px;accent-color:var(--pb)}' +
  '.switch input{appearance:none;width:40px;height:22px;border-radius:11px;background:var(--wbo);position:relative;cursor:pointer}' +
  '.switch input:before{content:"";position:absolute;top:3px;left:3px;width:16px;height:16px;border-radius:50%;background:#fff}' +
  '.switch input:checked{background:var(--pb)}.switch input:checked:before{left:21px}.switch input:disabled{opacity:.6}' +
  '.p{border-top:1px solid var(--wbo);padding-top:8px}' +
  'details{border:1px solid var(--wbo);border-radius:6px;padding:8px;margin:6px 0}summary{cursor:pointer;font-weight:700}' +
  'dt{font-weight:700}dd{margin:0 0 6px}table{border-collapse:collapse;width:100%;font-size:.9em}th,td{border:1px solid var(--wbo);padding:4px;text-align:left}' +
  '.i{max-height:40px;display:block}.w{opacity:.7}.u code{word-break:break-all}' +
  '.c{position:fixed;left:16px;bottom:16px;z-index:2147483646;border-radius:50%;width:48px;height:48px;padding:0;background:var(--pb);color:var(--pf);border-color:var(--pbo)}.c img{max-width:28px}' +
  '.f{background:var(--ib);color:var(--if);height:100%;box-sizing:border-box;padding:8px 12px;display:flex;flex-direction:column;justify-content:safe center;align-items:center;text-align:center;overflow:auto;font-size:13px}.f p{margin:2px 0}' +
  '.y{background:var(--ibb);color:var(--ibf);border-color:var(--ibb)}' +
  // Phones: a smaller banner; the intro scrolls inside it, the buttons stay 41 px touch targets.
  '@media(max-width:480px){.r{font-size:14px}.b{padding:12px 16px}h2+p{max-height:7em;overflow:auto}.n{margin-top:8px}.n button{flex:auto;padding:8px 12px;margin:2px 6px 2px 0}.l,.w{display:inline-block;margin:4px 12px 0 0}}';

/** The settings icon: a cookie (26 px), in the accept button's text colour. */
export const ICON =
  '<svg viewBox="0 0 24 24" width="26" height="26" fill="currentColor"><path d="M12 2a10 10 0 1 0 10 10 4 4 0 0 1-5-5 4 4 0 0 1-5-5z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="8.5" cy="10" r="1.5"/><circle cx="14" cy="15" r="1.5"/><circle cx="8" cy="15.5" r="1"/></svg>';
