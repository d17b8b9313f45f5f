// Styles live in the bundle so the report and the notebook widget look the same.
export const STYLES = `
.sd { font: 13px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; overflow-wrap: anywhere; }
.sd header { display: flex; gap: 16px; align-items: baseline; padding: 8px 0; border-bottom: 1px solid #d0d7de; }
.sd header h1 { font-size: 16px; margin: 0; }
.sd .muted { color: #656d76; }
.sd nav { display: flex; gap: 4px; margin: 8px 0; }
.sd nav button { border: 1px solid #d0d7de; background: #f6f8fa; padding: 4px 10px; border-radius: 6px; cursor: pointer; }
.sd nav button.on { background: #0969da; color: white; border-color: #0969da; }
.sd .main { display: flex; gap: 12px; align-items: flex-start; }
.sd .pane { flex: 1; min-width: 0; }
.sd .detail { flex: 0 0 min(36%, 480px); min-width: 0; box-sizing: border-box; border-left: 1px solid #d0d7de; padding-left: 12px; }
.sd .detail pre { white-space: pre-wrap; }
.sd .scroll-x { overflow-x: auto; max-width: 100%; }
.sd table { border-collapse: collapse; width: 100%; }
.sd th, .sd td { text-align: left; padding: 2px 6px; border-bottom: 1px solid #eaeef2; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 420px; }
.sd table.guards { table-layout: fixed; min-width: 760px; }
.sd table.guards th[data-col=compile_id] { width: 74px; } .sd table.guards th[data-col=symbols] { width: 18%; }
.sd table.guards th[data-col=cause] { width: 118px; } .sd table.guards th[data-col=status] { width: 68px; }
.sd table.guards th[data-col=phase] { width: 64px; } .sd table.guards th[data-col=line] { width: 92px; }
.sd table.guards .cause { max-width: 100%; box-sizing: border-box; overflow: hidden; text-overflow: ellipsis; vertical-align: middle; }
.sd th { cursor: pointer; background: #f6f8fa; position: sticky; top: 0; }
.sd tr.row { cursor: pointer; height: 24px; }
.sd .scroll tr.expected { height: 24px; }
.sd tr.row:hover, .sd tr.row.on { background: #ddf4ff; }
.sd .scroll { max-height: max(320px, calc(100vh - 170px)); overflow: auto; border: 1px solid #eaeef2; }
.sd .compile-summary ul { margin: 4px 0 8px; }
.sd .filters { display: flex; gap: 6px; margin-bottom: 6px; flex-wrap: wrap; }
.sd code, .sd pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.sd pre { background: #f6f8fa; padding: 8px; overflow-x: auto; border-radius: 6px; }
.sd .cause { display: inline-block; padding: 0 6px; border-radius: 10px; background: #eaeef2; font-size: 11px; }
.sd .cause.user_branch { background: #fff8c5; } .sd .cause.op_requirement { background: #ddf4ff; }
.sd .cause.int_specialized { background: #ffebe9; } .sd .cause.static_by_default { background: #e8e1ff; }
.sd .cause.zero_one, .sd .cause.duck_sizing { background: #fbefff; }
.sd .cause.inductor, .sd .cause.backward { background: #dafbe1; }
.sd .cause.graph_break { background: #ffd8b5; } .sd .graph-break { margin: 6px 0 10px; }
.sd .timeline { display: flex; gap: 3px; align-items: center; flex-wrap: wrap; margin: 4px 0 8px; }
.sd .timeline-frame { min-width: 12em; font-weight: 600; margin-right: 6px; }
.sd .compile { border: 1px solid #d0d7de; border-radius: 4px; padding: 2px 6px; cursor: pointer; font-size: 11px; }
.sd .compile.failed { border-color: #cf222e; color: #cf222e; }
.sd .cause.first { background: #fff; border: 1px solid #d0d7de; }
.sd .legend { display: flex; gap: 6px; flex-wrap: wrap; margin: 4px 0 8px; }
.sd .changes .change { border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 10px; margin: 8px 0; }
.sd .change[data-verified=true] { border-color: #1a7f37; }
.sd .change-head { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.sd .change-head .removes { font-weight: 600; }
.sd .change .fix { margin: 4px 0; }
.sd .overview h2, .sd section > h2 { font-size: 14px; margin: 16px 0 4px; }
.sd .frame-details { margin: 4px 0; } .sd .frame-details > summary { cursor: pointer; }
.sd .frame-details > summary h3 { display: inline; font-size: 13px; }
.sd .steps li { margin: 4px 0; }
.sd .steps .guard { cursor: pointer; text-decoration: underline dotted; }
.sd .sym { background: #ddf4ff; } .sd .lit { background: #ffebe9; }
.sd .problems { color: #9a6700; }
.sd .fix { margin: 6px 0 10px; }
.sd .fix pre { margin: 4px 0; white-space: pre-wrap; overflow-x: visible; }
.sd .fixes { min-width: 0; max-width: 100%; }
.sd .recompile { margin: 6px 0 14px; padding-left: 8px; border-left: 3px solid #d0d7de; }
.sd .recompile .check { margin: 2px 0; }
.sd .recompile .guard { cursor: pointer; text-decoration: underline dotted; }
.sd .recompile .reason pre { white-space: pre-wrap; }
.sd .chart svg { max-width: 100%; height: auto; }
.sd .fix .kind { color: #656d76; font-size: 11px; }
.sd .badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 11px; background: #eaeef2; }
.sd .badge.verified { background: #dafbe1; color: #116329; } .sd .badge.failed { background: #ffebe9; color: #a40e26; }
.sd .fix pre.fix-diff { background: #fff; border: 1px solid #d0d7de; }
.sd .fix-diff .add { background: #dafbe1; color: #116329; }
.sd .fix-diff .del { background: #ffebe9; color: #a40e26; } .sd .fix-diff .hunk { color: #8250df; }
.sd .fix-diff .file { color: #656d76; }
.sd .hunt-summary { font-weight: 600; }
.sd table.hunt td.count { text-align: right; font-variant-numeric: tabular-nums; }
.sd table.hunt td[data-col=evidence], .sd table.hunt td[data-col=note] { white-space: normal; }
.sd table.hunt code.line { display: block; white-space: pre-wrap; }
.sd .verdict { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 11px; background: #eaeef2; }
.sd .verdict.avoidable { background: #dafbe1; color: #116329; } .sd .verdict.needed { background: #ddf4ff; color: #0550ae; }
.sd .verdict.untested { background: #eaeef2; color: #656d76; }
.sd .frame-link { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; border: 0; padding: 0; background: none; color: #0969da; cursor: pointer; text-decoration: underline; }
`;
