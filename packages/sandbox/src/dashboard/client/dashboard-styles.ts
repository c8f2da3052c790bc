/**
 * The dashboard's one stylesheet: system fonts, light and dark schemes, visible keyboard focus,
 * and a single column with tables turned into stacked cards below 48rem (phones).
 */
export const dashboardStyles = `
:root {
  color-scheme: light dark;
  --bg: #f7f7f8; --fg: #1b1b1f; --muted: #5d5d66; --line: #d9d9de; --panel: #fff;
  --accent: #2952cc; --ok: #1a7f37; --warn: #9a6700; --bad: #c62828; --new: #fff5cc;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
@media (prefers-color-scheme: dark) {
  :root { --bg: #151518; --fg: #ececf1; --muted: #a0a0ab; --line: #34343b; --panel: #1e1e23;
    --accent: #8fa8ff; --ok: #56d364; --warn: #e3b341; --bad: #ff7b72; --new: #3a3413; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
a { color: var(--accent); }
code, pre, small code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; overflow-wrap: anywhere; }
small { color: var(--muted); }
h1 { font-size: 1.5rem; margin: 0.5rem 0 1rem; overflow-wrap: anywhere; }
h1 small { font-size: 0.9rem; font-weight: normal; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; }
h3 { font-size: 1rem; margin: 1rem 0 0.5rem; }
h4 { font-size: 0.95rem; margin: 0 0 0.5rem; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
h1:focus { outline: none; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.skip-link { position: absolute; left: 0.5rem; top: -3rem; background: var(--panel); padding: 0.5rem; z-index: 1; }
.skip-link:focus { top: 0.5rem; }
.muted { color: var(--muted); }
.error { color: var(--bad); }
.top { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; padding: 0.6rem 1rem; background: var(--panel); border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; text-decoration: none; color: var(--fg); }
.views { display: flex; gap: 0.8rem; }
.views a[aria-current="page"] { font-weight: 600; text-decoration: none; }
.warnings { margin: 0; padding-left: 1.1rem; }
.warnings li + li { margin-top: 0.3rem; }
.live { font-size: 0.85rem; color: var(--ok); }
.live-error { color: var(--bad); }
.sign-out { margin-left: auto; display: flex; gap: 0.5rem; align-items: center; }
.account { font-size: 0.9rem; overflow-wrap: anywhere; }
main { display: block; max-width: 72rem; margin: 0 auto; padding: 1rem; }
button, .button { font: inherit; padding: 0.45rem 0.9rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: var(--panel); cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: transparent; color: var(--accent); }
button:disabled { opacity: 0.55; cursor: default; }
input, select { font: inherit; padding: 0.4rem 0.5rem; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); width: 100%; min-width: 0; }
input[type="checkbox"] { width: auto; }
.sign-in { max-width: 26rem; }
.sign-in form { display: grid; gap: 0.4rem; margin-top: 1rem; }
.sign-in button { margin-top: 0.8rem; justify-self: start; }
.filter-panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 0.6rem 0.9rem; margin-bottom: 1rem; }
.filter-panel > summary, .types > summary { cursor: pointer; font-weight: 600; }
.filters { display: grid; gap: 0.8rem; margin-top: 0.8rem; }
.types { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.7rem; }
.types fieldset { border: 0; padding: 0; margin: 0.5rem 0 0; display: flex; flex-wrap: wrap; gap: 0.2rem 1rem; }
.types legend { font-weight: 600; text-transform: capitalize; padding: 0; }
.check { white-space: nowrap; }
.field-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0.6rem 1rem; }
.field { display: grid; gap: 0.2rem; }
.field > span { font-weight: 600; font-size: 0.9rem; }
fieldset.metadata { border: 1px solid var(--line); border-radius: 6px; display: grid; gap: 0.5rem; }
.metadata-row { display: grid; grid-template-columns: 1fr 1fr; gap: 0.6rem; }
.metadata-row .field > span { font-weight: normal; }
fieldset.metadata > button { justify-self: start; }
.actions { display: flex; flex-wrap: wrap; gap: 0.6rem; align-items: center; }
table { width: 100%; border-collapse: collapse; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; }
th, td { text-align: left; padding: 0.5rem 0.6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 0.85rem; color: var(--muted); }
td small { display: block; }
td .metadata:empty { display: none; }
tr.new { background: var(--new); }
.amount { white-space: nowrap; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; font-size: 0.78rem; padding: 0.05rem 0.45rem; border-radius: 999px; border: 1px solid currentColor; white-space: nowrap; }
.badge-delivered { color: var(--ok); }
.badge-failing, .badge-pending { color: var(--warn); }
.badge-exhausted { color: var(--bad); }
.badge-none, .badge-dismissed { color: var(--muted); }
.badge-dismissed { margin-left: 0.4rem; }
.pagination { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0.5rem; margin: 1rem 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.3rem 1rem; margin: 0 0 1rem; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.action-result { min-height: 1.5em; }
.action-result.ok { color: var(--ok); }
.action-result.error { color: var(--bad); }
.json { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 0.8rem; overflow: auto; max-height: 36rem; white-space: pre; }
.failure code { margin-right: 0.2rem; }
.cards { list-style: none; padding: 0; margin: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(18rem, 1fr)); gap: 0.8rem; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 0.8rem; }
.card .facts { margin: 0; }
.customer-action { margin-top: 0.7rem; padding-top: 0.6rem; border-top: 1px dashed var(--line); }
.customer-action h5 { margin: 0 0 0.4rem; font-size: 0.9rem; }
.customer-action .actions { margin-top: 0.6rem; }
.timeline { list-style: none; margin: 0; padding: 0 0 0 1rem; border-left: 2px solid var(--line); }
.timeline-item { position: relative; padding: 0 0 1rem 0.8rem; display: grid; gap: 0.15rem; }
.timeline-item::before { content: ""; position: absolute; left: -1.45rem; top: 0.35rem; width: 0.7rem; height: 0.7rem; border-radius: 50%; background: var(--accent); }
.family-payment::before { background: var(--ok); }
.family-refund::before, .family-reversal::before { background: var(--warn); }
.family-dispute::before { background: var(--bad); }
.timeline-head { display: flex; flex-wrap: wrap; gap: 0.2rem 0.6rem; align-items: baseline; }
@media (max-width: 48rem) {
  main { padding: 0.75rem; }
  .sign-out { margin-left: 0; width: 100%; justify-content: space-between; }
  table.events, table.events tbody, table.events tr, table.events td,
  table.requests, table.requests tbody, table.requests tr, table.requests td { display: block; }
  table.events thead, table.requests thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.events, table.requests { border: 0; background: transparent; }
  table.events tr, table.requests tr { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; margin-bottom: 0.6rem; padding: 0.3rem 0; }
  table.events tr.new { background: var(--new); }
  table.events td, table.requests td { border: 0; position: relative; padding: 0.2rem 0.7rem 0.2rem 6.5rem; min-height: 1.6rem; overflow-wrap: anywhere; }
  table.events td::before, table.requests td::before { content: attr(data-label); position: absolute; left: 0.7rem; color: var(--muted); font-size: 0.85rem; }
  .metadata-row { grid-template-columns: 1fr; }
  .facts { gap: 0.3rem 0.7rem; }
}
`
