// src/dom.ts
function e(e, n = {}, ...r) {
	let i = document.createElement(e);
	for (let [e, t] of Object.entries(n)) e === "class" ? i.className = String(t) : e === "title" ? i.title = String(t) : e === "onclick" ? i.addEventListener("click", t) : e.startsWith("data-") && i.setAttribute(e, String(t));
	return t(i, r), i;
}
function t(e, t) {
	for (let n of t) n != null && n !== !1 && e.appendChild(typeof n == "string" || typeof n == "number" ? document.createTextNode(String(n)) : n);
}
function n(n, r, i) {
	let a = e("details", n, e("summary", {}, ...r)), o = () => {
		a.removeEventListener("toggle", o), t(a, i());
	};
	return a.addEventListener("toggle", o), a;
}
function r(e) {
	for (; e.firstChild;) e.removeChild(e.firstChild);
	return e;
}
function i(e, t, n, r, i = (e) => e) {
	let a = document.createElement("select");
	return a.setAttribute("aria-label", n), a.append(o(e, n, i)), a.value = t, a.addEventListener("change", () => r(a.value)), a;
}
function a(e, t, n = (e) => e) {
	let r = e.value;
	e.replaceChildren(o(t, e.getAttribute("aria-label") ?? "", n)), e.value = r;
}
function o(e, t, n) {
	let r = document.createDocumentFragment();
	for (let i of ["", ...e]) {
		let e = document.createElement("option");
		e.value = i, e.textContent = i ? n(i) : `all ${t}`, r.appendChild(e);
	}
	return r;
}
function s(e) {
	return e.documentElement.hasAttribute("data-symdebug-opens-frames");
}
function c(e, t) {
	e.dispatchEvent(new CustomEvent("symdebug-open-frame", {
		detail: t,
		bubbles: !0
	}));
}
var l = [
	"filename",
	"lineno",
	"name",
	"line"
], u = { guards: ["user_stack", "framework_stack"] }, d = [
	"guards",
	"symbols",
	"specializations",
	"recompiles",
	"explanations",
	"graph_breaks"
], f = {
	compiles: ["recompile_reasons"],
	recompiles: ["reasons", "failed_entries"]
};
// src/model.ts
function ee(e) {
	if (!("packed" in e)) return e;
	let t = { ...e.session }, n = [
		...d,
		...Object.keys(f),
		...Object.keys(u)
	], r = /* @__PURE__ */ new Set([...e.tables, ...n]), i = h(() => e.frames.map(p));
	for (let n of r) m(t, n, () => g(e, n, i));
	return t;
}
function p(e) {
	let t = {};
	for (let n = 0; n < l.length; n++) t[l[n]] = e[n];
	return t;
}
function m(e, t, n) {
	let r = (n) => Object.defineProperty(e, t, {
		value: n,
		writable: !0,
		enumerable: !0,
		configurable: !0
	});
	Object.defineProperty(e, t, {
		enumerable: !0,
		configurable: !0,
		get: () => {
			let e = n();
			return r(e), e;
		},
		set: r
	});
}
function h(e) {
	let t;
	return () => (t ??= { value: e() }, t.value);
}
function g(e, t, n) {
	let r = e.session[t], i = e.tables.includes(t) ? ie(r) : (r ?? []).map((e) => ({ ...e }));
	if (d.includes(t)) for (let t of i) _(t, e);
	for (let n of f[t] ?? []) for (let t of i) t[n] = v(t[n], e.text_lists);
	for (let e of u[t] ?? []) for (let t of i) t[e] = te(t[e], n());
	return i;
}
function _(e, t) {
	typeof e.fix == "number" && (e.fix = t.fixes[e.fix]), e.fixes = e.fixes.map((e) => t.fix_objects[e]);
}
function te(e, t) {
	return e.map((e) => t[e]);
}
function v(e, t) {
	let n = [];
	for (let r = e; r !== -1; r = t.cells[r][1]) n.push(t.texts[t.cells[r][0]]);
	return n;
}
function y(e) {
	return e.verified === null ? "not tried" : e.verified ? "verified" : "failed";
}
function ne(e) {
	let t = e.replace(/\n$/, "").split("\n"), n = !t.some((e) => e.startsWith("@@"));
	return t.map((e) => (e.startsWith("@@") && (n = !0), {
		kind: re(e, n),
		text: e
	}));
}
function re(e, t) {
	return e.startsWith("@@") ? "hunk" : t ? e.startsWith("+") ? "add" : e.startsWith("-") ? "del" : "context" : "file";
}
function ie(e) {
	let { columns: t, rows: n } = e;
	return n.map((e) => {
		let n = {};
		for (let r = 0; r < t.length; r++) n[t[r]] = e[r];
		return n;
	});
}
function ae(e, t) {
	let n = (t.text ?? "").toLowerCase();
	return e.filter((e) => (!t.cause || e.cause === t.cause) && (!t.status || e.status === t.status) && (!t.compile || e.compile_id === t.compile) && (!t.phase || e.phase === t.phase) && (!n || se(e).includes(n)));
}
var oe = /* @__PURE__ */ new WeakMap();
function se(e) {
	let t = oe.get(e);
	if (t !== void 0) return t;
	let n = e.user_stack[e.user_stack.length - 1], r = n ? `${n.filename}:${n.lineno} ${n.line}` : "", i = [
		e.expr,
		e.user_expr ?? "",
		e.fx_node ?? "",
		e.sources.join(" "),
		r
	].join(" ").toLowerCase();
	return oe.set(e, i), i;
}
function ce(e, t, n = !1) {
	let r = x(e, (e) => e[t]), i = /* @__PURE__ */ new Map();
	for (let e = 0; e < r.length; e++) {
		let t = e > 0 && b(r[e - 1], r[e]) === 0;
		i.set(r[e], t ? i.get(r[e - 1]) ?? e : e);
	}
	let a = n ? -1 : 1;
	return e.map((e) => ({
		g: e,
		r: i.get(e[t]) ?? 0
	})).sort((e, t) => a * (e.r - t.r)).map(({ g: e }) => e);
}
var le = new Intl.Collator(void 0, { numeric: !0 });
function b(e, t) {
	return le.compare(e, t);
}
function x(e, t) {
	return [...new Set(e.map(t))].sort((e, t) => b(e, t));
}
function ue(e) {
	let t = /* @__PURE__ */ new Map();
	for (let n of e.compiles) {
		let e = n.callee?.filename ? n.callee : null, r = t.get(n.frame_id) ?? {
			frameId: n.frame_id,
			name: n.callee?.qualname || n.name,
			filename: e ? e.filename : n.filename,
			lineno: e ? e.lineno : n.lineno,
			compiles: []
		};
		r.compiles.push(n), t.set(n.frame_id, r);
	}
	return [...t.values()];
}
var de = /* @__PURE__ */ new WeakMap();
function fe(e) {
	let t = de.get(e.explanations) ?? x(e.explanations, (e) => e.source);
	return de.set(e.explanations, t), t;
}
function pe(e, t) {
	return O(e.explanations, "source", [t]);
}
function me(e, t) {
	return pe(e, t).at(-1);
}
function S(e, t) {
	let n = O(e.compiles, "compile_id", [t])[0];
	if (!n) return `compile ${t}`;
	let r = n.generation ? `@${n.generation}` : "", i = n.filename ? `, ${n.filename}:${n.lineno}` : "";
	return `${n.callee?.qualname || n.name} (frame ${n.frame_id}${r}${i})`;
}
function he(e) {
	let t = /* @__PURE__ */ new Map(), n = /* @__PURE__ */ new Map();
	for (let r of e.compiles) {
		let e = t.get(r.name) ?? [];
		e.includes(r.frame_id) || e.push(r.frame_id), t.set(r.name, e), n.set(r.frame_id, r.compile_id);
	}
	return [...t].flatMap(([t, r]) => r.length === 1 ? [{
		value: t,
		label: t
	}] : [...r].sort((e, t) => t - e).map((t) => ({
		value: String(t),
		label: S(e, n.get(t) ?? "")
	})));
}
function ge(e) {
	let [t, ...n] = decodeURIComponent(e.replace(/^#/, "")).split("=");
	return n.length ? {
		pane: t,
		id: n.join("=")
	} : { pane: t || "overview" };
}
function C(e) {
	return `#${e.id === void 0 ? e.pane : `${e.pane}=${encodeURIComponent(e.id)}`}`;
}
function _e(e, t, n, r, i = 10) {
	return [Math.max(0, Math.floor(e / n) - i), Math.min(r, Math.ceil((e + t) / n) + i)];
}
function ve(e, t) {
	return t && t !== e ? `${t} (${e})` : e;
}
function w(e) {
	return e.sources.map((t, n) => ve(t, e.user_names?.[n])).join(", ");
}
function ye(e) {
	return e.user_expr && e.user_expr !== e.expr ? `${e.user_expr}  (torch: ${e.expr})` : e.expr;
}
var be = /* @__PURE__ */ new WeakMap();
function T(e, t, n) {
	let r = be.get(e);
	return r || (r = new Map(e.map((e) => [t(e), e])), be.set(e, r)), r.get(n);
}
function E(e, t) {
	return t === null ? void 0 : T(e.guards, (e) => e.id, t);
}
function xe(e, t, n) {
	return T(e.symbols, (e) => `${e.compile_id}|${e.name}`, `${t}|${n}`);
}
function Se(e, t) {
	return t === null ? void 0 : T(e.specializations, (e) => `${e.compile_id}|${e.source}`, t);
}
function D(e, t) {
	return t.symbols.map((n) => {
		let r = xe(e, t.compile_id, n);
		return r?.sources.length ? `${n} = ${w(r)}` : n;
	});
}
function Ce(e, t) {
	return O(e.recompiles, "compile_id", t);
}
function we(e, t) {
	return O(e.recompiles, "compile_id", [t])[0];
}
function Te(e, t) {
	return O(e.graph_breaks ?? [], "compile_id", t);
}
var Ee = /* @__PURE__ */ new WeakMap();
function O(e, t, n) {
	let r = Ee.get(e) ?? /* @__PURE__ */ new Map();
	Ee.set(e, r);
	let i = r.get(t) ?? De(e, t);
	return r.set(t, i), [...n].flatMap((e) => i.get(e) ?? []).sort((e, t) => e - t).map((t) => e[t]);
}
function De(e, t) {
	let n = /* @__PURE__ */ new Map();
	return e.forEach((e, r) => {
		let i = n.get(e[t]);
		i ? i.push(r) : n.set(e[t], [r]);
	}), n;
}
function Oe(e) {
	return x([...e.compiles, ...e.guards], (e) => e.compile_id);
}
function ke(e, t) {
	return e.symbols.filter((e) => e.compile_id === t && !e.expected);
}
function Ae(e) {
	let t = e.state === "dynamic" || e.state === "unbacked" ? e.name : String(e.hint ?? e.name);
	return `${w(e)} = ${t}  ${e.state}${e.cause ? ` (${e.cause})` : ""}`;
}
function je(e) {
	let t = /* @__PURE__ */ new Map();
	for (let n of e.explanations) {
		let e = t.get(n.source) ?? /* @__PURE__ */ new Set();
		for (let t of n.recompiles) e.add(t);
		t.set(n.source, e);
	}
	let n;
	for (let r of fe(e)) (n === void 0 || (t.get(r)?.size ?? 0) > (t.get(n)?.size ?? 0)) && (n = r);
	return n;
}
// src/sorting.ts
function Me(e, t) {
	return typeof e == "number" && typeof t == "number" ? e - t : b(String(e), String(t));
}
function k(e, t, n) {
	let r = e.map((e, t) => ({
		item: e,
		index: t
	})), i = t.column;
	if (i === null) return r;
	let a = t.descending ? -1 : 1;
	return r.sort((e, t) => a * Me(n(e.item, i), n(t.item, i)) || e.index - t.index);
}
function A(e, t) {
	return {
		column: t,
		descending: e.column === t && !e.descending
	};
}
function j(e, t) {
	return e.column === t ? e.descending ? " ▼" : " ▲" : "";
}
// src/words.ts
function M(e, t) {
	return `${e} ${t}${e === 1 ? "" : "s"}`;
}
function Ne(e) {
	return [
		M(e.compiles.length, "compile"),
		M(e.recompiles.length, "recompile"),
		M(e.guards.length, "guard")
	].join(", ");
}
// src/diffmodel.ts
var Pe = [
	"title",
	"filename",
	"status",
	"compiles_before",
	"compiles_after",
	"change",
	"regressed"
];
function Fe(e) {
	return e.regressions.length > 0;
}
function Ie(e) {
	let t = e.compiles_after - e.compiles_before;
	return t > 0 ? `+${t}` : String(t);
}
function Le(e, t) {
	switch (t) {
		case "change": return e.compiles_after - e.compiles_before;
		case "regressed": return +!!Fe(e);
		default: return e[t];
	}
}
function Re(e, t) {
	return k(e, t, Le);
}
var ze = [
	[
		"recompiles_added",
		"recompile",
		"added",
		"recompiles added"
	],
	[
		"recompiles_removed",
		"recompile",
		"removed",
		"recompiles removed"
	],
	[
		"specializations_added",
		"specialization",
		"added",
		"specializations added"
	],
	[
		"specializations_removed",
		"specialization",
		"removed",
		"specializations removed"
	],
	[
		"specializations_changed",
		"specialization",
		"changed",
		"specializations with another cause"
	],
	[
		"graph_breaks_added",
		"graph_break",
		"added",
		"graph breaks added"
	],
	[
		"graph_breaks_removed",
		"graph_break",
		"removed",
		"graph breaks removed"
	]
];
function Be(e) {
	return ze.map(([t, n, r, i]) => ({
		list: t,
		kind: n,
		change: r,
		label: i,
		items: e[t] ?? []
	})).filter((e) => e.items.length > 0);
}
function Ve(e) {
	return e.user_name && e.source && e.user_name !== e.source ? `${e.user_name} (${e.source})` : e.user_name || e.source;
}
function He(e) {
	return [
		M(e.compiles, "compile"),
		M(e.recompiles, "recompile"),
		M(e.graph_breaks, "graph break")
	].join(", ");
}
function Ue(e) {
	return Object.entries(e.problems).map(([e, t]) => `${e} ${t}`).join(", ");
}
function We(e) {
	return e.rank === null ? "the two runs" : `rank ${e.rank}`;
}
function Ge(e) {
	return e.rank === null ? "pair" : String(e.rank);
}
// src/pane.ts
function N(t, n, r = `${t.filename}:${t.lineno}`) {
	let i = n.openFrame;
	return i ? e("button", {
		class: "frame-link",
		title: `open ${t.filename} at line ${t.lineno}`,
		"data-frame": `${t.filename}:${t.lineno}`,
		onclick: (e) => {
			e.stopPropagation(), i(t);
		}
	}, r) : e("code", {}, r);
}
function P(t) {
	return !t.user_expr || t.user_expr === t.expr ? [t.expr] : [
		e("span", { class: "user-expr" }, t.user_expr),
		" ",
		e("span", { class: "muted" }, `(torch: ${t.expr})`)
	];
}
// src/diff.ts
var Ke = "\n.sd .verdict { font-weight: 600; padding: 1px 8px; }\n.sd .badge.regressed { background: #ffebe9; color: #a40e26; } .sd .badge.ok { background: #dafbe1; color: #116329; }\n.sd .sides { display: flex; gap: 12px; flex-wrap: wrap; margin: 6px 0; }\n.sd .side { flex: 1 1 280px; min-width: 0; border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 10px; }\n.sd .side h4 { margin: 0 0 4px; }\n.sd .run { margin: 12px 0 20px; }\n.sd .run h2 { font-size: 15px; margin: 8px 0; }\n.sd .frames-scroll { overflow-x: auto; }\n.sd .frame-detail { margin-top: 10px; padding-top: 6px; border-top: 1px solid #d0d7de; }\n.sd .frame-detail h3 { margin: 4px 0; }\n.sd tr.row.regressed td { background: #fff1f0; }\n.sd tr.row.regressed:hover td, .sd tr.row.regressed.on td { background: #ffd8d3; }\n.sd td.count { text-align: right; font-variant-numeric: tabular-nums; }\n.sd .status { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 11px; background: #eaeef2; }\n.sd .status.added { background: #dafbe1; } .sd .status.removed { background: #ffebe9; }\n.sd .item { margin: 6px 0 12px; padding-left: 8px; border-left: 3px solid #d0d7de; }\n.sd .item[data-change=added] { border-left-color: #cf222e; } .sd .item[data-change=removed] { border-left-color: #1a7f37; }\n.sd .item[data-change=changed] { border-left-color: #9a6700; }\n.sd .item pre { margin: 4px 0; white-space: pre-wrap; }\n.sd .notes { color: #656d76; }\n";
function qe(e, n, r) {
	e.setAttribute("data-view", "diff"), t(e, [Ye(n), Xe(n.notes, "diff")]), n.runs.forEach((t, n) => {
		e.appendChild(Ze(t, n, r));
	});
}
function Je(t) {
	return e("span", {
		class: `badge verdict ${t ? "regressed" : "ok"}`,
		"data-regressed": String(t)
	}, t ? "REGRESSED" : "no regression");
}
function Ye(t) {
	return e("header", { "data-diff-header": "" }, e("h1", {}, "symdebug diff"), e("span", {}, e("code", { "data-label": "before" }, t.before), " → ", e("code", { "data-label": "after" }, t.after)), Je(t.regressed));
}
function Xe(t, n) {
	return t.length ? e("ul", {
		class: "notes",
		"data-notes": n
	}, ...t.map((t) => e("li", {}, t))) : null;
}
function Ze(n, r, i) {
	let a = e("section", {
		class: "run",
		"data-run": Ge(n),
		"data-regressed": String(n.regressed)
	}), o = {
		sort: {
			column: null,
			descending: !1
		},
		selected: null
	}, s = () => {
		a.replaceChildren(), t(a, Qe(n, r, o, c, i));
	}, c = (e) => {
		o = {
			...o,
			...e
		}, s();
	};
	return s(), a;
}
function Qe(t, n, r, i, a) {
	let o = t.frames.length ? [tt(t.frames, r, i), rt(t.frames, r.selected, a)] : [e("p", { class: "muted" }, "no frame compiled on either side")];
	return [
		e("h2", {}, We(t), " ", Je(t.regressed)),
		e("div", { class: "sides" }, $e(t.before, "before"), $e(t.after, "after")),
		e("p", { class: "muted" }, `${t.matched} of ${t.frames.length} frames on both sides`),
		Xe(t.notes, `run ${n}`),
		...o
	];
}
function $e(t, n) {
	let r = Ue(t);
	return e("div", {
		class: "side",
		"data-side": n
	}, e("h4", {}, `${n}: `, e("code", {}, t.label), e("span", { class: "muted" }, ` (${t.kind})`)), e("div", { "data-totals": "" }, He(t)), r ? e("div", {
		class: "problems",
		"data-problems": ""
	}, `problems: ${r}`) : null, t.problem_examples.length ? e("details", {}, e("summary", {}, t.problem_examples.length === 1 ? "1 example" : `${t.problem_examples.length} examples`), ...t.problem_examples.map((t) => e("pre", {}, t))) : null);
}
var et = {
	title: "frame",
	filename: "file",
	status: "status",
	compiles_before: "compiles before",
	compiles_after: "compiles after",
	change: "change",
	regressed: "regressed"
};
function tt(t, n, r) {
	let i = (e) => r({ sort: A(n.sort, e) }), a = e("tr", {}, ...Pe.map((t) => e("th", {
		"data-col": t,
		onclick: () => i(t)
	}, et[t] + j(n.sort, t)))), o = Re(t, n.sort).map(({ item: e, index: t }) => nt(e, t, n.selected === t, () => r({ selected: t })));
	return e("div", { class: "frames-scroll" }, e("table", { class: "frames" }, e("thead", {}, a), e("tbody", {}, ...o)));
}
function nt(t, n, r, i) {
	let a = Fe(t), o = t.regressions.join("; ");
	return e("tr", {
		class: `row${a ? " regressed" : ""}${r ? " on" : ""}`,
		"data-frame-row": String(n),
		"data-status": t.status,
		"data-regressed": String(a),
		onclick: i
	}, e("td", {
		title: t.title,
		"data-col": "title"
	}, t.title), e("td", {
		title: t.filename,
		"data-col": "filename"
	}, t.filename), e("td", { "data-col": "status" }, e("span", { class: `status ${t.status}` }, t.status)), e("td", {
		class: "count",
		"data-col": "compiles_before"
	}, t.compiles_before), e("td", {
		class: "count",
		"data-col": "compiles_after"
	}, t.compiles_after), e("td", {
		class: "count",
		"data-col": "change"
	}, Ie(t)), e("td", {
		title: o,
		"data-col": "regressed"
	}, a ? `REGRESSED: ${o}` : ""));
}
function rt(t, n, r) {
	let i = n === null ? void 0 : t[n];
	return n === null || !i ? e("div", { class: "frame-detail muted" }, "click a frame to see what it gained and lost") : e("div", {
		class: "frame-detail",
		"data-frame-detail": String(n)
	}, ...it(i, r));
}
function it(t, n) {
	let r = Be(t);
	return [
		e("h3", {}, t.title),
		e("p", {}, e("code", {}, t.filename), " ", e("span", { class: `status ${t.status}` }, t.status), `  compiles ${t.compiles_before} → ${t.compiles_after}`),
		t.regressions.length ? e("ul", {
			class: "regressions",
			"data-regressions": ""
		}, ...t.regressions.map((t) => e("li", {}, t))) : null,
		...r.map((e) => at(e, n)),
		r.length ? null : e("p", { class: "muted" }, "no recompile, specialization or graph break added, removed or changed")
	];
}
function at(t, n) {
	return e("div", {
		class: "group",
		"data-group": t.list
	}, e("h4", {}, `${t.label} (${t.items.length})`), ...t.items.map((e) => ot(e, t.change, n)));
}
function ot(t, n, r) {
	let i = Ve(t), a = t.line;
	return e("div", {
		class: "item",
		"data-item-kind": t.kind,
		"data-change": n
	}, e("div", {}, t.cause ? e("span", {
		class: `cause ${t.cause}`,
		"data-cause": t.cause
	}, t.cause) : null, " ", e("code", { "data-item-text": "" }, t.text), t.count === 1 ? null : e("span", {
		class: "muted",
		"data-count": String(t.count)
	}, `  ×${t.count}`)), i ? e("div", { "data-input": "" }, `input: ${i}`) : null, a ? e("div", { "data-user-line": "" }, "user line: ", N(a, r, `${a.filename}:${a.lineno} in ${a.name}`)) : null, a?.line ? e("pre", { class: "code" }, a.line) : null, t.fix ? e("div", { class: "fix" }, e("span", { class: "kind" }, "fix"), e("pre", { class: "fix-code" }, t.fix)) : null);
}
// src/compiler_guards.ts
var st = {
	backward: "a guard the compiler added while building the backward graph (no line of yours): it matters only if a call's size breaks it, then the frame recompiles",
	inductor: "a guard the compiler added while lowering the graph to kernels (Inductor; no line of yours): it matters only if a call's size breaks it, then the frame recompiles"
}, ct = "from cache: no user line (a compile cache replayed this guard's stored expression; capture with its default disable_caches=True traces it afresh, with its line)";
function lt(e) {
	return e.origin === "cache" ? ct : st[e.cause] ?? null;
}
function ut(e) {
	return e.fx_node ? `FX node: ${e.fx_node}${e.fx_node_inferred ? " (inferred)" : ""}` : lt(e) === null ? `no FX node (control flow${e.instruction ? `, ${e.instruction}` : ""})` : null;
}
// src/fixes.ts
function dt(t) {
	let n = y(t), r = e("button", { onclick: () => navigator.clipboard?.writeText(t.code) }, "copy");
	return e("div", {
		class: "fix",
		"data-verified": n
	}, e("div", {}, e("span", { class: `badge ${n.replace(" ", "-")}` }, n), " ", e("span", { class: "kind" }, t.kind), t.effect ? e("span", { class: "effect" }, ` ${t.effect}`) : null, " ", r), e("pre", { class: "fix-code" }, t.code), t.diff ? ft(t.diff) : null, t.explanation ? e("p", { class: "muted" }, t.explanation) : null);
}
function ft(t) {
	return e("pre", { class: "fix-diff" }, ...ne(t).map(({ kind: t, text: n }, r) => e("span", { class: `diff-line ${t}` }, r ? `\n${n}` : n)));
}
function F(t, n = t.length) {
	if (!t.length) return null;
	let r = t.length > 1 ? `fixes (${t.length}, best first)` : "fix", i = t.slice(n), a = i.length ? e("details", {}, e("summary", {}, `${i.length} more ${i.length > 1 ? "fixes" : "fix"}`), ...i.map(dt)) : null;
	return e("div", { class: "fixes" }, e("h4", {}, r), ...t.slice(0, n).map(dt), a);
}
// src/guardrows.ts
var I = /* @__PURE__ */ new WeakMap(), L = /* @__PURE__ */ new WeakMap();
function pt(e, t, n) {
	let r = I.get(e) ?? /* @__PURE__ */ new Map();
	I.set(e, r);
	let i = `${t} ${n}`, a = r.get(i) ?? ce(e, t, n);
	return r.set(i, a), a;
}
function mt(e, t, n, r) {
	return ae(pt(e.guards, n, r), t);
}
function ht(e) {
	let t = L.get(e);
	if (t) return t;
	let n = {
		cause: x(e.guards, (e) => e.cause),
		status: x(e.guards, (e) => e.status),
		compile: Oe(e),
		phase: x(e.guards, (e) => e.phase)
	};
	return L.set(e, n), n;
}
function R(t, n, r, i, a = 0) {
	let o = e("tbody"), s = e("div", { class: "scroll" }, e("table", { class: t }, e("thead", {}, n), o));
	if (r <= a) return o.append(...Array.from({ length: r }, (e, t) => i(t))), s;
	let c = "", l = () => {
		let [e, t] = _e(s.scrollTop, s.clientHeight || 480, 24, r);
		if (`${e}:${t}` === c) return;
		c = `${e}:${t}`;
		let n = Array.from({ length: t - e }, (t, n) => i(e + n));
		o.replaceChildren(z(e * 24), ...n, z((r - t) * 24));
	};
	return s.addEventListener("scroll", l), requestAnimationFrame(l), l(), s;
}
function z(t) {
	let n = e("tr", { class: "spacer" });
	return n.style.height = `${t}px`, n;
}
// src/guards.ts
function gt(t, n, r, a = {}) {
	let o = n.filter, s = (e, t) => i(t, o[e] ?? "", e, (t) => r({ filter: {
		...o,
		[e]: t || void 0
	} })), c = document.createElement("input");
	c.placeholder = "search expr, node, source, line", c.value = o.text ?? "", c.addEventListener("change", () => r({ filter: {
		...o,
		text: c.value || void 0
	} }));
	let l = mt(t, o, n.sort, n.descending), u = ht(t);
	return e("div", {}, e("div", { class: "filters" }, s("cause", u.cause), s("status", u.status), s("compile", u.compile), s("phase", u.phase), c, e("span", {
		class: "muted",
		"data-count": String(l.length)
	}, `${l.length} of ${M(t.guards.length, "guard")}`)), o.compile ? _t(t, o.compile) : null, vt(t, l, n, r, a));
}
function _t(t, n) {
	let r = ke(t, n), i = t.guards.some((e) => e.compile_id === n);
	return e("div", {
		class: "compile-summary",
		"data-compile-summary": n
	}, e("h4", {}, `what ${n} specialized and kept dynamic`), r.length ? e("ul", {}, ...r.map((t) => e("li", {}, e("code", {}, Ae(t))))) : e("p", { class: "muted" }, `the document lists no symbol of ${n}`), i ? null : e("p", {
		class: "muted",
		"data-no-guards": ""
	}, `${n} has no shape guard`));
}
function vt(t, n, r, i, a) {
	let o = (t, n) => e("th", {
		"data-col": t,
		onclick: () => i({
			sort: t,
			descending: r.sort === t && !r.descending
		})
	}, n + (r.sort === t ? r.descending ? " ▼" : " ▲" : ""));
	return R("guards", e("tr", {}, o("compile_id", "compile"), o("expr", "guard"), e("th", {
		"data-col": "symbols",
		title: "each symbol of the guard and the input dimension it stands for"
	}, "symbols"), o("cause", "cause"), o("status", "status"), o("phase", "phase"), e("th", { "data-col": "line" }, "user line")), n.length, (e) => yt(t, n[e], r, i, a));
}
function yt(t, n, r, i, a) {
	let o = n.user_stack[n.user_stack.length - 1], s = o ? `${Ct(o.filename)}:${o.lineno}` : "", c = D(t, n).join("; ");
	return e("tr", {
		class: `row${r.guard === n.id ? " on" : ""}`,
		"data-guard": n.id,
		onclick: () => i({ guard: n.id })
	}, e("td", {}, n.compile_id), e("td", {
		title: ye(n),
		"data-expr": ""
	}, ...P(n)), e("td", {
		title: c,
		"data-symbols": ""
	}, c), e("td", { title: n.cause }, e("span", { class: `cause ${n.cause}` }, n.cause)), e("td", { title: n.status }, n.status), e("td", { title: n.phase }, n.phase), e("td", { title: o?.line ?? "" }, o ? a.openFrame ? N(o, a, s) : s : ""));
}
function bt(t, n, r, i = {}) {
	let a = E(t, n);
	if (!a) return e("div", { class: "muted" }, `no guard ${n}`);
	let o = lt(a), s = (t) => e("ol", {}, ...t.map((t) => e("li", {}, N(t, i, `${t.filename}:${t.lineno} in ${t.name}`), t.line ? e("pre", {}, t.line) : null)));
	return e("div", { "data-detail": a.id }, e("h3", {}, e("code", {}, ...P(a))), e("p", {}, e("span", { class: `cause ${a.cause}` }, a.cause), ` ${a.status}, ${a.phase}, compile ${a.compile_id}`, e("a", { onclick: () => r({
		pane: "guards",
		guard: a.id
	}) }, "")), xt(a), o ? e("p", {
		class: "compiler-note",
		"data-compiler-note": a.cause
	}, o) : null, St(t, a), ...a.user_stack.length ? [e("h4", {}, "user stack"), s(a.user_stack)] : [], a.framework_stack.length ? e("details", {}, e("summary", {}, `framework stack (${a.framework_stack.length})`), s(a.framework_stack)) : null, F(a.fixes), e("p", { class: "muted" }, `link: ${C({
		pane: "guard",
		id: a.id
	})}`));
}
function xt(t) {
	let n = ut(t), r = t.kernel ? `kernel ${t.kernel}` : "";
	return !n && !r ? null : e("p", {}, [n, r].filter(Boolean).join("; "));
}
function St(t, n) {
	if (!n.symbols.length) return null;
	let r = D(t, n).map((t) => e("li", {}, e("code", {}, t)));
	return e("div", { class: "symbols" }, e("h4", {}, "symbols"), e("ul", {}, ...r));
}
function Ct(e) {
	return e.split("/").pop() ?? e;
}
// src/huntmodel.ts
var wt = [
	{
		key: "input",
		label: "input",
		hint: "the input as the user's code writes it (tooltip: Dynamo's name)"
	},
	{
		key: "kind",
		label: "kind",
		hint: "a tensor's size, an int or a float"
	},
	{
		key: "why",
		label: "made a constant by",
		hint: "how it became a constant"
	},
	{
		key: "verdict",
		label: "verdict",
		hint: "needed: the code forces it; avoidable: a replay kept it symbolic"
	},
	{
		key: "compiles",
		label: "compiles saved",
		hint: "the unchanged run's compiles minus the replay's"
	},
	{
		key: "runs",
		label: "before → after",
		hint: "compiles of the unchanged run and of the replay"
	},
	{
		key: "evidence",
		label: "change or cause",
		hint: "avoidable: what kept it symbolic; needed: the line"
	},
	{
		key: "note",
		label: "note",
		hint: "the verdict's evidence, or why it is untested"
	}
];
function Tt(e) {
	return e.hunt ?? [];
}
function Et(e) {
	return e.user_name || e.source;
}
function Dt(e) {
	return e.before || e.after ? `${e.before} → ${e.after}` : "";
}
function Ot(e) {
	if (e.verdict === "avoidable") return e.change;
	if (e.verdict !== "needed") return "";
	let t = e.user_frame, n = t ? ` at ${t.filename}:${t.lineno}` : "";
	return `${e.cause ?? ""}${n}`.trim();
}
function kt(e) {
	return e.outputs_equal === null ? "outputs not compared" : e.outputs_equal ? "the replay's outputs equalled the unchanged run's" : "the replay's outputs differed";
}
function At(e) {
	let t = (t) => e.filter((e) => e.verdict === t).length, n = e.filter((e) => e.verdict === "avoidable").reduce((e, t) => e + t.compiles, 0), r = n === 1 ? "compile" : "compiles";
	return `${t("avoidable")} avoidable (${n} ${r} saved), ${t("needed")} needed, ${t("untested")} untested`;
}
function jt(e, t) {
	switch (t) {
		case "input": return Et(e);
		case "kind": return e.kind;
		case "why": return e.why_constant;
		case "verdict": return e.verdict;
		case "compiles": return e.compiles;
		case "runs": return e.before;
		case "evidence": return Ot(e);
		default: return e.note;
	}
}
function Mt(e, t) {
	return k(e, t, jt);
}
// src/hunt.ts
function Nt(t, n = {}) {
	let r = Tt(t);
	if (!r.length) return e("p", { class: "muted" }, "no overspecialization hunt in this session");
	let i = e("div", { class: "scroll-x" }), a = {
		column: null,
		descending: !1
	}, o = () => {
		i.replaceChildren(Pt(r, a, (e) => {
			a = A(a, e), o();
		}, n));
	};
	return o(), e("div", {}, e("p", { class: "hunt-summary" }, At(r)), i);
}
function Pt(t, n, r, i) {
	let a = e("tr", {}, ...wt.map(({ key: t, label: i, hint: a }) => e("th", {
		"data-col": t,
		title: a,
		onclick: () => r(t)
	}, i + j(n, t)))), o = Mt(t, n).map(({ item: e, index: t }) => Ft(e, t, i));
	return e("table", { class: "hunt" }, e("thead", {}, a), e("tbody", {}, ...o));
}
function Ft(t, n, r) {
	return e("tr", {
		"data-hunt-row": String(n),
		"data-verdict": t.verdict,
		"data-source": t.source
	}, e("td", {
		"data-col": "input",
		title: t.source
	}, e("code", {}, Et(t))), e("td", { "data-col": "kind" }, t.kind), e("td", {
		"data-col": "why",
		title: t.why_constant
	}, t.why_constant), e("td", { "data-col": "verdict" }, It(t)), e("td", {
		"data-col": "compiles",
		class: "count"
	}, t.compiles), e("td", {
		"data-col": "runs",
		class: "count"
	}, Dt(t)), e("td", { "data-col": "evidence" }, ...Lt(t, r)), e("td", {
		"data-col": "note",
		title: t.note
	}, t.note));
}
function It(t) {
	return e("span", {
		class: `verdict ${t.verdict}`,
		title: kt(t)
	}, t.verdict);
}
function Lt(t, n) {
	if (t.verdict === "avoidable") return t.change ? [e("code", { class: "change" }, t.change)] : [];
	if (t.verdict !== "needed") return [];
	let r = t.cause ? [e("span", { class: `cause ${t.cause}` }, t.cause)] : [], i = t.user_frame;
	if (!i) return r;
	let a = i.line ? [e("code", { class: "line" }, i.line)] : [];
	return [
		...r,
		" at ",
		N(i, n),
		...a
	];
}
// src/parts.ts
var Rt = 2, zt = 100, Bt = 10;
function B(e, t, n, r, i) {
	let a = 0;
	for (let o = 0; a < t.length && (a === 0 || o < i); a++) o += r(t[a]), e.append(...n(t[a]));
	let o = !1, s = (r) => {
		if (o ||= e.isConnected, o && !e.isConnected) return;
		let i = performance.now() + Math.max(r.timeRemaining() - Rt, Bt), c = document.createDocumentFragment();
		do
			c.append(...n(t[a++]));
		while (a < t.length && performance.now() < i);
		e.append(c), a < t.length && V(s);
	};
	a < t.length && V(s);
}
function V(e) {
	typeof requestIdleCallback == "function" ? requestIdleCallback(e, { timeout: zt }) : setTimeout(() => e({ timeRemaining: () => 0 }), 0);
}
// src/kernels.ts
function Vt(t) {
	if (!t.kernels.length) return e("p", { class: "muted" }, "no generated kernels were captured (compile with the inductor backend)");
	let n = e("div");
	for (let r of t.graph_code.filter((e) => e.specialized_dims.length)) n.appendChild(e("h3", {}, `baked into ${r.graph} (compile ${r.compile_id})`)), n.appendChild(e("ul", {}, ...r.specialized_dims.map((t) => e("li", {}, `${t.source} = ${t.value} (was ${t.symbol}): ${t.explanation}`))));
	return B(n, t.kernels, (e) => [Ut(e)], () => 1, Ht), n;
}
var Ht = 100;
function Ut(t) {
	let r = t.size_args.map((e) => `${e.param} = ${e.expr} (${e.sources.join(", ")})`).join("; "), i = t.literals.map((e) => `${e.value} (${e.kind})`).join(", ");
	return n({}, [`${t.compile_id} ${t.graph} ${t.name}  `, e("span", { class: "muted" }, r)], () => [e("p", {}, `computes: ${t.nodes.join(", ")}; literals: ${i}`), Wt(t.source)]);
}
function Wt(t) {
	let n = e("pre");
	for (let r of t.split(/(\bks\d+\b|\b\d+L\b)/)) /^ks\d+$/.test(r) ? n.appendChild(e("span", { class: "sym" }, r)) : /^\d+L$/.test(r) ? n.appendChild(e("span", { class: "lit" }, r)) : n.appendChild(document.createTextNode(r));
	return n;
}
// src/overview.ts
var Gt = 100;
function Kt(t, n, r = {}) {
	let i = e("div");
	return B(i, ue(t), (e) => qt(t, e, n, r), (e) => e.compiles.length, Gt), i;
}
function qt(t, n, r, i) {
	let a = {
		filename: n.filename,
		lineno: n.lineno,
		name: n.name,
		line: ""
	}, o = n.compiles[0]?.kind === "export", s = o ? `torch.export.${n.name}` : `frame ${n.name}`, c = new Set(n.compiles.map((e) => e.compile_id));
	return [
		e("h3", {}, `${s}  `, e("span", { class: "muted" }, N(a, i))),
		Jt(t, n, r),
		...n.compiles.filter((e) => o && e.fail_reason).map((t) => e("pre", { class: "export-error" }, t.fail_reason ?? "")),
		...Ce(t, c).map((e) => Yt(t, e, r, i)),
		...Te(t, c).map((e) => $t(e, i))
	];
}
function Jt(t, n, r) {
	let i = e("div", { class: "timeline" });
	return n.compiles.forEach((n, a) => {
		let o = we(t, n.compile_id);
		if (a > 0) {
			let t = o?.reasons.join("\n") ?? "";
			i.appendChild(e("span", {
				class: "arrow",
				title: t
			}, `→ ${o ? o.cause : ""} →`));
		}
		let s = `${n.compile_id}${n.status === "ok" ? "" : ` (${n.status})`}`;
		i.appendChild(e("span", {
			class: `compile ${n.status}`,
			"data-compile": n.compile_id,
			onclick: () => r({
				pane: "guards",
				filter: { compile: n.compile_id },
				guard: void 0
			})
		}, s));
	}), i;
}
function Yt(t, n, r, i = {}) {
	let a = n.failed_entry ? ` (entry ${n.failed_entry} failed)` : "";
	return e("div", {
		class: "recompile",
		"data-recompile": n.compile_id
	}, e("div", {}, e("span", { class: `cause ${n.cause}` }, n.cause), ` compile ${n.compile_id} recompiled${a}`), Zt(t, n, r, i), ...Xt(t, n, i), F(n.fixes, 1), e("details", { class: "reason" }, e("summary", {}, "torch's reason"), e("pre", {}, n.reasons.join("\n"))));
}
function Xt(t, n, r) {
	let i = n.user_frame, a = E(t, n.guard), o = a?.user_stack[a.user_stack.length - 1];
	if (!i || o && o.filename === i.filename && o.lineno === i.lineno) return [];
	let s = e("div", { class: "recompile-line" }, "line: ", N(i, r));
	return i.line ? [s, e("pre", { class: "code" }, i.line)] : [s];
}
function Zt(n, r, i, a) {
	let o = r.sources.map((e, t) => ve(e, r.user_names?.[t] || me(n, e)?.user_name)), s = e("div", { class: "check" }, r.sources.length ? `inputs: ${o.join(", ")}` : ""), c = E(n, r.guard), l = Se(n, r.specialization);
	return c ? t(s, Qt(n, c, i, a)) : l && s.append(`; ${l.source} was the constant ${l.value} in ${l.compile_id}`), s;
}
function Qt(t, n, r, i) {
	let a = n.user_stack[n.user_stack.length - 1], o = D(t, n).filter((e) => e.includes(" = ")), s = ["; failed check ", e("a", {
		class: "guard",
		"data-guard": n.id,
		onclick: () => r({
			pane: "guards",
			guard: n.id
		})
	}, ...P(n))];
	return o.length && s.push(` (${o.join("; ")})`), a && s.push(" at ", N(a, i)), a?.line && s.push(e("pre", { class: "code" }, a.line)), s;
}
function $t(t, n = {}) {
	let r = t.failed ? "the compile failed (the call raised)" : t.skipped ? "frame skipped for good (it runs eagerly, uncompiled)" : `resume frame ${t.resume_frames.join(", ") || "?"} (${t.resume_compiles.join(", ") || "not compiled"})`, i = t.user_frame ? N(t.user_frame, n) : e("code", {}, "(no line of yours in the frame)"), a = t.library_frame ? [" in ", e("span", { class: "library-line" }, N(t.library_frame, n), " (library)")] : [], o = e("div", {
		class: "graph-break",
		"data-compile": t.compile_id
	}, e("span", { class: "cause graph_break" }, "graph break"), " at ", i, ...a, `: ${t.reason} → ${r}`);
	t.expression && o.appendChild(e("div", { class: "data-dependent" }, `data-dependent: torch could not decide ${t.expression}`)), t.user_frame?.line && o.appendChild(e("pre", { class: "code" }, t.user_frame.line));
	for (let n of t.lost) {
		let r = n.marked ? "marked dynamic" : `dynamic (${n.symbol})`;
		o.appendChild(e("div", { class: "lost" }, `lost dynamism: ${n.source} was ${r} in ${t.compile_id}; the resume compile ${n.resume_compile} got ${n.resume_sources.join(", ")} = ${n.value} as a constant`));
	}
	let s = F(t.fixes);
	return s && o.appendChild(s), o;
}
// src/chart.ts
function en(e) {
	let t = (e) => Array.isArray(e) ? e : [], n = e.prediction_held, r = e.predicted_at_call;
	return {
		...typeof e.axis == "string" ? { axis: e.axis } : {},
		x: t(e.x),
		predicted: t(e.predicted),
		actual: t(e.actual),
		recompiled: t(e.recompiled),
		...Array.isArray(n) ? { prediction_held: n } : {},
		...Array.isArray(r) ? { predicted_at_call: r } : {}
	};
}
var tn = "http://www.w3.org/2000/svg", H = 720, nn = 300, U = 96, W = 36, rn = 608, an = 212, G = "#cf222e", on = "#0969da", sn = "#bc4c00", K = "#57606a", cn = "#8c959f";
function q(e, t, n) {
	let r = document.createElementNS(tn, e);
	for (let [e, n] of Object.entries(t)) r.setAttribute(e, String(n));
	return n !== void 0 && (r.textContent = n), r;
}
function J(e, ...t) {
	let n = q("g", e);
	for (let e of t) n.appendChild(e);
	return n;
}
function ln(e) {
	let t = [
		...e.predicted,
		...e.predicted_at_call ?? [],
		...e.actual
	].filter((e) => !!e);
	return [...new Set(t)].sort(b).concat("recompile");
}
function un(e, t, n = 6) {
	if (!(t > e)) return [e];
	let r = (t - e) / Math.max(n - 1, 1), i = 10 ** Math.floor(Math.log10(r)), a = ([
		1,
		2,
		5,
		10
	].find((e) => e * i >= r) ?? 10) * i, o = [];
	for (let n = Math.ceil(e / a) * a; n <= t + a * 1e-9; n += a) o.push(Number(n.toPrecision(12)));
	return o;
}
function dn(e) {
	if (e.x.every((e) => typeof e == "number")) {
		let t = e.x, [n, r] = [Math.min(...t), Math.max(...t)], i = (e) => 108 + (r > n ? (e - n) / (r - n) * 584 : rn / 2);
		return {
			at: (e) => i(t[e]),
			ticks: un(n, r).map((e) => [i(e), String(e)])
		};
	}
	let t = e.x.length, n = (e) => U + (e + .5) / Math.max(t, 1) * rn, r = Math.max(1, Math.ceil(t / 8));
	return {
		at: n,
		ticks: e.x.flatMap((e, t) => t % r === 0 ? [[n(t), String(e)]] : [])
	};
}
function fn(e) {
	let t = 188 / Math.max(e.length - 1, 1);
	return (n) => 48 + (e.length - 1 - e.indexOf(n ?? "recompile")) * t;
}
function pn(e, t) {
	let n = e.ticks.map(([e, t]) => J({ class: "tick" }, q("line", {
		x1: e,
		x2: e,
		y1: 248,
		y2: 252,
		stroke: K
	}), q("text", {
		x: e,
		y: 264,
		"font-size": 11,
		"text-anchor": "middle"
	}, t)));
	return J({ "data-axis": "x" }, q("line", {
		x1: U,
		x2: 704,
		y1: 248,
		y2: 248,
		stroke: K
	}), ...n, q("text", {
		x: 400,
		y: 292,
		"font-size": 12,
		"text-anchor": "middle"
	}, t));
}
function mn(e, t) {
	let n = e.map((e) => J({ class: "tick" }, q("line", {
		x1: 92,
		x2: 704,
		y1: t(e),
		y2: t(e),
		stroke: "#eaeef2"
	}), q("text", {
		x: 88,
		y: t(e) + 4,
		"font-size": 11,
		"text-anchor": "end"
	}, e)));
	return J({ "data-axis": "y" }, q("line", {
		x1: U,
		x2: U,
		y1: W,
		y2: 248,
		stroke: K
	}), ...n, q("text", {
		transform: "translate(14 142) rotate(-90)",
		"font-size": 12,
		"text-anchor": "middle"
	}, "cache entry that serves"));
}
function Y(e, t, n = 4) {
	return q("path", {
		d: `M${e - n},${t - n}L${e + n},${t + n}M${e - n},${t + n}L${e + n},${t - n}`,
		stroke: sn,
		"stroke-width": 1.5
	});
}
function hn() {
	let e = [
		[q("circle", {
			cx: 6,
			cy: -4,
			r: 4,
			fill: "none",
			stroke: on
		}), "predicted entry"],
		[Y(6, -4), "entry that served (re-run)"],
		[q("line", {
			x1: 6,
			x2: 6,
			y1: -10,
			y2: 2,
			stroke: G,
			"stroke-width": 2
		}), "recompiled"],
		[q("circle", {
			cx: 6,
			cy: -4,
			r: 2,
			fill: cn
		}), "predicted before the sweep"],
		[q("circle", {
			cx: 6,
			cy: -4,
			r: 6,
			fill: "none",
			stroke: G
		}), "missed"]
	], t = [
		0,
		115,
		290,
		370,
		548
	];
	return J({
		"data-legend": "",
		transform: `translate(${U} 16)`
	}, ...e.map(([e, n], r) => J({ transform: `translate(${t[r]} 0)` }, e, q("text", {
		x: 16,
		y: 0,
		"font-size": 11
	}, n))));
}
function X(e, t) {
	let n = e.predicted_at_call?.[t];
	return e.prediction_held?.[t] !== void 0 && e.prediction_held?.[t] !== null && n !== void 0 ? n : e.predicted[t];
}
function gn(e, t) {
	let n = e.predicted[t];
	return n === X(e, t) ? void 0 : n;
}
function _n(e, t) {
	return e.prediction_held?.[t] === !1;
}
function vn(e, t) {
	let n = X(e, t) ?? "a recompile", r = gn(e, t), i = r === void 0 ? "" : ` (before the sweep: ${r ?? "a recompile"})`, a = e.actual[t], o = a === void 0 ? "not re-run" : `served by ${a ?? "eager (no entry)"}`, s = e.recompiled[t] ? "; recompiled" : "", c = _n(e, t) ? "; prediction missed" : "";
	return `${e.axis ?? "point"} = ${String(e.x[t])}: predicted ${n}${i}; ${o}${s}${c}`;
}
function yn() {
	return J({
		"data-tooltip": "",
		visibility: "hidden",
		"pointer-events": "none"
	}, q("rect", {
		rx: 4,
		fill: "#1f2328",
		"fill-opacity": .9,
		height: 22
	}), q("text", {
		"font-size": 11,
		fill: "white",
		x: 6,
		y: 15
	}));
}
function bn(e, t, n, r) {
	let [i, a] = [e.firstChild, e.lastChild];
	a.textContent = t;
	let o = a.getComputedTextLength() + 12;
	i.setAttribute("width", String(o));
	let s = Math.min(Math.max(n - o / 2, 0), H - o);
	e.setAttribute("transform", `translate(${s} ${Math.max(r - 30, 0)})`), e.setAttribute("visibility", "visible");
}
function xn(e, t, n, r) {
	let i = J({
		class: "point",
		"data-point": t
	});
	e.recompiled[t] && i.appendChild(q("line", {
		x1: n,
		x2: n,
		y1: W,
		y2: 248,
		stroke: G,
		"stroke-opacity": .4
	}));
	let a = gn(e, t);
	a !== void 0 && i.appendChild(q("circle", {
		cx: n,
		cy: r(a),
		r: 2,
		fill: cn,
		"data-earlier": ""
	}));
	let o = r(X(e, t));
	i.appendChild(q("circle", {
		cx: n,
		cy: o,
		r: 4,
		fill: "none",
		stroke: on,
		"data-predicted": ""
	})), _n(e, t) && i.appendChild(q("circle", {
		cx: n,
		cy: o,
		r: 7,
		fill: "none",
		stroke: G,
		"data-missed": ""
	}));
	let s = e.actual[t];
	s != null && i.appendChild(Y(n, r(s)));
	let c = q("rect", {
		x: n - 6,
		y: W,
		width: 12,
		height: an,
		fill: "transparent"
	});
	return c.appendChild(q("title", {}, vn(e, t))), i.appendChild(c), i;
}
function Sn(e) {
	let t = ln(e), n = fn(t), r = dn(e), i = q("svg", {
		width: H,
		height: nn,
		viewBox: `0 0 ${H} ${nn}`,
		"data-chart": "sweep"
	});
	i.append(pn(r, e.axis ?? "point"), mn(t, n), hn());
	let a = yn();
	return e.x.forEach((t, o) => {
		let s = xn(e, o, r.at(o), n);
		s.addEventListener("mouseenter", () => bn(a, vn(e, o), r.at(o), n(X(e, o)))), s.addEventListener("mouseleave", () => a.setAttribute("visibility", "hidden")), i.appendChild(s);
	}), i.appendChild(a), i;
}
// src/sizes.ts
function Cn(t) {
	let n = t.sweeps.map(en);
	if (!n.length) return e("p", { class: "muted" }, "no sweep in this session: run session.sweep(...) to add one");
	let r = e("div");
	for (let t of n) {
		let n = t.prediction_held?.filter((e) => e === !1).length ?? 0, i = t.axis === "runs" ? `${t.x.length} re-runs` : `${t.x.length} sizes of ${t.axis ?? "?"}`, a = t.recompiled.filter(Boolean).length;
		r.appendChild(e("p", {}, `${i}; ${M(a, "recompile")}; prediction missed ${n}`)), r.appendChild(e("div", { class: "chart" }, Sn(t)));
	}
	return r;
}
// src/styles.ts
var wn = "\n.sd { font: 13px/1.45 system-ui, -apple-system, \"Segoe UI\", sans-serif; color: #1f2328; overflow-wrap: anywhere; }\n.sd header { display: flex; gap: 16px; align-items: baseline; padding: 8px 0; border-bottom: 1px solid #d0d7de; }\n.sd header h1 { font-size: 16px; margin: 0; }\n.sd .muted { color: #656d76; }\n.sd nav { display: flex; gap: 4px; margin: 8px 0; }\n.sd nav button { border: 1px solid #d0d7de; background: #f6f8fa; padding: 4px 10px; border-radius: 6px; cursor: pointer; }\n.sd nav button.on { background: #0969da; color: white; border-color: #0969da; }\n.sd .main { display: flex; gap: 12px; align-items: flex-start; }\n.sd .pane { flex: 1; min-width: 0; }\n.sd .detail { flex: 0 0 min(36%, 480px); min-width: 0; box-sizing: border-box; border-left: 1px solid #d0d7de; padding-left: 12px; }\n.sd .detail pre { white-space: pre-wrap; }\n.sd table { border-collapse: collapse; width: 100%; }\n.sd th, .sd td { text-align: left; padding: 2px 6px; border-bottom: 1px solid #eaeef2; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 420px; }\n.sd table.guards { table-layout: fixed; min-width: 760px; }\n.sd table.guards th[data-col=compile_id] { width: 74px; } .sd table.guards th[data-col=symbols] { width: 18%; }\n.sd table.guards th[data-col=cause] { width: 118px; } .sd table.guards th[data-col=status] { width: 68px; }\n.sd table.guards th[data-col=phase] { width: 64px; } .sd table.guards th[data-col=line] { width: 92px; }\n.sd table.guards .cause { max-width: 100%; box-sizing: border-box; overflow: hidden; text-overflow: ellipsis; vertical-align: middle; }\n.sd th { cursor: pointer; background: #f6f8fa; position: sticky; top: 0; }\n.sd tr.row { cursor: pointer; height: 24px; }\n.sd .scroll tr.expected { height: 24px; }\n.sd tr.row:hover, .sd tr.row.on { background: #ddf4ff; }\n.sd .scroll { max-height: max(320px, calc(100vh - 170px)); overflow: auto; border: 1px solid #eaeef2; }\n.sd .compile-summary ul { margin: 4px 0 8px; }\n.sd .filters { display: flex; gap: 6px; margin-bottom: 6px; flex-wrap: wrap; }\n.sd code, .sd pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }\n.sd pre { background: #f6f8fa; padding: 8px; overflow-x: auto; border-radius: 6px; }\n.sd .cause { display: inline-block; padding: 0 6px; border-radius: 10px; background: #eaeef2; font-size: 11px; }\n.sd .cause.user_branch { background: #fff8c5; } .sd .cause.op_requirement { background: #ddf4ff; }\n.sd .cause.int_specialized, .sd .cause.static_by_default { background: #ffebe9; }\n.sd .cause.zero_one, .sd .cause.duck_sizing { background: #fbefff; }\n.sd .cause.inductor, .sd .cause.backward { background: #dafbe1; }\n.sd .cause.graph_break { background: #ffd8b5; } .sd .graph-break { margin: 6px 0 10px; }\n.sd .timeline { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin: 4px 0 12px; }\n.sd .compile { border: 1px solid #d0d7de; border-radius: 6px; padding: 2px 8px; cursor: pointer; }\n.sd .compile.failed { border-color: #cf222e; color: #cf222e; }\n.sd .arrow { color: #656d76; max-width: 360px; font-size: 12px; }\n.sd .steps li { margin: 4px 0; }\n.sd .steps .guard { cursor: pointer; text-decoration: underline dotted; }\n.sd .sym { background: #ddf4ff; } .sd .lit { background: #ffebe9; }\n.sd .problems { color: #9a6700; }\n.sd .fix { margin: 6px 0 10px; }\n.sd .fix pre { margin: 4px 0; white-space: pre-wrap; overflow-x: visible; }\n.sd .fixes { min-width: 0; max-width: 100%; }\n.sd .recompile { margin: 6px 0 14px; padding-left: 8px; border-left: 3px solid #d0d7de; }\n.sd .recompile .check { margin: 2px 0; }\n.sd .recompile .guard { cursor: pointer; text-decoration: underline dotted; }\n.sd .recompile .reason pre { white-space: pre-wrap; }\n.sd .chart svg { max-width: 100%; height: auto; }\n.sd .fix .kind { color: #656d76; font-size: 11px; }\n.sd .badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 11px; background: #eaeef2; }\n.sd .badge.verified { background: #dafbe1; color: #116329; } .sd .badge.failed { background: #ffebe9; color: #a40e26; }\n.sd .fix pre.fix-diff { background: #fff; border: 1px solid #d0d7de; }\n.sd .fix-diff .add { background: #dafbe1; color: #116329; }\n.sd .fix-diff .del { background: #ffebe9; color: #a40e26; } .sd .fix-diff .hunk { color: #8250df; }\n.sd .fix-diff .file { color: #656d76; }\n.sd .hunt-summary { font-weight: 600; }\n.sd table.hunt td.count { text-align: right; font-variant-numeric: tabular-nums; }\n.sd table.hunt td[data-col=evidence], .sd table.hunt td[data-col=note] { white-space: normal; }\n.sd table.hunt code.line { display: block; white-space: pre-wrap; }\n.sd .verdict { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 11px; background: #eaeef2; }\n.sd .verdict.avoidable { background: #dafbe1; color: #116329; } .sd .verdict.needed { background: #ddf4ff; color: #0550ae; }\n.sd .verdict.untested { background: #eaeef2; color: #656d76; }\n.sd .frame-link { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; border: 0; padding: 0; background: none; color: #0969da; cursor: pointer; text-decoration: underline; }\n", Tn = [
	["compiles", "compiles"],
	["recompiles", "recompiles"],
	["graph_breaks", "graph breaks"]
];
function Z(e) {
	return e.user_name || e.source;
}
function En(e) {
	return x(e.flatMap((e) => Object.keys(e.causes)), (e) => e);
}
function Dn(e) {
	return x(e.flatMap((e) => e.specializations), Z);
}
function On(e) {
	let t = e.some((e) => e.error !== null);
	return [
		{
			key: "name",
			label: "workload",
			kind: "name"
		},
		...Tn.map(([e, t]) => ({
			key: e,
			label: t,
			kind: "count"
		})),
		...En(e).map((e) => ({
			key: `cause:${e}`,
			label: e,
			kind: "cause"
		})),
		...Dn(e).map((e) => ({
			key: `dim:${e}`,
			label: e,
			kind: "dim"
		})),
		...t ? [{
			key: "error",
			label: "error",
			kind: "error"
		}] : []
	];
}
function kn(e, t) {
	return e.specializations.filter((e) => Z(e) === t);
}
function An(e, t) {
	let n = kn(e, t);
	return {
		text: [...new Set(n.map((e) => e.cause))].join(", "),
		title: n.map(jn).join("\n")
	};
}
function jn(e) {
	let t = e.user_name && e.user_name !== e.source ? ` (${e.source})` : "", n = e.line ? ` at ${e.line}` : "", r = e.code ? `: ${e.code}` : "";
	return `${e.frame}: ${Z(e)}${t} = ${e.values.join(", ")} (${e.cause})${n}${r}`;
}
function Q(e, t) {
	switch (t.kind) {
		case "name": return e.name;
		case "count": return String(e[t.key]);
		case "cause": return String(e.causes[t.key.slice(6)] ?? "");
		case "dim": return An(e, t.key.slice(4)).text;
		default: return e.error ?? "";
	}
}
function Mn(e, t) {
	let n = Q(e, t);
	return t.kind === "count" || t.kind === "cause" ? n === "" ? 0 : Number(n) : n;
}
function Nn(e, t) {
	return k(e, t, Mn);
}
var Pn = /^[^/?#]*:/, Fn = /[\u0000-\u001f\u007f]/;
function In(e) {
	return !e || Fn.test(e) || /^\s/.test(e) || e.startsWith("/") || e.includes("\\") || Pn.test(e) ? null : e;
}
// src/suite.ts
var Ln = "\n.sd table.suite td.count { text-align: right; font-variant-numeric: tabular-nums; }\n.sd table.suite tr.failed td { background: #ffebe9; }\n.sd table.suite td.error { color: #a40e26; white-space: pre-wrap; max-width: 480px; }\n.sd table.suite td.dim { cursor: help; }\n.sd table.suite td.hit { background: #fff1c2; font-weight: 600; }\n.sd table.suite td.dim.hit { background: #ffe2cc; }\n.sd table.suite tr.groups th { background: #eaeef2; cursor: default; text-align: center; }\n", Rn = {
	name: "",
	count: "totals",
	cause: "recompiles by cause",
	dim: "inputs made constants (why)",
	error: ""
};
function zn(t, n) {
	t.setAttribute("data-view", "suite");
	let r = On(n.workloads), i = e("div", { class: "scroll-x" }), a = {
		column: null,
		descending: !1
	}, o = () => {
		i.replaceChildren(Vn(n.workloads, r, a, (e) => {
			a = A(a, e), o();
		}));
	};
	o(), t.append(Bn(n), i);
}
function Bn(t) {
	let n = t.workloads.filter((e) => e.error !== null).length;
	return e("header", {}, e("h1", {}, "symdebug suite"), e("span", {}, `${t.workloads.length} workloads${n ? `, ${n} did not finish` : ""}`), e("span", {
		class: "muted",
		"data-torch": t.torch
	}, `torch ${t.torch || "(unknown)"}`));
}
function Vn(t, n, r, i) {
	let a = e("tr", {}, ...n.map((t) => e("th", {
		"data-col": t.key,
		title: Un(t),
		onclick: () => i(t)
	}, t.label + j(r, t)))), o = Nn(t, r).map(({ item: e, index: t }) => Wn(e, t, n));
	return e("table", { class: "suite" }, e("thead", {}, Hn(n), a), e("tbody", {}, ...o));
}
function Hn(t) {
	let n = [], r = 0;
	for (; r < t.length;) {
		let i = t[r].kind, a = 1;
		for (; r + a < t.length && t[r + a].kind === i;) a++;
		let o = e("th", { "data-group": i }, Rn[i]);
		o.colSpan = a, n.push(o), r += a;
	}
	return e("tr", { class: "groups" }, ...n);
}
function Un(e) {
	return e.kind === "cause" ? `recompiles caused by ${e.label} (click to sort)` : e.kind === "dim" ? `why ${e.label} became a constant; a cell's tooltip has its values and line` : `${e.label} (click to sort)`;
}
function Wn(t, n, r) {
	let i = t.error !== null;
	return e("tr", {
		class: i ? "failed" : "",
		"data-workload-row": String(n),
		"data-workload": t.name,
		"data-error": String(i)
	}, ...r.map((e) => Gn(t, e)));
}
function Gn(t, n) {
	switch (n.kind) {
		case "name": return e("td", { "data-col": n.key }, Kn(t));
		case "dim": {
			let { text: r, title: i } = An(t, n.key.slice(4));
			return e("td", {
				class: r ? "dim hit" : "dim",
				title: i,
				"data-col": n.key
			}, r);
		}
		case "cause": {
			let r = Q(t, n);
			return e("td", {
				class: r ? "count hit" : "count",
				"data-col": n.key
			}, r);
		}
		case "error": return e("td", {
			class: "error",
			"data-col": n.key
		}, Q(t, n));
		default: return e("td", {
			class: "count",
			"data-col": n.key
		}, Q(t, n));
	}
}
function Kn(t) {
	let n = In(t.report);
	if (n === null) return e("span", { "data-report": "none" }, t.name);
	let r = e("a", { "data-report": n }, t.name);
	return r.setAttribute("href", n), r;
}
// src/symbols.ts
function qn(e) {
	if (!e.origin) return "";
	let t = e.user_frame ? ` at ${e.user_frame.filename}:${e.user_frame.lineno}` : "", n = e.runtime_asserts?.length ? `; runtime asserts: ${e.runtime_asserts.join(", ")}` : "";
	return `${e.origin}${t}${n}`;
}
function Jn(t) {
	return t.compiles.flatMap((t) => (t.expected_constants ?? []).map((n) => () => e("tr", { class: "expected" }, e("td", {}, t.compile_id), e("td", {}, "—"), e("td", {}, n))));
}
var Yn = 500;
function Xn(t, n) {
	let r = t.symbols.filter((e) => !e.expected), i = Jn(t), a = (e) => e < r.length ? Zn(r[e], n) : i[e - r.length]();
	return R("symbols", e("tr", {}, ...[
		"compile",
		"symbol",
		"sources",
		"origin",
		"hint",
		"range",
		"state",
		"cause"
	].map((t) => e("th", {}, t))), r.length + i.length, a, Yn);
}
function Zn(t, n) {
	let r = t.range ? `[${t.range[0]}, ${t.range[1]}]` : "";
	return e("tr", {
		class: "row",
		onclick: () => n({
			pane: "why",
			source: t.sources[0]
		})
	}, e("td", {}, t.compile_id), e("td", {}, t.name), e("td", {}, w(t)), e("td", {}, qn(t)), e("td", {}, t.hint ?? ""), e("td", {}, r), e("td", {}, t.state), e("td", {}, t.cause ? e("span", { class: `cause ${t.cause}` }, t.cause) : ""));
}
// src/why.ts
var Qn = 20;
function $n(t, r, i, a = {}) {
	let o = r.source ?? je(t) ?? "", s = pe(t, o), c = s.at(-1), l = e("div", {}, er(t, s.length ? o : "", i), c && s.length > 1 ? e("p", { class: "frame-of" }, `in ${S(t, c.compile_id)}`) : null, tr(c?.steps ?? [], i, a), F(c?.fixes ?? []));
	return B(l, s.slice(0, -1), (e) => [n({ class: "other-frame" }, [`also in ${S(t, e.compile_id)}`], () => [tr(e.steps, i, a), F(e.fixes)])], () => 1, Qn), l;
}
function er(e, t, n) {
	let r = (t) => {
		let n = me(e, t)?.user_name;
		return n ? `${n} (${t})` : t;
	}, o = i(t ? [t] : [], t, "source", (e) => n({ source: e }), r);
	return V(() => a(o, fe(e), r)), o;
}
function tr(t, n, r) {
	return e("ol", { class: "steps" }, ...t.filter((e) => e.kind !== "fix").map((t) => e("li", { "data-kind": t.kind }, nr(t, n, r))));
}
function nr(t, n, r) {
	let i = t.guard;
	return i === null ? t.kind === "fix" ? e("pre", {}, t.text) : t.frame !== null && r.openFrame ? e("span", {}, N(t.frame, r), `  ${t.frame.line}`) : t.text : e("span", {
		class: "guard",
		"data-guard": i,
		onclick: () => n({
			pane: "guards",
			guard: i
		})
	}, t.text);
}
// src/index.ts
var rr = [
	"overview",
	"symbols",
	"guards",
	"why",
	"kernels",
	"sizes",
	"hunt"
];
function ir(e) {
	let t = ge(e), n = {
		pane: "overview",
		filter: {},
		sort: "compile_id",
		descending: !1
	};
	return t.pane === "guard" ? {
		...n,
		pane: "guards",
		guard: t.id
	} : t.pane === "why" || t.pane === "symbol" ? {
		...n,
		pane: "why",
		source: t.id
	} : t.pane === "compile" ? {
		...n,
		pane: "guards",
		filter: { compile: t.id }
	} : rr.includes(t.pane) ? {
		...n,
		pane: t.pane
	} : n;
}
function ar(e, t, n = {}) {
	"diff_version" in t ? qe($(e, Ke), t, n) : "suite_version" in t ? zn($(e, Ln), t) : or($(e), t, n);
}
function $(t, n = "") {
	let i = e("div", { class: "sd" }), a = document.createElement("style");
	return a.textContent = wn + n, r(t).append(a, i), i;
}
function or(t, n, r) {
	let i = ee(n), a = r.deepLinks ?? !0, o = ir(a && typeof location < "u" ? location.hash : ""), s = (e) => {
		o = {
			...o,
			...e
		}, a && typeof history < "u" && history.replaceState(null, "", sr(o)), c();
	}, c = () => {
		let n = e("div", {
			class: "pane",
			"data-pane": o.pane
		}, lr(i, o, s, r));
		t.replaceChildren(ur(i), dr(i, o, s), e("div", { class: "main" }, n, cr(i, o, s, r)));
	};
	c();
}
function sr(e) {
	return e.pane === "guards" && e.guard ? C({
		pane: "guard",
		id: e.guard
	}) : C({ pane: e.pane });
}
function cr(t, n, r, i) {
	return n.pane !== "guards" || !n.guard ? null : e("div", {
		class: "detail",
		"data-detail-of": "guards"
	}, bt(t, n.guard, r, i));
}
function lr(e, t, n, r) {
	switch (t.pane) {
		case "symbols": return Xn(e, n);
		case "guards": return gt(e, t, n, r);
		case "why": return $n(e, t, n, r);
		case "kernels": return Vt(e);
		case "sizes": return Cn(e);
		case "hunt": return Nt(e, r);
		default: return Kt(e, n, r);
	}
}
function ur(t) {
	let n = Object.entries(t.problems).map(([e, t]) => `${e} ${t}`).join(", ");
	return e("header", {}, e("h1", {}, "symdebug"), e("span", { class: "muted" }, t.source), e("span", {}, Ne(t)), n ? e("span", { class: "problems" }, `problems: ${n}`) : null);
}
function dr(t, n, r) {
	return e("nav", {}, ...rr.filter((e) => e !== "hunt" || Tt(t).length).map((t) => e("button", {
		class: n.pane === t ? "on" : "",
		"data-tab": t,
		onclick: () => r({ pane: t })
	}, t)));
}
// src/patch.ts
function fr(e, t) {
	let n = e;
	for (let e of t) n = pr(n, e);
	return n;
}
function pr(e, t) {
	if (!t.path.length) return t.value;
	let n = { ...e }, r = n;
	for (let e of t.path.slice(0, -1)) r[e] = { ...r[e] }, r = r[e];
	let i = t.path[t.path.length - 1];
	return r[i] = t.op === "append" ? [...r[i], ...t.items ?? []] : t.value, n;
}
// src/widget.ts
function mr(e) {
	if (s(e.ownerDocument)) return (t) => c(e, t);
}
var hr = { render({ model: t, el: n }) {
	let r = e("div"), i = e("pre", {
		class: "results",
		"data-results": ""
	}), a = e("div", {
		class: "error",
		"data-error": ""
	}), o = document.createElement("select");
	o.setAttribute("aria-label", "frame");
	let s = document.createElement("input");
	s.setAttribute("aria-label", "sizes"), s.placeholder = "arguments as JSON: [[17, 64], 3]  (a list of ints is a shape)", s.size = 48;
	let c = 0, l = (e) => {
		c += 1, t.set("request", {
			action: e,
			frame: o.value,
			args: s.value,
			id: c
		}), t.save_changes();
	}, u = e("div", { class: "controls" }, o, s, e("button", {
		"data-action": "predict",
		onclick: () => l("predict")
	}, "Predict"), e("button", {
		"data-action": "run",
		onclick: () => l("run")
	}, "Run")), d = e("button", {
		"data-action": "verify",
		onclick: () => l("verify")
	}, "Verify fixes"), f = e("button", {
		"data-action": "hunt",
		onclick: () => l("hunt")
	}, "Hunt"), p = () => {
		d.hidden = !t.get("can_verify"), f.hidden = !t.get("can_verify");
	};
	u.append(d, f);
	let m = null, h = 0, g = 0, _ = () => {
		let e = String(t.get("session_json") || "{}");
		e !== "{}" && (m = JSON.parse(e), h = Number(t.get("base_revision") ?? 0), v(), Number(t.get("revision") ?? 0) > h && t.send({ type: "resend" }));
	}, te = (e) => {
		let n = e;
		if (n?.type === "patch" && m !== null) {
			if (n.from !== h) return t.send({ type: "resend" });
			m = fr(m, JSON.parse(n.operations)), h = n.from + 1, g += 1, v();
		}
	}, v = () => {
		if (m === null) return;
		n.dataset.revision = String(h), n.dataset.patches = String(g);
		let e = ee(m);
		o.replaceChildren(...he(e).map((e) => {
			let t = document.createElement("option");
			return t.value = e.value, t.textContent = e.label, t;
		})), ar(r, e, {
			deepLinks: !1,
			openFrame: mr(n)
		});
	}, y = () => {
		let e = t.get("results") ?? [];
		i.textContent = e.map((e) => `[${e.id}] ${e.action}: ${e.text}`).join("\n");
	};
	t.on("change:session_json", _), t.on("msg:custom", te), t.on("change:results", y), t.on("change:can_verify", p), t.on("change:error", () => {
		a.textContent = String(t.get("error") ?? "");
	}), n.replaceChildren(u, a, i, r), _(), y(), p();
} };
export { hr as default, mr as frameOpener };
