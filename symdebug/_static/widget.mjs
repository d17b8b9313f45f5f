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
	"graph_breaks",
	"changes"
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
	let r = e.session[t], i = e.tables.includes(t) ? ne(r) : (r ?? []).map((e) => ({ ...e }));
	if (d.includes(t)) for (let t of i) _(t, e);
	for (let n of f[t] ?? []) for (let t of i) t[n] = y(t[n], e.text_lists);
	for (let e of u[t] ?? []) for (let t of i) t[e] = v(t[e], n());
	return i;
}
function _(e, t) {
	typeof e.fix == "number" && (e.fix = t.fixes[e.fix]), e.fixes = e.fixes.map((e) => t.fix_objects[e]);
}
function v(e, t) {
	return e.map((e) => t[e]);
}
function y(e, t) {
	let n = [];
	for (let r = e; r !== -1; r = t.cells[r][1]) n.push(t.texts[t.cells[r][0]]);
	return n;
}
function te(e) {
	return e.verified === null ? "not tried" : e.verified ? "verified" : "failed";
}
function b(e) {
	let t = e.replace(/\n$/, "").split("\n"), n = !t.some((e) => e.startsWith("@@"));
	return t.map((e) => (e.startsWith("@@") && (n = !0), {
		kind: x(e, n),
		text: e
	}));
}
function x(e, t) {
	return e.startsWith("@@") ? "hunk" : t ? e.startsWith("+") ? "add" : e.startsWith("-") ? "del" : "context" : "file";
}
function ne(e) {
	let { columns: t, rows: n } = e;
	return n.map((e) => {
		let n = {};
		for (let r = 0; r < t.length; r++) n[t[r]] = e[r];
		return n;
	});
}
function re(e, t) {
	let n = (t.text ?? "").toLowerCase();
	return e.filter((e) => (!t.cause || e.cause === t.cause) && (!t.status || e.status === t.status) && (!t.compile || e.compile_id === t.compile) && (!t.phase || e.phase === t.phase) && (!n || ae(e).includes(n)));
}
var ie = /* @__PURE__ */ new WeakMap();
function ae(e) {
	let t = ie.get(e);
	if (t !== void 0) return t;
	let n = e.user_stack[e.user_stack.length - 1], r = n ? `${n.filename}:${n.lineno} ${n.line}` : "", i = [
		e.expr,
		e.user_expr ?? "",
		e.fx_node ?? "",
		e.sources.join(" "),
		r
	].join(" ").toLowerCase();
	return ie.set(e, i), i;
}
function oe(e, t, n = !1) {
	let r = C(e, (e) => e[t]), i = /* @__PURE__ */ new Map();
	for (let e = 0; e < r.length; e++) {
		let t = e > 0 && S(r[e - 1], r[e]) === 0;
		i.set(r[e], t ? i.get(r[e - 1]) ?? e : e);
	}
	let a = n ? -1 : 1;
	return e.map((e) => ({
		g: e,
		r: i.get(e[t]) ?? 0
	})).sort((e, t) => a * (e.r - t.r)).map(({ g: e }) => e);
}
var se = new Intl.Collator(void 0, { numeric: !0 });
function S(e, t) {
	return se.compare(e, t);
}
function C(e, t) {
	return [...new Set(e.map(t))].sort((e, t) => S(e, t));
}
function ce(e) {
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
var le = /* @__PURE__ */ new WeakMap();
function ue(e) {
	let t = le.get(e.explanations) ?? C(e.explanations, (e) => e.source);
	return le.set(e.explanations, t), t;
}
function de(e, t) {
	return A(e.explanations, "source", [t]);
}
function fe(e, t) {
	return de(e, t).at(-1);
}
function w(e, t) {
	let n = A(e.compiles, "compile_id", [t])[0];
	if (!n) return `compile ${t}`;
	let r = n.generation ? `@${n.generation}` : "", i = n.filename ? `, ${n.filename}:${n.lineno}` : "";
	return `${n.callee?.qualname || n.name} (frame ${n.frame_id}${r}${i})`;
}
function pe(e) {
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
		label: w(e, n.get(t) ?? "")
	})));
}
function me(e) {
	let [t, ...n] = decodeURIComponent(e.replace(/^#/, "")).split("=");
	return n.length ? {
		pane: t,
		id: n.join("=")
	} : { pane: t || "overview" };
}
function T(e) {
	return `#${e.id === void 0 ? e.pane : `${e.pane}=${encodeURIComponent(e.id)}`}`;
}
function he(e, t, n, r, i = 10) {
	return [Math.max(0, Math.floor(e / n) - i), Math.min(r, Math.ceil((e + t) / n) + i)];
}
function ge(e, t) {
	return t && t !== e ? `${t} (${e})` : e;
}
function E(e) {
	return e.sources.map((t, n) => ge(t, e.user_names?.[n])).join(", ");
}
function _e(e) {
	return e.user_expr && e.user_expr !== e.expr ? `${e.user_expr}  (torch: ${e.expr})` : e.expr;
}
var ve = /* @__PURE__ */ new WeakMap();
function D(e, t, n) {
	let r = ve.get(e);
	return r || (r = new Map(e.map((e) => [t(e), e])), ve.set(e, r)), r.get(n);
}
function O(e, t) {
	return t === null ? void 0 : D(e.guards, (e) => e.id, t);
}
function ye(e, t, n) {
	return D(e.symbols, (e) => `${e.compile_id}|${e.name}`, `${t}|${n}`);
}
function be(e, t) {
	return t === null ? void 0 : D(e.specializations, (e) => `${e.compile_id}|${e.source}`, t);
}
function k(e, t) {
	return t.symbols.map((n) => {
		let r = ye(e, t.compile_id, n);
		return r?.sources.length ? `${n} = ${E(r)}` : n;
	});
}
function xe(e, t) {
	return A(e.recompiles, "compile_id", t);
}
function Se(e, t) {
	return A(e.recompiles, "compile_id", [t])[0];
}
function Ce(e, t) {
	return A(e.graph_breaks ?? [], "compile_id", t);
}
var we = /* @__PURE__ */ new WeakMap();
function A(e, t, n) {
	let r = we.get(e) ?? /* @__PURE__ */ new Map();
	we.set(e, r);
	let i = r.get(t) ?? Te(e, t);
	return r.set(t, i), [...n].flatMap((e) => i.get(e) ?? []).sort((e, t) => e - t).map((t) => e[t]);
}
function Te(e, t) {
	let n = /* @__PURE__ */ new Map();
	return e.forEach((e, r) => {
		let i = n.get(e[t]);
		i ? i.push(r) : n.set(e[t], [r]);
	}), n;
}
function Ee(e) {
	return C([...e.compiles, ...e.guards], (e) => e.compile_id);
}
function De(e, t) {
	return e.symbols.filter((e) => e.compile_id === t && !e.expected);
}
function Oe(e) {
	let t = e.state === "dynamic" || e.state === "unbacked" ? e.name : String(e.hint ?? e.name);
	return `${E(e)} = ${t}  ${e.state}${e.cause ? ` (${e.cause})` : ""}`;
}
function ke(e) {
	let t = /* @__PURE__ */ new Map();
	for (let n of e.explanations) {
		let e = t.get(n.source) ?? /* @__PURE__ */ new Set();
		for (let t of n.recompiles) e.add(t);
		t.set(n.source, e);
	}
	let n;
	for (let r of ue(e)) (n === void 0 || (t.get(r)?.size ?? 0) > (t.get(n)?.size ?? 0)) && (n = r);
	return n;
}
// src/sorting.ts
function Ae(e, t) {
	return typeof e == "number" && typeof t == "number" ? e - t : S(String(e), String(t));
}
function j(e, t, n) {
	let r = e.map((e, t) => ({
		item: e,
		index: t
	})), i = t.column;
	if (i === null) return r;
	let a = t.descending ? -1 : 1;
	return r.sort((e, t) => a * Ae(n(e.item, i), n(t.item, i)) || e.index - t.index);
}
function M(e, t) {
	return {
		column: t,
		descending: e.column === t && !e.descending
	};
}
function N(e, t) {
	return e.column === t ? e.descending ? " ▼" : " ▲" : "";
}
// src/words.ts
function P(e, t) {
	return `${e} ${t}${e === 1 ? "" : "s"}`;
}
function je(e) {
	return [
		P(e.compiles.length, "compile"),
		P(e.recompiles.length, "recompile"),
		P(e.guards.length, "guard")
	].join(", ");
}
// src/diffmodel.ts
var Me = [
	"title",
	"filename",
	"status",
	"compiles_before",
	"compiles_after",
	"change",
	"regressed"
];
function Ne(e) {
	return e.regressions.length > 0;
}
function Pe(e) {
	let t = e.compiles_after - e.compiles_before;
	return t > 0 ? `+${t}` : String(t);
}
function Fe(e, t) {
	switch (t) {
		case "change": return e.compiles_after - e.compiles_before;
		case "regressed": return +!!Ne(e);
		default: return e[t];
	}
}
function Ie(e, t) {
	return j(e, t, Fe);
}
var Le = [
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
function Re(e) {
	return Le.map(([t, n, r, i]) => ({
		list: t,
		kind: n,
		change: r,
		label: i,
		items: e[t] ?? []
	})).filter((e) => e.items.length > 0);
}
function ze(e) {
	return e.user_name && e.source && e.user_name !== e.source ? `${e.user_name} (${e.source})` : e.user_name || e.source;
}
function Be(e) {
	return [
		P(e.compiles, "compile"),
		P(e.recompiles, "recompile"),
		P(e.graph_breaks, "graph break")
	].join(", ");
}
function Ve(e) {
	return Object.entries(e.problems).map(([e, t]) => `${e} ${t}`).join(", ");
}
function He(e) {
	return e.rank === null ? "the two runs" : `rank ${e.rank}`;
}
function Ue(e) {
	return e.rank === null ? "pair" : String(e.rank);
}
// src/pane.ts
function F(t, n, r = `${t.filename}:${t.lineno}`) {
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
function I(t) {
	return !t.user_expr || t.user_expr === t.expr ? [t.expr] : [
		e("span", { class: "user-expr" }, t.user_expr),
		" ",
		e("span", { class: "muted" }, `(torch: ${t.expr})`)
	];
}
// src/diff.ts
var We = "\n.sd .verdict { font-weight: 600; padding: 1px 8px; }\n.sd .badge.regressed { background: #ffebe9; color: #a40e26; } .sd .badge.ok { background: #dafbe1; color: #116329; }\n.sd .sides { display: flex; gap: 12px; flex-wrap: wrap; margin: 6px 0; }\n.sd .side { flex: 1 1 280px; min-width: 0; border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 10px; }\n.sd .side h4 { margin: 0 0 4px; }\n.sd .run { margin: 12px 0 20px; }\n.sd .run h2 { font-size: 15px; margin: 8px 0; }\n.sd .frames-scroll { overflow-x: auto; }\n.sd .frame-detail { margin-top: 10px; padding-top: 6px; border-top: 1px solid #d0d7de; }\n.sd .frame-detail h3 { margin: 4px 0; }\n.sd tr.row.regressed td { background: #fff1f0; }\n.sd tr.row.regressed:hover td, .sd tr.row.regressed.on td { background: #ffd8d3; }\n.sd td.count { text-align: right; font-variant-numeric: tabular-nums; }\n.sd .status { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 11px; background: #eaeef2; }\n.sd .status.added { background: #dafbe1; } .sd .status.removed { background: #ffebe9; }\n.sd .item { margin: 6px 0 12px; padding-left: 8px; border-left: 3px solid #d0d7de; }\n.sd .item[data-change=added] { border-left-color: #cf222e; } .sd .item[data-change=removed] { border-left-color: #1a7f37; }\n.sd .item[data-change=changed] { border-left-color: #9a6700; }\n.sd .item pre { margin: 4px 0; white-space: pre-wrap; }\n.sd .notes { color: #656d76; }\n";
function Ge(e, n, r) {
	e.setAttribute("data-view", "diff"), t(e, [qe(n), Je(n.notes, "diff")]), n.runs.forEach((t, n) => {
		e.appendChild(Ye(t, n, r));
	});
}
function Ke(t) {
	return e("span", {
		class: `badge verdict ${t ? "regressed" : "ok"}`,
		"data-regressed": String(t)
	}, t ? "REGRESSED" : "no regression");
}
function qe(t) {
	return e("header", { "data-diff-header": "" }, e("h1", {}, "symdebug diff"), e("span", {}, e("code", { "data-label": "before" }, t.before), " → ", e("code", { "data-label": "after" }, t.after)), Ke(t.regressed));
}
function Je(t, n) {
	return t.length ? e("ul", {
		class: "notes",
		"data-notes": n
	}, ...t.map((t) => e("li", {}, t))) : null;
}
function Ye(n, r, i) {
	let a = e("section", {
		class: "run",
		"data-run": Ue(n),
		"data-regressed": String(n.regressed)
	}), o = {
		sort: {
			column: null,
			descending: !1
		},
		selected: null
	}, s = () => {
		a.replaceChildren(), t(a, Xe(n, r, o, c, i));
	}, c = (e) => {
		o = {
			...o,
			...e
		}, s();
	};
	return s(), a;
}
function Xe(t, n, r, i, a) {
	let o = t.frames.length ? [$e(t.frames, r, i), tt(t.frames, r.selected, a)] : [e("p", { class: "muted" }, "no frame compiled on either side")];
	return [
		e("h2", {}, He(t), " ", Ke(t.regressed)),
		e("div", { class: "sides" }, Ze(t.before, "before"), Ze(t.after, "after")),
		e("p", { class: "muted" }, `${t.matched} of ${t.frames.length} frames on both sides`),
		Je(t.notes, `run ${n}`),
		...o
	];
}
function Ze(t, n) {
	let r = Ve(t);
	return e("div", {
		class: "side",
		"data-side": n
	}, e("h4", {}, `${n}: `, e("code", {}, t.label), e("span", { class: "muted" }, ` (${t.kind})`)), e("div", { "data-totals": "" }, Be(t)), r ? e("div", {
		class: "problems",
		"data-problems": ""
	}, `problems: ${r}`) : null, t.problem_examples.length ? e("details", {}, e("summary", {}, t.problem_examples.length === 1 ? "1 example" : `${t.problem_examples.length} examples`), ...t.problem_examples.map((t) => e("pre", {}, t))) : null);
}
var Qe = {
	title: "frame",
	filename: "file",
	status: "status",
	compiles_before: "compiles before",
	compiles_after: "compiles after",
	change: "change",
	regressed: "regressed"
};
function $e(t, n, r) {
	let i = (e) => r({ sort: M(n.sort, e) }), a = e("tr", {}, ...Me.map((t) => e("th", {
		"data-col": t,
		onclick: () => i(t)
	}, Qe[t] + N(n.sort, t)))), o = Ie(t, n.sort).map(({ item: e, index: t }) => et(e, t, n.selected === t, () => r({ selected: t })));
	return e("div", { class: "frames-scroll" }, e("table", { class: "frames" }, e("thead", {}, a), e("tbody", {}, ...o)));
}
function et(t, n, r, i) {
	let a = Ne(t), o = t.regressions.join("; ");
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
	}, Pe(t)), e("td", {
		title: o,
		"data-col": "regressed"
	}, a ? `REGRESSED: ${o}` : ""));
}
function tt(t, n, r) {
	let i = n === null ? void 0 : t[n];
	return n === null || !i ? e("div", { class: "frame-detail muted" }, "click a frame to see what it gained and lost") : e("div", {
		class: "frame-detail",
		"data-frame-detail": String(n)
	}, ...nt(i, r));
}
function nt(t, n) {
	let r = Re(t);
	return [
		e("h3", {}, t.title),
		e("p", {}, e("code", {}, t.filename), " ", e("span", { class: `status ${t.status}` }, t.status), `  compiles ${t.compiles_before} → ${t.compiles_after}`),
		t.regressions.length ? e("ul", {
			class: "regressions",
			"data-regressions": ""
		}, ...t.regressions.map((t) => e("li", {}, t))) : null,
		...r.map((e) => rt(e, n)),
		r.length ? null : e("p", { class: "muted" }, "no recompile, specialization or graph break added, removed or changed")
	];
}
function rt(t, n) {
	return e("div", {
		class: "group",
		"data-group": t.list
	}, e("h4", {}, `${t.label} (${t.items.length})`), ...t.items.map((e) => it(e, t.change, n)));
}
function it(t, n, r) {
	let i = ze(t), a = t.line;
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
	}, `  ×${t.count}`)), i ? e("div", { "data-input": "" }, `input: ${i}`) : null, a ? e("div", { "data-user-line": "" }, "user line: ", F(a, r, `${a.filename}:${a.lineno} in ${a.name}`)) : null, a?.line ? e("pre", { class: "code" }, a.line) : null, t.fix ? e("div", { class: "fix" }, e("span", { class: "kind" }, "fix"), e("pre", { class: "fix-code" }, t.fix)) : null);
}
// src/compiler_guards.ts
var at = {
	backward: "a guard the compiler added while building the backward graph (no line of yours): it matters only if a call's size breaks it, then the frame recompiles",
	inductor: "a guard the compiler added while lowering the graph to kernels (Inductor; no line of yours): it matters only if a call's size breaks it, then the frame recompiles"
}, ot = "from cache: no user line (a compile cache replayed this guard's stored expression; capture with its default disable_caches=True traces it afresh, with its line)";
function st(e) {
	return e.origin === "cache" ? ot : at[e.cause] ?? null;
}
function ct(e) {
	return e.fx_node ? `FX node: ${e.fx_node}${e.fx_node_inferred ? " (inferred)" : ""}` : st(e) === null ? `no FX node (control flow${e.instruction ? `, ${e.instruction}` : ""})` : null;
}
// src/fixes.ts
function L(t) {
	let n = te(t), r = e("button", { onclick: () => navigator.clipboard?.writeText(t.code) }, "copy");
	return e("div", {
		class: "fix",
		"data-verified": n
	}, e("div", {}, e("span", { class: `badge ${n.replace(" ", "-")}` }, n), " ", e("span", { class: "kind" }, t.kind), t.effect ? e("span", { class: "effect" }, ` ${t.effect}`) : null, " ", r), e("pre", { class: "fix-code" }, t.code), t.diff ? lt(t.diff) : null, t.explanation ? e("p", { class: "muted" }, t.explanation) : null);
}
function lt(t) {
	return e("pre", { class: "fix-diff" }, ...b(t).map(({ kind: t, text: n }, r) => e("span", { class: `diff-line ${t}` }, r ? `\n${n}` : n)));
}
function R(t, n = t.length) {
	if (!t.length) return null;
	let r = t.length > 1 ? `fixes (${t.length}, best first)` : "fix", i = t.slice(n), a = i.length ? e("details", {}, e("summary", {}, `${i.length} more ${i.length > 1 ? "fixes" : "fix"}`), ...i.map(L)) : null;
	return e("div", { class: "fixes" }, e("h4", {}, r), ...t.slice(0, n).map(L), a);
}
// src/guardrows.ts
var ut = /* @__PURE__ */ new WeakMap(), dt = /* @__PURE__ */ new WeakMap();
function ft(e, t, n) {
	let r = ut.get(e) ?? /* @__PURE__ */ new Map();
	ut.set(e, r);
	let i = `${t} ${n}`, a = r.get(i) ?? oe(e, t, n);
	return r.set(i, a), a;
}
function pt(e, t, n, r) {
	return re(ft(e.guards, n, r), t);
}
function mt(e) {
	let t = dt.get(e);
	if (t) return t;
	let n = {
		cause: C(e.guards, (e) => e.cause),
		status: C(e.guards, (e) => e.status),
		compile: Ee(e),
		phase: C(e.guards, (e) => e.phase)
	};
	return dt.set(e, n), n;
}
function ht(t, n, r, i, a = 0) {
	let o = e("tbody"), s = e("div", { class: "scroll" }, e("table", { class: t }, e("thead", {}, n), o));
	if (r <= a) return o.append(...Array.from({ length: r }, (e, t) => i(t))), s;
	let c = "", l = () => {
		let [e, t] = he(s.scrollTop, s.clientHeight || 480, 24, r);
		if (`${e}:${t}` === c) return;
		c = `${e}:${t}`;
		let n = Array.from({ length: t - e }, (t, n) => i(e + n));
		o.replaceChildren(gt(e * 24), ...n, gt((r - t) * 24));
	};
	return s.addEventListener("scroll", l), requestAnimationFrame(l), l(), s;
}
function gt(t) {
	let n = e("tr", { class: "spacer" });
	return n.style.height = `${t}px`, n;
}
// src/guards.ts
function _t(t, n, r, a = {}) {
	let o = n.filter, s = (e, t) => i(t, o[e] ?? "", e, (t) => r({ filter: {
		...o,
		[e]: t || void 0
	} })), c = document.createElement("input");
	c.placeholder = "search expr, node, source, line", c.value = o.text ?? "", c.addEventListener("change", () => r({ filter: {
		...o,
		text: c.value || void 0
	} }));
	let l = pt(t, o, n.sort, n.descending), u = mt(t);
	return e("div", {}, e("div", { class: "filters" }, s("cause", u.cause), s("status", u.status), s("compile", u.compile), s("phase", u.phase), c, e("span", {
		class: "muted",
		"data-count": String(l.length)
	}, `${l.length} of ${P(t.guards.length, "guard")}`)), o.compile ? vt(t, o.compile) : null, yt(t, l, n, r, a));
}
function vt(t, n) {
	let r = De(t, n), i = t.guards.some((e) => e.compile_id === n);
	return e("div", {
		class: "compile-summary",
		"data-compile-summary": n
	}, e("h4", {}, `what ${n} specialized and kept dynamic`), r.length ? e("ul", {}, ...r.map((t) => e("li", {}, e("code", {}, Oe(t))))) : e("p", { class: "muted" }, `the document lists no symbol of ${n}`), i ? null : e("p", {
		class: "muted",
		"data-no-guards": ""
	}, `${n} has no shape guard`));
}
function yt(t, n, r, i, a) {
	let o = (t, n) => e("th", {
		"data-col": t,
		onclick: () => i({
			sort: t,
			descending: r.sort === t && !r.descending
		})
	}, n + (r.sort === t ? r.descending ? " ▼" : " ▲" : ""));
	return ht("guards", e("tr", {}, o("compile_id", "compile"), o("expr", "guard"), e("th", {
		"data-col": "symbols",
		title: "each symbol of the guard and the input dimension it stands for"
	}, "symbols"), o("cause", "cause"), o("status", "status"), o("phase", "phase"), e("th", { "data-col": "line" }, "user line")), n.length, (e) => bt(t, n[e], r, i, a));
}
function bt(t, n, r, i, a) {
	let o = n.user_stack[n.user_stack.length - 1], s = o ? `${wt(o.filename)}:${o.lineno}` : "", c = k(t, n).join("; ");
	return e("tr", {
		class: `row${r.guard === n.id ? " on" : ""}`,
		"data-guard": n.id,
		onclick: () => i({ guard: n.id })
	}, e("td", {}, n.compile_id), e("td", {
		title: _e(n),
		"data-expr": ""
	}, ...I(n)), e("td", {
		title: c,
		"data-symbols": ""
	}, c), e("td", { title: n.cause }, e("span", { class: `cause ${n.cause}` }, n.cause)), e("td", { title: n.status }, n.status), e("td", { title: n.phase }, n.phase), e("td", { title: o?.line ?? "" }, o ? a.openFrame ? F(o, a, s) : s : ""));
}
function xt(t, n, r, i = {}) {
	let a = O(t, n);
	if (!a) return e("div", { class: "muted" }, `no guard ${n}`);
	let o = st(a), s = (t) => e("ol", {}, ...t.map((t) => e("li", {}, F(t, i, `${t.filename}:${t.lineno} in ${t.name}`), t.line ? e("pre", {}, t.line) : null)));
	return e("div", { "data-detail": a.id }, e("h3", {}, e("code", {}, ...I(a))), e("p", {}, e("span", { class: `cause ${a.cause}` }, a.cause), ` ${a.status}, ${a.phase}, compile ${a.compile_id}`, e("a", { onclick: () => r({
		pane: "guards",
		guard: a.id
	}) }, "")), St(a), o ? e("p", {
		class: "compiler-note",
		"data-compiler-note": a.cause
	}, o) : null, Ct(t, a), ...a.user_stack.length ? [e("h4", {}, "user stack"), s(a.user_stack)] : [], a.framework_stack.length ? e("details", {}, e("summary", {}, `framework stack (${a.framework_stack.length})`), s(a.framework_stack)) : null, R(a.fixes), e("p", { class: "muted" }, `link: ${T({
		pane: "guard",
		id: a.id
	})}`));
}
function St(t) {
	let n = ct(t), r = t.kernel ? `kernel ${t.kernel}` : "";
	return !n && !r ? null : e("p", {}, [n, r].filter(Boolean).join("; "));
}
function Ct(t, n) {
	if (!n.symbols.length) return null;
	let r = k(t, n).map((t) => e("li", {}, e("code", {}, t)));
	return e("div", { class: "symbols" }, e("h4", {}, "symbols"), e("ul", {}, ...r));
}
function wt(e) {
	return e.split("/").pop() ?? e;
}
// src/huntmodel.ts
var Tt = [
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
function Et(e) {
	return e.hunt ?? [];
}
function z(e) {
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
		case "input": return z(e);
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
	return j(e, t, jt);
}
// src/hunt.ts
function Nt(t, n = {}) {
	let r = Et(t);
	if (!r.length) return e("p", { class: "muted" }, "no overspecialization hunt in this session");
	let i = e("div", { class: "scroll-x" }), a = {
		column: null,
		descending: !1
	}, o = () => {
		i.replaceChildren(Pt(r, a, (e) => {
			a = M(a, e), o();
		}, n));
	};
	return o(), e("div", {}, e("p", { class: "hunt-summary" }, At(r)), i);
}
function Pt(t, n, r, i) {
	let a = e("tr", {}, ...Tt.map(({ key: t, label: i, hint: a }) => e("th", {
		"data-col": t,
		title: a,
		onclick: () => r(t)
	}, i + N(n, t)))), o = Mt(t, n).map(({ item: e, index: t }) => Ft(e, t, i));
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
	}, e("code", {}, z(t))), e("td", { "data-col": "kind" }, t.kind), e("td", {
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
		F(i, n),
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
// src/changes.ts
var H = (e, t) => `${e} ${t}${e === 1 ? "" : "s"}`;
function Gt(t, n = {}) {
	let r = t.changes ?? [], i = new Set(r.flatMap((e) => e.recompiles)), a = t.recompiles.filter((e) => !i.has(e.compile_id)).length;
	return e("section", { class: "changes" }, e("h2", {}, r.length ? `What to change (${r.length})` : "What to change"), ...r.map((e, t) => qt(e, t, n)), r.length || t.recompiles.length ? null : e("p", { class: "muted" }, "No recompiles."), a ? e("p", {
		class: "muted",
		"data-unexplained": String(a)
	}, Kt(a)) : null);
}
function Kt(e) {
	return `${H(e, "recompile")} with no suggested change: see the details below`;
}
function qt(t, n, r = {}) {
	let i = t.fixes[0], a = t.lines.flatMap((e, t) => [t ? ", " : " at ", F(e, r)]);
	return e("div", {
		class: "change",
		"data-change": String(n),
		"data-verified": String(i?.verified ?? null)
	}, e("div", { class: "change-head" }, e("span", { class: "removes" }, i ? Jt(i, t.recompiles.length) : ""), ...t.causes.map((t) => e("span", { class: `cause ${t}` }, t))), i ? L(i) : null, e("div", { class: "change-where muted" }, `recompiles ${t.recompiles.join(", ")}`, ...a));
}
function Jt(e, t) {
	let n = `expected to remove ${H(t, "recompile")}`;
	return e.verified === !0 && e.saved !== null ? `removed ${H(e.saved, "compile")} when replayed` : e.verified === !0 ? `verified when replayed; ${n}` : e.verified === !1 ? "did not help when replayed" : n;
}
// src/overview.ts
var Yt = 100;
function Xt(t, n, r = {}) {
	let i = ce(t), a = e("div", { class: "frame-list" });
	B(a, i, (e) => [Qt(t, e, n, r)], (e) => e.compiles.length, Yt);
	let o = i.map((e) => $t(t, e, n));
	return e("div", {}, Gt(t, r), e("section", { class: "timelines" }, e("h2", {}, "Compiles by cause"), en(t), ...o), e("section", { class: "details" }, e("h2", {}, "Details"), a));
}
function Zt(e) {
	return e.compiles[0]?.kind === "export" ? `torch.export.${e.name}` : `frame ${e.name}`;
}
function Qt(t, n, r, i) {
	let a = {
		filename: n.filename,
		lineno: n.lineno,
		name: n.name,
		line: ""
	}, o = n.compiles[0]?.kind === "export", s = new Set(n.compiles.map((e) => e.compile_id)), c = xe(t, s), l = Ce(t, s), u = `${n.compiles.length} compiles, ${c.length} recompiles, ${l.length} graph breaks`;
	return e("details", { class: "frame-details" }, e("summary", {}, e("h3", {}, `${Zt(n)}  `, e("span", { class: "muted" }, F(a, i))), e("span", { class: "muted" }, ` ${u}`)), ...n.compiles.filter((e) => o && e.fail_reason).map((t) => e("pre", { class: "export-error" }, t.fail_reason ?? "")), ...c.map((e) => tn(t, e, r, i)), ...l.map((e) => on(e, i)));
}
function $t(t, n, r) {
	let i = e("div", { class: "timeline" }, e("span", { class: "timeline-frame" }, Zt(n)));
	for (let a of n.compiles) {
		let n = Se(t, a.compile_id), o = n ? n.cause : "first", s = n ? `${a.compile_id}: recompiled (${n.cause})\n${n.reasons.join("\n")}` : `${a.compile_id}: the frame's first compile`, c = `${a.compile_id}${a.status === "ok" ? "" : ` (${a.status})`}`, l = {
			class: `compile cause ${o} ${a.status}`,
			title: s,
			"data-compile": a.compile_id,
			onclick: () => r({
				pane: "guards",
				filter: { compile: a.compile_id },
				guard: void 0
			})
		};
		i.appendChild(e("span", {
			...l,
			"data-cause": o
		}, c));
	}
	return i;
}
function en(t) {
	let n = /* @__PURE__ */ new Map();
	for (let e of t.recompiles) n.set(e.cause, (n.get(e.cause) ?? 0) + 1);
	let r = t.compiles.length - t.recompiles.length, i = [...n].sort((e, t) => t[1] - e[1]);
	return r > 0 && i.unshift(["first", r]), e("div", { class: "legend" }, ...i.map(([t, n]) => e("span", {
		class: `cause ${t}`,
		"data-legend": t
	}, `${t === "first" ? "first compile" : t} ${n}`)));
}
function tn(t, n, r, i = {}) {
	let a = n.failed_entry ? ` (entry ${n.failed_entry} failed)` : "";
	return e("div", {
		class: "recompile",
		"data-recompile": n.compile_id
	}, e("div", {}, e("span", { class: `cause ${n.cause}` }, n.cause), ` compile ${n.compile_id} recompiled${a}`), rn(t, n, r, i), ...nn(t, n, i), R(n.fixes, 1), e("details", { class: "reason" }, e("summary", {}, "torch's reason"), e("pre", {}, n.reasons.join("\n"))));
}
function nn(t, n, r) {
	let i = n.user_frame, a = O(t, n.guard), o = a?.user_stack[a.user_stack.length - 1];
	if (!i || o && o.filename === i.filename && o.lineno === i.lineno) return [];
	let s = e("div", { class: "recompile-line" }, "line: ", F(i, r));
	return i.line ? [s, e("pre", { class: "code" }, i.line)] : [s];
}
function rn(n, r, i, a) {
	let o = r.sources.map((e, t) => ge(e, r.user_names?.[t] || fe(n, e)?.user_name)), s = e("div", { class: "check" }, r.sources.length ? `inputs: ${o.join(", ")}` : ""), c = O(n, r.guard), l = be(n, r.specialization);
	return c ? t(s, an(n, c, i, a)) : l && s.append(`; ${l.source} was the constant ${l.value} in ${l.compile_id}`), s;
}
function an(t, n, r, i) {
	let a = n.user_stack[n.user_stack.length - 1], o = k(t, n).filter((e) => e.includes(" = ")), s = ["; failed check ", e("a", {
		class: "guard",
		"data-guard": n.id,
		onclick: () => r({
			pane: "guards",
			guard: n.id
		})
	}, ...I(n))];
	return o.length && s.push(` (${o.join("; ")})`), a && s.push(" at ", F(a, i)), a?.line && s.push(e("pre", { class: "code" }, a.line)), s;
}
function on(t, n = {}) {
	let r = t.failed ? "the compile failed (the call raised)" : t.skipped ? "frame skipped for good (it runs eagerly, uncompiled)" : `resume frame ${t.resume_frames.join(", ") || "?"} (${t.resume_compiles.join(", ") || "not compiled"})`, i = t.user_frame ? F(t.user_frame, n) : e("code", {}, "(no line of yours in the frame)"), a = t.library_frame ? [" in ", e("span", { class: "library-line" }, F(t.library_frame, n), " (library)")] : [], o = e("div", {
		class: "graph-break",
		"data-compile": t.compile_id
	}, e("span", { class: "cause graph_break" }, "graph break"), " at ", i, ...a, `: ${t.reason} → ${r}`);
	t.expression && o.appendChild(e("div", { class: "data-dependent" }, `data-dependent: torch could not decide ${t.expression}`)), t.user_frame?.line && o.appendChild(e("pre", { class: "code" }, t.user_frame.line));
	for (let n of t.lost) {
		let r = n.marked ? "marked dynamic" : `dynamic (${n.symbol})`;
		o.appendChild(e("div", { class: "lost" }, `lost dynamism: ${n.source} was ${r} in ${t.compile_id}; the resume compile ${n.resume_compile} got ${n.resume_sources.join(", ")} = ${n.value} as a constant`));
	}
	let s = R(t.fixes);
	return s && o.appendChild(s), o;
}
// src/chart.ts
function sn(e) {
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
var cn = "http://www.w3.org/2000/svg", U = 720, ln = 300, W = 96, G = 36, un = 608, dn = 212, K = "#cf222e", fn = "#0969da", pn = "#bc4c00", q = "#57606a", mn = "#8c959f";
function J(e, t, n) {
	let r = document.createElementNS(cn, e);
	for (let [e, n] of Object.entries(t)) r.setAttribute(e, String(n));
	return n !== void 0 && (r.textContent = n), r;
}
function Y(e, ...t) {
	let n = J("g", e);
	for (let e of t) n.appendChild(e);
	return n;
}
function hn(e) {
	let t = [
		...e.predicted,
		...e.predicted_at_call ?? [],
		...e.actual
	].filter((e) => !!e);
	return [...new Set(t)].sort(S).concat("recompile");
}
function gn(e, t, n = 6) {
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
function _n(e) {
	if (e.x.every((e) => typeof e == "number")) {
		let t = e.x, [n, r] = [Math.min(...t), Math.max(...t)], i = (e) => 108 + (r > n ? (e - n) / (r - n) * 584 : un / 2);
		return {
			at: (e) => i(t[e]),
			ticks: gn(n, r).map((e) => [i(e), String(e)])
		};
	}
	let t = e.x.length, n = (e) => W + (e + .5) / Math.max(t, 1) * un, r = Math.max(1, Math.ceil(t / 8));
	return {
		at: n,
		ticks: e.x.flatMap((e, t) => t % r === 0 ? [[n(t), String(e)]] : [])
	};
}
function vn(e) {
	let t = 188 / Math.max(e.length - 1, 1);
	return (n) => 48 + (e.length - 1 - e.indexOf(n ?? "recompile")) * t;
}
function yn(e, t) {
	let n = e.ticks.map(([e, t]) => Y({ class: "tick" }, J("line", {
		x1: e,
		x2: e,
		y1: 248,
		y2: 252,
		stroke: q
	}), J("text", {
		x: e,
		y: 264,
		"font-size": 11,
		"text-anchor": "middle"
	}, t)));
	return Y({ "data-axis": "x" }, J("line", {
		x1: W,
		x2: 704,
		y1: 248,
		y2: 248,
		stroke: q
	}), ...n, J("text", {
		x: 400,
		y: 292,
		"font-size": 12,
		"text-anchor": "middle"
	}, t));
}
function bn(e, t) {
	let n = e.map((e) => Y({ class: "tick" }, J("line", {
		x1: 92,
		x2: 704,
		y1: t(e),
		y2: t(e),
		stroke: "#eaeef2"
	}), J("text", {
		x: 88,
		y: t(e) + 4,
		"font-size": 11,
		"text-anchor": "end"
	}, e)));
	return Y({ "data-axis": "y" }, J("line", {
		x1: W,
		x2: W,
		y1: G,
		y2: 248,
		stroke: q
	}), ...n, J("text", {
		transform: "translate(14 142) rotate(-90)",
		"font-size": 12,
		"text-anchor": "middle"
	}, "cache entry that serves"));
}
function xn(e, t, n = 4) {
	return J("path", {
		d: `M${e - n},${t - n}L${e + n},${t + n}M${e - n},${t + n}L${e + n},${t - n}`,
		stroke: pn,
		"stroke-width": 1.5
	});
}
function Sn() {
	let e = [
		[J("circle", {
			cx: 6,
			cy: -4,
			r: 4,
			fill: "none",
			stroke: fn
		}), "predicted entry"],
		[xn(6, -4), "entry that served (re-run)"],
		[J("line", {
			x1: 6,
			x2: 6,
			y1: -10,
			y2: 2,
			stroke: K,
			"stroke-width": 2
		}), "recompiled"],
		[J("circle", {
			cx: 6,
			cy: -4,
			r: 2,
			fill: mn
		}), "predicted before the sweep"],
		[J("circle", {
			cx: 6,
			cy: -4,
			r: 6,
			fill: "none",
			stroke: K
		}), "missed"]
	], t = [
		0,
		115,
		290,
		370,
		548
	];
	return Y({
		"data-legend": "",
		transform: `translate(${W} 16)`
	}, ...e.map(([e, n], r) => Y({ transform: `translate(${t[r]} 0)` }, e, J("text", {
		x: 16,
		y: 0,
		"font-size": 11
	}, n))));
}
function X(e, t) {
	let n = e.predicted_at_call?.[t];
	return e.prediction_held?.[t] !== void 0 && e.prediction_held?.[t] !== null && n !== void 0 ? n : e.predicted[t];
}
function Cn(e, t) {
	let n = e.predicted[t];
	return n === X(e, t) ? void 0 : n;
}
function wn(e, t) {
	return e.prediction_held?.[t] === !1;
}
function Tn(e, t) {
	let n = X(e, t) ?? "a recompile", r = Cn(e, t), i = r === void 0 ? "" : ` (before the sweep: ${r ?? "a recompile"})`, a = e.actual[t], o = a === void 0 ? "not re-run" : `served by ${a ?? "eager (no entry)"}`, s = e.recompiled[t] ? "; recompiled" : "", c = wn(e, t) ? "; prediction missed" : "";
	return `${e.axis ?? "point"} = ${String(e.x[t])}: predicted ${n}${i}; ${o}${s}${c}`;
}
function En() {
	return Y({
		"data-tooltip": "",
		visibility: "hidden",
		"pointer-events": "none"
	}, J("rect", {
		rx: 4,
		fill: "#1f2328",
		"fill-opacity": .9,
		height: 22
	}), J("text", {
		"font-size": 11,
		fill: "white",
		x: 6,
		y: 15
	}));
}
function Dn(e, t, n, r) {
	let [i, a] = [e.firstChild, e.lastChild];
	a.textContent = t;
	let o = a.getComputedTextLength() + 12;
	i.setAttribute("width", String(o));
	let s = Math.min(Math.max(n - o / 2, 0), U - o);
	e.setAttribute("transform", `translate(${s} ${Math.max(r - 30, 0)})`), e.setAttribute("visibility", "visible");
}
function On(e, t, n, r) {
	let i = Y({
		class: "point",
		"data-point": t
	});
	e.recompiled[t] && i.appendChild(J("line", {
		x1: n,
		x2: n,
		y1: G,
		y2: 248,
		stroke: K,
		"stroke-opacity": .4
	}));
	let a = Cn(e, t);
	a !== void 0 && i.appendChild(J("circle", {
		cx: n,
		cy: r(a),
		r: 2,
		fill: mn,
		"data-earlier": ""
	}));
	let o = r(X(e, t));
	i.appendChild(J("circle", {
		cx: n,
		cy: o,
		r: 4,
		fill: "none",
		stroke: fn,
		"data-predicted": ""
	})), wn(e, t) && i.appendChild(J("circle", {
		cx: n,
		cy: o,
		r: 7,
		fill: "none",
		stroke: K,
		"data-missed": ""
	}));
	let s = e.actual[t];
	s != null && i.appendChild(xn(n, r(s)));
	let c = J("rect", {
		x: n - 6,
		y: G,
		width: 12,
		height: dn,
		fill: "transparent"
	});
	return c.appendChild(J("title", {}, Tn(e, t))), i.appendChild(c), i;
}
function kn(e) {
	let t = hn(e), n = vn(t), r = _n(e), i = J("svg", {
		width: U,
		height: ln,
		viewBox: `0 0 ${U} ${ln}`,
		"data-chart": "sweep"
	});
	i.append(yn(r, e.axis ?? "point"), bn(t, n), Sn());
	let a = En();
	return e.x.forEach((t, o) => {
		let s = On(e, o, r.at(o), n);
		s.addEventListener("mouseenter", () => Dn(a, Tn(e, o), r.at(o), n(X(e, o)))), s.addEventListener("mouseleave", () => a.setAttribute("visibility", "hidden")), i.appendChild(s);
	}), i.appendChild(a), i;
}
// src/sizes.ts
function An(t) {
	let n = t.sweeps.map(sn);
	if (!n.length) return e("p", { class: "muted" }, "no sweep in this session: run session.sweep(...) to add one");
	let r = e("div");
	for (let t of n) {
		let n = t.prediction_held?.filter((e) => e === !1).length ?? 0, i = t.axis === "runs" ? `${t.x.length} re-runs` : `${t.x.length} sizes of ${t.axis ?? "?"}`, a = t.recompiled.filter(Boolean).length;
		r.appendChild(e("p", {}, `${i}; ${P(a, "recompile")}; prediction missed ${n}`)), r.appendChild(e("div", { class: "chart" }, kn(t)));
	}
	return r;
}
// src/styles.ts
var jn = "\n.sd { font: 13px/1.45 system-ui, -apple-system, \"Segoe UI\", sans-serif; color: #1f2328; overflow-wrap: anywhere; }\n.sd header { display: flex; gap: 16px; align-items: baseline; padding: 8px 0; border-bottom: 1px solid #d0d7de; }\n.sd header h1 { font-size: 16px; margin: 0; }\n.sd .muted { color: #656d76; }\n.sd nav { display: flex; gap: 4px; margin: 8px 0; }\n.sd nav button { border: 1px solid #d0d7de; background: #f6f8fa; padding: 4px 10px; border-radius: 6px; cursor: pointer; }\n.sd nav button.on { background: #0969da; color: white; border-color: #0969da; }\n.sd .main { display: flex; gap: 12px; align-items: flex-start; }\n.sd .pane { flex: 1; min-width: 0; }\n.sd .detail { flex: 0 0 min(36%, 480px); min-width: 0; box-sizing: border-box; border-left: 1px solid #d0d7de; padding-left: 12px; }\n.sd .detail pre { white-space: pre-wrap; }\n.sd .scroll-x { overflow-x: auto; max-width: 100%; }\n.sd table { border-collapse: collapse; width: 100%; }\n.sd th, .sd td { text-align: left; padding: 2px 6px; border-bottom: 1px solid #eaeef2; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 420px; }\n.sd table.guards { table-layout: fixed; min-width: 760px; }\n.sd table.guards th[data-col=compile_id] { width: 74px; } .sd table.guards th[data-col=symbols] { width: 18%; }\n.sd table.guards th[data-col=cause] { width: 118px; } .sd table.guards th[data-col=status] { width: 68px; }\n.sd table.guards th[data-col=phase] { width: 64px; } .sd table.guards th[data-col=line] { width: 92px; }\n.sd table.guards .cause { max-width: 100%; box-sizing: border-box; overflow: hidden; text-overflow: ellipsis; vertical-align: middle; }\n.sd th { cursor: pointer; background: #f6f8fa; position: sticky; top: 0; }\n.sd tr.row { cursor: pointer; height: 24px; }\n.sd .scroll tr.expected { height: 24px; }\n.sd tr.row:hover, .sd tr.row.on { background: #ddf4ff; }\n.sd .scroll { max-height: max(320px, calc(100vh - 170px)); overflow: auto; border: 1px solid #eaeef2; }\n.sd .compile-summary ul { margin: 4px 0 8px; }\n.sd .filters { display: flex; gap: 6px; margin-bottom: 6px; flex-wrap: wrap; }\n.sd code, .sd pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }\n.sd pre { background: #f6f8fa; padding: 8px; overflow-x: auto; border-radius: 6px; }\n.sd .cause { display: inline-block; padding: 0 6px; border-radius: 10px; background: #eaeef2; font-size: 11px; }\n.sd .cause.user_branch { background: #fff8c5; } .sd .cause.op_requirement { background: #ddf4ff; }\n.sd .cause.int_specialized { background: #ffebe9; } .sd .cause.static_by_default { background: #e8e1ff; }\n.sd .cause.zero_one, .sd .cause.duck_sizing { background: #fbefff; }\n.sd .cause.inductor, .sd .cause.backward { background: #dafbe1; }\n.sd .cause.graph_break { background: #ffd8b5; } .sd .graph-break { margin: 6px 0 10px; }\n.sd .timeline { display: flex; gap: 3px; align-items: center; flex-wrap: wrap; margin: 4px 0 8px; }\n.sd .timeline-frame { min-width: 12em; font-weight: 600; margin-right: 6px; }\n.sd .compile { border: 1px solid #d0d7de; border-radius: 4px; padding: 2px 6px; cursor: pointer; font-size: 11px; }\n.sd .compile.failed { border-color: #cf222e; color: #cf222e; }\n.sd .cause.first { background: #fff; border: 1px solid #d0d7de; }\n.sd .legend { display: flex; gap: 6px; flex-wrap: wrap; margin: 4px 0 8px; }\n.sd .changes .change { border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 10px; margin: 8px 0; }\n.sd .change[data-verified=true] { border-color: #1a7f37; }\n.sd .change-head { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }\n.sd .change-head .removes { font-weight: 600; }\n.sd .change .fix { margin: 4px 0; }\n.sd .overview h2, .sd section > h2 { font-size: 14px; margin: 16px 0 4px; }\n.sd .frame-details { margin: 4px 0; } .sd .frame-details > summary { cursor: pointer; }\n.sd .frame-details > summary h3 { display: inline; font-size: 13px; }\n.sd .steps li { margin: 4px 0; }\n.sd .steps .guard { cursor: pointer; text-decoration: underline dotted; }\n.sd .sym { background: #ddf4ff; } .sd .lit { background: #ffebe9; }\n.sd .problems { color: #9a6700; }\n.sd .fix { margin: 6px 0 10px; }\n.sd .fix pre { margin: 4px 0; white-space: pre-wrap; overflow-x: visible; }\n.sd .fixes { min-width: 0; max-width: 100%; }\n.sd .recompile { margin: 6px 0 14px; padding-left: 8px; border-left: 3px solid #d0d7de; }\n.sd .recompile .check { margin: 2px 0; }\n.sd .recompile .guard { cursor: pointer; text-decoration: underline dotted; }\n.sd .recompile .reason pre { white-space: pre-wrap; }\n.sd .chart svg { max-width: 100%; height: auto; }\n.sd .fix .kind { color: #656d76; font-size: 11px; }\n.sd .badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 11px; background: #eaeef2; }\n.sd .badge.verified { background: #dafbe1; color: #116329; } .sd .badge.failed { background: #ffebe9; color: #a40e26; }\n.sd .fix pre.fix-diff { background: #fff; border: 1px solid #d0d7de; }\n.sd .fix-diff .add { background: #dafbe1; color: #116329; }\n.sd .fix-diff .del { background: #ffebe9; color: #a40e26; } .sd .fix-diff .hunk { color: #8250df; }\n.sd .fix-diff .file { color: #656d76; }\n.sd .hunt-summary { font-weight: 600; }\n.sd table.hunt td.count { text-align: right; font-variant-numeric: tabular-nums; }\n.sd table.hunt td[data-col=evidence], .sd table.hunt td[data-col=note] { white-space: normal; }\n.sd table.hunt code.line { display: block; white-space: pre-wrap; }\n.sd .verdict { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 11px; background: #eaeef2; }\n.sd .verdict.avoidable { background: #dafbe1; color: #116329; } .sd .verdict.needed { background: #ddf4ff; color: #0550ae; }\n.sd .verdict.untested { background: #eaeef2; color: #656d76; }\n.sd .frame-link { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; border: 0; padding: 0; background: none; color: #0969da; cursor: pointer; text-decoration: underline; }\n", Mn = [
	["compiles", "compiles"],
	["recompiles", "recompiles"],
	["graph_breaks", "graph breaks"]
];
function Z(e) {
	return e.user_name || e.source;
}
function Nn(e) {
	return C(e.flatMap((e) => Object.keys(e.causes)), (e) => e);
}
function Pn(e) {
	return C(e.flatMap((e) => e.specializations), Z);
}
function Fn(e) {
	let t = e.some((e) => e.error !== null);
	return [
		{
			key: "name",
			label: "workload",
			kind: "name"
		},
		...Mn.map(([e, t]) => ({
			key: e,
			label: t,
			kind: "count"
		})),
		...Nn(e).map((e) => ({
			key: `cause:${e}`,
			label: e,
			kind: "cause"
		})),
		...Pn(e).map((e) => ({
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
function In(e, t) {
	return e.specializations.filter((e) => Z(e) === t);
}
function Ln(e, t) {
	let n = In(e, t);
	return {
		text: [...new Set(n.map((e) => e.cause))].join(", "),
		title: n.map(Rn).join("\n")
	};
}
function Rn(e) {
	let t = e.user_name && e.user_name !== e.source ? ` (${e.source})` : "", n = e.line ? ` at ${e.line}` : "", r = e.code ? `: ${e.code}` : "";
	return `${e.frame}: ${Z(e)}${t} = ${e.values.join(", ")} (${e.cause})${n}${r}`;
}
function Q(e, t) {
	switch (t.kind) {
		case "name": return e.name;
		case "count": return String(e[t.key]);
		case "cause": return String(e.causes[t.key.slice(6)] ?? "");
		case "dim": return Ln(e, t.key.slice(4)).text;
		default: return e.error ?? "";
	}
}
function zn(e, t) {
	let n = Q(e, t);
	return t.kind === "count" || t.kind === "cause" ? n === "" ? 0 : Number(n) : n;
}
function Bn(e, t) {
	return j(e, t, zn);
}
var Vn = /^[^/?#]*:/, Hn = /[\u0000-\u001f\u007f]/;
function Un(e) {
	return !e || Hn.test(e) || /^\s/.test(e) || e.startsWith("/") || e.includes("\\") || Vn.test(e) ? null : e;
}
// src/suite.ts
var Wn = "\n.sd .scroll-x { overflow: auto; max-height: 85vh; }  /* its header rows stay in sight */\n.sd table.suite { width: auto; overflow-wrap: normal; }  /* words whole: a cell wraps at spaces and _ */\n.sd table.suite td.count { text-align: right; font-variant-numeric: tabular-nums; }\n.sd table.suite tr.failed td { background: #ffebe9; }\n.sd table.suite td.error { color: #a40e26; white-space: pre-wrap; min-width: 16em; max-width: 28em; }\n.sd table.suite td.error div { max-height: 5.8em; overflow: auto; }  /* four lines */\n.sd table.suite td.dim { cursor: help; font-size: 12px; white-space: normal; }\n.sd table.suite td.hit { background: #fff1c2; font-weight: 600; }\n.sd table.suite td.dim.hit { background: #ffe2cc; }\n.sd table.suite tr.groups th { background: #eaeef2; cursor: default; text-align: center; top: 0; height: 22px; box-sizing: border-box; }\n.sd table.suite tr.columns th { top: 22px; vertical-align: bottom; white-space: normal; }\n.sd table.suite th.turned span { writing-mode: vertical-rl; transform: rotate(180deg); display: inline-block; max-height: 22em; overflow: hidden; text-overflow: ellipsis; }\n.sd table.suite [data-col=name] { position: sticky; left: 0; z-index: 1; background: #fff; min-width: 10em; max-width: 22em; white-space: normal; overflow-wrap: break-word; }\n.sd table.suite th[data-col=name] { z-index: 2; background: #f6f8fa; }\n.sd table.suite tr.failed td[data-col=name] { background: #ffebe9; }\n", Gn = {
	name: "",
	count: "totals",
	cause: "recompiles by cause",
	dim: "inputs made constants (why)",
	error: ""
}, Kn = /* @__PURE__ */ new Set(["cause", "dim"]);
function qn(t, n) {
	t.setAttribute("data-view", "suite");
	let r = Fn(n.workloads), i = e("div", { class: "scroll-x" }), a = {
		column: null,
		descending: !1
	}, o = () => {
		i.replaceChildren(Yn(n.workloads, r, a, (e) => {
			a = M(a, e), o();
		}));
	};
	o(), t.append(Jn(n), i);
}
function Jn(t) {
	let n = t.workloads.filter((e) => e.error !== null).length;
	return e("header", {}, e("h1", {}, "symdebug suite"), e("span", {}, `${t.workloads.length} workloads${n ? `, ${n} did not finish` : ""}`), e("span", {
		class: "muted",
		"data-torch": t.torch
	}, `torch ${t.torch || "(unknown)"}`));
}
function Yn(t, n, r, i) {
	let a = e("tr", { class: "columns" }, ...n.map((t) => e("th", {
		class: Kn.has(t.kind) ? "turned" : "",
		"data-col": t.key,
		title: Zn(t),
		onclick: () => i(t)
	}, e("span", {}, t.label + N(r, t))))), o = Bn(t, r).map(({ item: e, index: t }) => Qn(e, t, n));
	return e("table", { class: "suite" }, e("thead", {}, Xn(n), a), e("tbody", {}, ...o));
}
function Xn(t) {
	let n = [], r = 0;
	for (; r < t.length;) {
		let i = t[r].kind, a = 1;
		for (; r + a < t.length && t[r + a].kind === i;) a++;
		let o = e("th", { "data-group": i }, Gn[i]);
		o.colSpan = a, n.push(o), r += a;
	}
	return e("tr", { class: "groups" }, ...n);
}
function Zn(e) {
	return e.kind === "cause" ? `recompiles caused by ${e.label} (click to sort)` : e.kind === "dim" ? `why ${e.label} became a constant; a cell's tooltip has its values and line` : `${e.label} (click to sort)`;
}
function Qn(t, n, r) {
	let i = t.error !== null;
	return e("tr", {
		class: i ? "failed" : "",
		"data-workload-row": String(n),
		"data-workload": t.name,
		"data-error": String(i)
	}, ...r.map((e) => $n(t, e)));
}
function $n(t, n) {
	switch (n.kind) {
		case "name": return e("td", { "data-col": n.key }, tr(t));
		case "dim": {
			let { text: r, title: i } = Ln(t, n.key.slice(4));
			return e("td", {
				class: r ? "dim hit" : "dim",
				title: i,
				"data-col": n.key
			}, ...er(r));
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
		}, e("div", {}, Q(t, n)));
		default: return e("td", {
			class: "count",
			"data-col": n.key
		}, Q(t, n));
	}
}
function er(t) {
	return t.split(/(?<=_)/).flatMap((t, n) => n ? [e("wbr"), t] : [t]);
}
function tr(t) {
	let n = Un(t.report);
	if (n === null) return e("span", { "data-report": "none" }, t.name);
	let r = e("a", { "data-report": n }, t.name);
	return r.setAttribute("href", n), r;
}
// src/symbols.ts
function nr(e) {
	if (!e.origin) return "";
	let t = e.user_frame ? ` at ${e.user_frame.filename}:${e.user_frame.lineno}` : "", n = e.runtime_asserts?.length ? `; runtime asserts: ${e.runtime_asserts.join(", ")}` : "";
	return `${e.origin}${t}${n}`;
}
function rr(t) {
	return t.compiles.flatMap((t) => (t.expected_constants ?? []).map((n) => () => e("tr", { class: "expected" }, e("td", {}, t.compile_id), e("td", {}, "—"), e("td", {}, n))));
}
var ir = 500;
function ar(t, n) {
	let r = t.symbols.filter((e) => !e.expected), i = rr(t), a = (e) => e < r.length ? or(r[e], n) : i[e - r.length]();
	return ht("symbols", e("tr", {}, ...[
		"compile",
		"symbol",
		"sources",
		"origin",
		"hint",
		"range",
		"state",
		"cause"
	].map((t) => e("th", {}, t))), r.length + i.length, a, ir);
}
function or(t, n) {
	let r = t.range ? `[${t.range[0]}, ${t.range[1]}]` : "";
	return e("tr", {
		class: "row",
		onclick: () => n({
			pane: "why",
			source: t.sources[0]
		})
	}, e("td", {}, t.compile_id), e("td", {}, t.name), e("td", {}, E(t)), e("td", {}, nr(t)), e("td", {}, t.hint ?? ""), e("td", {}, r), e("td", {}, t.state), e("td", {}, t.cause ? e("span", { class: `cause ${t.cause}` }, t.cause) : ""));
}
// src/why.ts
var sr = 20;
function cr(t, r, i, a = {}) {
	let o = r.source ?? ke(t) ?? "", s = de(t, o), c = s.at(-1), l = e("div", {}, lr(t, s.length ? o : "", i), c && s.length > 1 ? e("p", { class: "frame-of" }, `in ${w(t, c.compile_id)}`) : null, ur(c?.steps ?? [], i, a), R(c?.fixes ?? []));
	return B(l, s.slice(0, -1), (e) => [n({ class: "other-frame" }, [`also in ${w(t, e.compile_id)}`], () => [ur(e.steps, i, a), R(e.fixes)])], () => 1, sr), l;
}
function lr(e, t, n) {
	let r = (t) => {
		let n = fe(e, t)?.user_name;
		return n ? `${n} (${t})` : t;
	}, o = i(t ? [t] : [], t, "source", (e) => n({ source: e }), r);
	return V(() => a(o, ue(e), r)), o;
}
function ur(t, n, r) {
	return e("ol", { class: "steps" }, ...t.filter((e) => e.kind !== "fix").map((t) => e("li", { "data-kind": t.kind }, dr(t, n, r))));
}
function dr(t, n, r) {
	let i = t.guard;
	return i === null ? t.kind === "fix" ? e("pre", {}, t.text) : t.frame !== null && r.openFrame ? e("span", {}, F(t.frame, r), `  ${t.frame.line}`) : t.text : e("span", {
		class: "guard",
		"data-guard": i,
		onclick: () => n({
			pane: "guards",
			guard: i
		})
	}, t.text);
}
// src/index.ts
var fr = [
	"overview",
	"symbols",
	"guards",
	"why",
	"kernels",
	"sizes",
	"hunt"
];
function pr(e) {
	let t = me(e), n = {
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
	} : fr.includes(t.pane) ? {
		...n,
		pane: t.pane
	} : n;
}
function mr(e, t, n = {}) {
	"diff_version" in t ? Ge($(e, We), t, n) : "suite_version" in t ? qn($(e, Wn), t) : hr($(e), t, n);
}
function $(t, n = "") {
	let i = e("div", { class: "sd" }), a = document.createElement("style");
	return a.textContent = jn + n, r(t).append(a, i), i;
}
function hr(t, n, r) {
	let i = ee(n), a = r.deepLinks ?? !0, o = pr(a && typeof location < "u" ? location.hash : ""), s = (e) => {
		o = {
			...o,
			...e
		}, a && typeof history < "u" && history.replaceState(null, "", gr(o)), c();
	}, c = () => {
		let n = e("div", {
			class: "pane",
			"data-pane": o.pane
		}, vr(i, o, s, r));
		t.replaceChildren(yr(i), br(i, o, s), e("div", { class: "main" }, n, _r(i, o, s, r)));
	};
	c();
}
function gr(e) {
	return e.pane === "guards" && e.guard ? T({
		pane: "guard",
		id: e.guard
	}) : T({ pane: e.pane });
}
function _r(t, n, r, i) {
	return n.pane !== "guards" || !n.guard ? null : e("div", {
		class: "detail",
		"data-detail-of": "guards"
	}, xt(t, n.guard, r, i));
}
function vr(e, t, n, r) {
	switch (t.pane) {
		case "symbols": return ar(e, n);
		case "guards": return _t(e, t, n, r);
		case "why": return cr(e, t, n, r);
		case "kernels": return Vt(e);
		case "sizes": return An(e);
		case "hunt": return Nt(e, r);
		default: return Xt(e, n, r);
	}
}
function yr(t) {
	let n = Object.entries(t.problems).map(([e, t]) => `${e} ${t}`).join(", ");
	return e("header", {}, e("h1", {}, "symdebug"), e("span", { class: "muted" }, t.source), e("span", {}, je(t)), n ? e("span", { class: "problems" }, `problems: ${n}`) : null);
}
function br(t, n, r) {
	return e("nav", {}, ...fr.filter((e) => e !== "hunt" || Et(t).length).map((t) => e("button", {
		class: n.pane === t ? "on" : "",
		"data-tab": t,
		onclick: () => r({ pane: t })
	}, t)));
}
// src/patch.ts
function xr(e, t) {
	let n = e;
	for (let e of t) n = Sr(n, e);
	return n;
}
function Sr(e, t) {
	if (!t.path.length) return t.value;
	let n = { ...e }, r = n;
	for (let e of t.path.slice(0, -1)) r[e] = { ...r[e] }, r = r[e];
	let i = t.path[t.path.length - 1];
	return r[i] = t.op === "append" ? [...r[i], ...t.items ?? []] : t.value, n;
}
// src/widget.ts
function Cr(e) {
	if (s(e.ownerDocument)) return (t) => c(e, t);
}
var wr = { render({ model: t, el: n }) {
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
	}, "Predict")), d = e("button", {
		"data-action": "run",
		onclick: () => l("run")
	}, "Run"), f = () => {
		d.hidden = !t.get("can_run");
	};
	u.append(d);
	let p = e("button", {
		"data-action": "verify",
		onclick: () => l("verify")
	}, "Verify fixes"), m = e("button", {
		"data-action": "hunt",
		onclick: () => l("hunt")
	}, "Hunt"), h = () => {
		p.hidden = !t.get("can_verify"), m.hidden = !t.get("can_verify");
	};
	u.append(p, m);
	let g = null, _ = 0, v = 0, y = () => {
		let e = String(t.get("session_json") || "{}");
		e !== "{}" && (g = JSON.parse(e), _ = Number(t.get("base_revision") ?? 0), b(), Number(t.get("revision") ?? 0) > _ && t.send({ type: "resend" }));
	}, te = (e) => {
		let n = e;
		if (n?.type === "patch" && g !== null) {
			if (n.from !== _) return t.send({ type: "resend" });
			g = xr(g, JSON.parse(n.operations)), _ = n.from + 1, v += 1, b();
		}
	}, b = () => {
		if (g === null) return;
		n.dataset.revision = String(_), n.dataset.patches = String(v);
		let e = ee(g);
		o.replaceChildren(...pe(e).map((e) => {
			let t = document.createElement("option");
			return t.value = e.value, t.textContent = e.label, t;
		})), mr(r, e, {
			deepLinks: !1,
			openFrame: Cr(n)
		});
	}, x = () => {
		let e = t.get("results") ?? [];
		i.textContent = e.map((e) => `[${e.id}] ${e.action}: ${e.text}`).join("\n");
	};
	t.on("change:session_json", y), t.on("msg:custom", te), t.on("change:results", x), t.on("change:can_verify", h), t.on("change:can_run", f), t.on("change:error", () => {
		a.textContent = String(t.get("error") ?? "");
	}), n.replaceChildren(u, a, i, r), y(), x(), h(), f();
} };
export { wr as default, Cr as frameOpener };
