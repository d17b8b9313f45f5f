// src/dom.ts
function e(e, n = {}, ...r) {
	let i = document.createElement(e);
	for (let [e, t] of Object.entries(n)) e === "class" ? i.className = String(t) : e === "title" ? i.title = String(t) : e === "onclick" ? i.addEventListener("click", t) : e.startsWith("data-") && i.setAttribute(e, String(t));
	return t(i, r), i;
}
function t(e, t) {
	for (let n of t) n != null && n !== !1 && e.appendChild(typeof n == "string" || typeof n == "number" ? document.createTextNode(String(n)) : n);
}
function n(e) {
	for (; e.firstChild;) e.removeChild(e.firstChild);
	return e;
}
function r(e, t, n, r, i = (e) => e) {
	let a = document.createElement("select");
	a.setAttribute("aria-label", n);
	for (let t of ["", ...e]) {
		let e = document.createElement("option");
		e.value = t, e.textContent = t ? i(t) : `all ${n}`, a.appendChild(e);
	}
	return a.value = t, a.addEventListener("change", () => r(a.value)), a;
}
// src/model.ts
function i(e) {
	if (!("packed" in e)) return e;
	let t = { ...e.session };
	for (let n of e.tables) t[n] = o(t[n]);
	let n = e.frames.map(([e, t, n, r]) => ({
		filename: e,
		lineno: t,
		name: n,
		line: r
	})), r = t.guards.map((t) => ({
		...t,
		user_stack: t.user_stack.map((e) => n[e]),
		framework_stack: t.framework_stack.map((e) => n[e]),
		fix: t.fix === null ? null : e.fixes[t.fix],
		fixes: t.fixes.map((t) => e.fix_objects[t])
	}));
	return {
		...t,
		guards: r
	};
}
function a(e) {
	return e.verified === null ? "not tried" : e.verified ? "verified" : "failed";
}
function o(e) {
	return e.rows.map((t) => Object.fromEntries(e.columns.map((e, n) => [e, t[n]])));
}
function s(e, t) {
	let n = (t.text ?? "").toLowerCase();
	return e.filter((e) => (!t.cause || e.cause === t.cause) && (!t.status || e.status === t.status) && (!t.compile || e.compile_id === t.compile) && (!t.phase || e.phase === t.phase) && (!n || c(e).includes(n)));
}
function c(e) {
	let t = e.user_stack[e.user_stack.length - 1];
	return [
		e.expr,
		e.fx_node ?? "",
		e.sources.join(" "),
		t ? `${t.filename}:${t.lineno} ${t.line}` : ""
	].join(" ").toLowerCase();
}
function l(e, t, n = !1) {
	let r = n ? -1 : 1;
	return [...e].sort((e, n) => r * d(e[t], n[t]));
}
var u = new Intl.Collator(void 0, { numeric: !0 });
function d(e, t) {
	return u.compare(e, t);
}
function f(e, t) {
	return [...new Set(e.map(t))].sort((e, t) => d(e, t));
}
function p(e) {
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
function m(e) {
	return f(e.explanations, (e) => e.source);
}
function h(e, t) {
	return e.explanations.find((e) => e.source === t);
}
function g(e) {
	let [t, ...n] = decodeURIComponent(e.replace(/^#/, "")).split("=");
	return n.length ? {
		pane: t,
		id: n.join("=")
	} : { pane: t || "overview" };
}
function _(e) {
	return `#${e.id === void 0 ? e.pane : `${e.pane}=${encodeURIComponent(e.id)}`}`;
}
function v(e, t, n, r, i = 10) {
	return [Math.max(0, Math.floor(e / n) - i), Math.min(r, Math.ceil((e + t) / n) + i)];
}
// src/chart.ts
var y = "http://www.w3.org/2000/svg", b = 640, x = 220, S = 70, C = 10;
function w(e, t, n) {
	let r = document.createElementNS(y, e);
	for (let [e, n] of Object.entries(t)) r.setAttribute(e, String(n));
	return n !== void 0 && (r.textContent = n), r;
}
function T(e) {
	let t = [...e.predicted, ...e.actual].filter((e) => !!e);
	return [...new Set(t)].sort(d).concat("recompile");
}
function E(e) {
	let t = e.x.map((e, t) => typeof e == "number" ? e : t), [n, r] = [Math.min(...t), Math.max(...t)], i = T(e), a = (e) => S + (e - n) / Math.max(r - n, 1) * 560, o = (e) => C + (i.length - 1 - i.indexOf(e ?? "recompile")) * (180 / Math.max(i.length - 1, 1)), s = w("svg", {
		width: b,
		height: x,
		viewBox: `0 0 ${b} ${x}`,
		"data-chart": "sweep"
	});
	for (let e of i) s.appendChild(w("text", {
		x: 4,
		y: o(e === "recompile" ? null : e) + 4,
		"font-size": 11
	}, e));
	return s.appendChild(w("text", {
		x: S,
		y: 214,
		"font-size": 11
	}, `${e.axis ?? "point"}: ${n} … ${r}`)), t.forEach((t, n) => {
		if (e.recompiled[n] && s.appendChild(w("line", {
			x1: a(t),
			x2: a(t),
			y1: C,
			y2: 190,
			stroke: "#cf222e",
			"stroke-opacity": .3
		})), s.appendChild(w("circle", {
			cx: a(t),
			cy: o(e.predicted[n]),
			r: 4,
			fill: "none",
			stroke: "#0969da"
		})), e.actual[n] !== void 0 && e.actual[n] !== null) {
			let [r, i] = [a(t), o(e.actual[n])];
			s.appendChild(w("path", {
				d: `M${r - 3},${i - 3}L${r + 3},${i + 3}M${r - 3},${i + 3}L${r + 3},${i - 3}`,
				stroke: "#bc4c00"
			}));
		}
	}), s;
}
// src/panes.ts
var D = 24;
function O(t, n, r = `${t.filename}:${t.lineno}`) {
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
function k(t, n, r = {}) {
	let i = e("div");
	for (let a of p(t)) {
		let o = {
			filename: a.filename,
			lineno: a.lineno,
			name: a.name,
			line: ""
		}, s = a.compiles[0]?.kind === "export", c = s ? `torch.export.${a.name}` : `frame ${a.name}`;
		i.appendChild(e("h3", {}, `${c}  `, e("span", { class: "muted" }, O(o, r))));
		let l = e("div", { class: "timeline" });
		a.compiles.forEach((r, i) => {
			let a = t.recompiles.find((e) => e.compile_id === r.compile_id);
			i > 0 && l.appendChild(e("span", {
				class: "arrow",
				title: a?.reasons.join("\n") ?? ""
			}, `→ ${a ? a.cause : ""} →`));
			let o = `${r.compile_id}${r.status === "ok" ? "" : ` (${r.status})`}`;
			l.appendChild(e("span", {
				class: `compile ${r.status}`,
				"data-compile": r.compile_id,
				onclick: () => n({
					pane: "guards",
					filter: { compile: r.compile_id }
				})
			}, o));
		}), i.appendChild(l);
		for (let t of a.compiles.filter((e) => s && e.fail_reason)) i.appendChild(e("pre", { class: "export-error" }, t.fail_reason ?? ""));
		for (let n of t.recompiles.filter((e) => a.compiles.some((t) => t.compile_id === e.compile_id))) i.appendChild(e("div", {}, e("span", { class: `cause ${n.cause}` }, n.cause), ` ${n.compile_id}: ${n.reasons[0] ?? ""}`));
		let u = new Set(a.compiles.map((e) => e.compile_id));
		for (let e of (t.graph_breaks ?? []).filter((e) => u.has(e.compile_id))) i.appendChild(A(e, r));
	}
	return i;
}
function A(t, n = {}) {
	let r = t.failed ? "the compile failed (the call raised)" : t.skipped ? "frame skipped for good (it runs eagerly, uncompiled)" : `resume frame ${t.resume_frames.join(", ") || "?"} (${t.resume_compiles.join(", ") || "not compiled"})`, i = t.user_frame ? O(t.user_frame, n) : e("code", {}, "(unknown line)"), a = e("div", {
		class: "graph-break",
		"data-compile": t.compile_id
	}, e("span", { class: "cause graph_break" }, "graph break"), " at ", i, `: ${t.reason} → ${r}`);
	t.expression && a.appendChild(e("div", { class: "data-dependent" }, `data-dependent: torch could not decide ${t.expression}`)), t.user_frame?.line && a.appendChild(e("pre", { class: "code" }, t.user_frame.line));
	for (let n of t.lost) {
		let r = n.marked ? "marked dynamic" : `dynamic (${n.symbol})`;
		a.appendChild(e("div", { class: "lost" }, `lost dynamism: ${n.source} was ${r} in ${t.compile_id}; the resume compile ${n.resume_compile} got ${n.resume_sources.join(", ")} = ${n.value} as a constant`));
	}
	let o = V(t.fixes);
	return o && a.appendChild(o), a;
}
function j(e) {
	if (!e.origin) return "";
	let t = e.user_frame ? ` at ${e.user_frame.filename}:${e.user_frame.lineno}` : "", n = e.runtime_asserts?.length ? `; runtime asserts: ${e.runtime_asserts.join(", ")}` : "";
	return `${e.origin}${t}${n}`;
}
function M(e) {
	return e.sources.map((t, n) => e.user_names?.[n] ? `${e.user_names[n]} (${t})` : t).join(", ");
}
function N(t) {
	return t.compiles.flatMap((t) => (t.expected_constants ?? []).map((n) => e("tr", { class: "expected" }, e("td", {}, t.compile_id), e("td", {}, "—"), e("td", {}, n))));
}
function P(t, n) {
	let r = e("tbody");
	for (let i of t.symbols.filter((e) => !e.expected)) {
		let t = i.range ? `[${i.range[0]}, ${i.range[1]}]` : "";
		r.appendChild(e("tr", {
			class: "row",
			onclick: () => n({
				pane: "why",
				source: i.sources[0]
			})
		}, e("td", {}, i.compile_id), e("td", {}, i.name), e("td", {}, M(i)), e("td", {}, j(i)), e("td", {}, i.hint ?? ""), e("td", {}, t), e("td", {}, i.state), e("td", {}, i.cause ? e("span", { class: `cause ${i.cause}` }, i.cause) : "")));
	}
	for (let e of N(t)) r.appendChild(e);
	return e("table", {}, e("thead", {}, e("tr", {}, ...[
		"compile",
		"symbol",
		"sources",
		"origin",
		"hint",
		"range",
		"state",
		"cause"
	].map((t) => e("th", {}, t)))), r);
}
function F(t, n, i, a = {}) {
	let o = n.filter, c = (e, t) => r(t, o[e] ?? "", e, (t) => i({ filter: {
		...o,
		[e]: t || void 0
	} })), u = document.createElement("input");
	u.placeholder = "search expr, node, source, line", u.value = o.text ?? "", u.addEventListener("change", () => i({ filter: {
		...o,
		text: u.value || void 0
	} }));
	let d = l(s(t.guards, o), n.sort, n.descending);
	return e("div", {}, e("div", { class: "filters" }, c("cause", f(t.guards, (e) => e.cause)), c("status", f(t.guards, (e) => e.status)), c("compile", f(t.guards, (e) => e.compile_id)), c("phase", f(t.guards, (e) => e.phase)), u, e("span", {
		class: "muted",
		"data-count": String(d.length)
	}, `${d.length} of ${t.guards.length} guards`)), I(d, n, i, a));
}
function I(t, n, r, i) {
	let a = e("tr", {}, ...[
		["compile_id", "compile"],
		["expr", "guard"],
		["cause", "cause"],
		["status", "status"],
		["phase", "phase"]
	].map(([t, i]) => e("th", { onclick: () => r({
		sort: t,
		descending: n.sort === t && !n.descending
	}) }, i + (n.sort === t ? n.descending ? " ▼" : " ▲" : ""))), e("th", {}, "user line")), o = e("tbody"), s = e("div", { class: "scroll" }, e("table", {}, e("thead", {}, a), o)), c = () => {
		let [e, a] = v(s.scrollTop, s.clientHeight || 480, D, t.length);
		o.replaceChildren(L(e * D), ...t.slice(e, a).map((e) => R(e, n, r, i)), L((t.length - a) * D));
	};
	return s.addEventListener("scroll", c), requestAnimationFrame(c), c(), s;
}
function L(t) {
	let n = e("tr");
	return n.style.height = `${t}px`, n;
}
function R(t, n, r, i) {
	let a = t.user_stack[t.user_stack.length - 1], o = a ? `${J(a.filename)}:${a.lineno}` : "";
	return e("tr", {
		class: `row${n.guard === t.id ? " on" : ""}`,
		"data-guard": t.id,
		onclick: () => r({ guard: t.id })
	}, e("td", {}, t.compile_id), e("td", { title: t.expr }, t.expr), e("td", {}, e("span", { class: `cause ${t.cause}` }, t.cause)), e("td", {}, t.status), e("td", {}, t.phase), e("td", { title: a?.line ?? "" }, a ? i.openFrame ? O(a, i, o) : o : ""));
}
function z(t, n, r, i = {}) {
	let a = t.guards.find((e) => e.id === n);
	if (!a) return e("div", { class: "muted" }, `no guard ${n}`);
	let o = (t) => e("ol", {}, ...t.map((t) => e("li", {}, O(t, i, `${t.filename}:${t.lineno} in ${t.name}`), t.line ? e("pre", {}, t.line) : null)));
	return e("div", { "data-detail": a.id }, e("h3", {}, e("code", {}, a.expr)), e("p", {}, e("span", { class: `cause ${a.cause}` }, a.cause), ` ${a.status}, ${a.phase}, compile ${a.compile_id}`, e("a", { onclick: () => r({
		pane: "guards",
		guard: a.id
	}) }, "")), e("p", {}, a.fx_node ? `FX node: ${a.fx_node}${a.fx_node_inferred ? " (inferred)" : ""}` : `no FX node (control flow${a.instruction ? `, ${a.instruction}` : ""})`, a.kernel ? `; kernel ${a.kernel}` : ""), e("h4", {}, "user stack"), o(a.user_stack), e("details", {}, e("summary", {}, `framework stack (${a.framework_stack.length})`), o(a.framework_stack)), V(a.fixes), e("p", { class: "muted" }, `link: ${_({
		pane: "guard",
		id: a.id
	})}`));
}
function B(t) {
	let n = a(t), r = e("button", { onclick: () => navigator.clipboard?.writeText(t.code) }, "copy");
	return e("div", {
		class: "fix",
		"data-verified": n
	}, e("div", {}, e("span", { class: `badge ${n.replace(" ", "-")}` }, n), " ", e("span", { class: "kind" }, t.kind), t.effect ? e("span", { class: "effect" }, ` ${t.effect}`) : null, " ", r), e("pre", { class: "fix-code" }, t.code), t.explanation ? e("p", { class: "muted" }, t.explanation) : null);
}
function V(t) {
	return t.length ? e("div", { class: "fixes" }, e("h4", {}, t.length > 1 ? `fixes (${t.length}, best first)` : "fix"), ...t.map(B)) : null;
}
function H(t, n, i, a = {}) {
	let o = m(t), s = n.source ?? o[0] ?? "", c = h(t, s), l = e("ol", { class: "steps" }, ...(c?.steps ?? []).filter((e) => e.kind !== "fix").map((t) => e("li", { "data-kind": t.kind }, U(t, i, a))));
	return e("div", {}, r(o, s, "source", (e) => i({ source: e }), (e) => {
		let n = h(t, e)?.user_name;
		return n ? `${n} (${e})` : e;
	}), l, V(c?.fixes ?? []));
}
function U(t, n, r) {
	let i = t.guard;
	return i === null ? t.kind === "fix" ? e("pre", {}, t.text) : t.frame !== null && r.openFrame ? e("span", {}, O(t.frame, r), `  ${t.frame.line}`) : t.text : e("span", {
		class: "guard",
		"data-guard": i,
		onclick: () => n({
			pane: "guards",
			guard: i
		})
	}, t.text);
}
function W(t) {
	if (!t.kernels.length) return e("p", { class: "muted" }, "no generated kernels were captured (compile with the inductor backend)");
	let n = e("div");
	for (let r of t.graph_code.filter((e) => e.specialized_dims.length)) n.appendChild(e("h3", {}, `baked into ${r.graph} (compile ${r.compile_id})`)), n.appendChild(e("ul", {}, ...r.specialized_dims.map((t) => e("li", {}, `${t.source} = ${t.value} (was ${t.symbol}): ${t.explanation}`))));
	for (let e of t.kernels) n.appendChild(G(e));
	return n;
}
function G(t) {
	let n = t.size_args.map((e) => `${e.param} = ${e.expr} (${e.sources.join(", ")})`).join("; ");
	return e("details", {}, e("summary", {}, `${t.compile_id} ${t.graph} ${t.name}  `, e("span", { class: "muted" }, n)), e("p", {}, `computes: ${t.nodes.join(", ")}; literals: ${t.literals.map((e) => `${e.value} (${e.kind})`).join(", ")}`), K(t.source));
}
function K(t) {
	let n = e("pre");
	for (let r of t.split(/(\bks\d+\b|\b\d+L\b)/)) /^ks\d+$/.test(r) ? n.appendChild(e("span", { class: "sym" }, r)) : /^\d+L$/.test(r) ? n.appendChild(e("span", { class: "lit" }, r)) : n.appendChild(document.createTextNode(r));
	return n;
}
function q(t) {
	let n = t.sweeps;
	if (!n.length) return e("p", { class: "muted" }, "no sweep in this session: run session.sweep(...) to add one");
	let r = e("div");
	for (let t of n) {
		let n = t.prediction_held?.filter((e) => e === !1).length ?? 0;
		r.appendChild(e("p", {}, `${t.x.length} sizes of ${t.axis ?? "?"}; ${t.recompiled.filter(Boolean).length} recompiles; prediction missed ${n}`)), r.appendChild(e("div", {}, E(t)));
	}
	return r;
}
function J(e) {
	return e.split("/").pop() ?? e;
}
// src/styles.ts
var Y = "\n.sd { font: 13px/1.45 system-ui, -apple-system, \"Segoe UI\", sans-serif; color: #1f2328; }\n.sd header { display: flex; gap: 16px; align-items: baseline; padding: 8px 0; border-bottom: 1px solid #d0d7de; }\n.sd header h1 { font-size: 16px; margin: 0; }\n.sd .muted { color: #656d76; }\n.sd nav { display: flex; gap: 4px; margin: 8px 0; }\n.sd nav button { border: 1px solid #d0d7de; background: #f6f8fa; padding: 4px 10px; border-radius: 6px; cursor: pointer; }\n.sd nav button.on { background: #0969da; color: white; border-color: #0969da; }\n.sd .main { display: flex; gap: 12px; align-items: flex-start; }\n.sd .pane { flex: 1; min-width: 0; }\n.sd .detail { width: 42%; border-left: 1px solid #d0d7de; padding-left: 12px; }\n.sd table { border-collapse: collapse; width: 100%; }\n.sd th, .sd td { text-align: left; padding: 2px 6px; border-bottom: 1px solid #eaeef2; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 420px; }\n.sd th { cursor: pointer; background: #f6f8fa; position: sticky; top: 0; }\n.sd tr.row { cursor: pointer; height: 24px; }\n.sd tr.row:hover, .sd tr.row.on { background: #ddf4ff; }\n.sd .scroll { height: 480px; overflow-y: auto; border: 1px solid #eaeef2; }\n.sd .filters { display: flex; gap: 6px; margin-bottom: 6px; flex-wrap: wrap; }\n.sd code, .sd pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }\n.sd pre { background: #f6f8fa; padding: 8px; overflow-x: auto; border-radius: 6px; }\n.sd .cause { display: inline-block; padding: 0 6px; border-radius: 10px; background: #eaeef2; font-size: 11px; }\n.sd .cause.user_branch { background: #fff8c5; } .sd .cause.op_requirement { background: #ddf4ff; }\n.sd .cause.int_specialized, .sd .cause.static_by_default { background: #ffebe9; }\n.sd .cause.zero_one, .sd .cause.duck_sizing { background: #fbefff; }\n.sd .cause.inductor, .sd .cause.backward { background: #dafbe1; }\n.sd .cause.graph_break { background: #ffd8b5; } .sd .graph-break { margin: 6px 0 10px; }\n.sd .timeline { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin: 4px 0 12px; }\n.sd .compile { border: 1px solid #d0d7de; border-radius: 6px; padding: 2px 8px; cursor: pointer; }\n.sd .compile.failed { border-color: #cf222e; color: #cf222e; }\n.sd .arrow { color: #656d76; max-width: 360px; font-size: 12px; }\n.sd .steps li { margin: 4px 0; }\n.sd .steps .guard { cursor: pointer; text-decoration: underline dotted; }\n.sd .sym { background: #ddf4ff; } .sd .lit { background: #ffebe9; }\n.sd .problems { color: #9a6700; }\n.sd .fix { margin: 6px 0 10px; }\n.sd .fix pre { margin: 4px 0; white-space: pre-wrap; }\n.sd .fix .kind { color: #656d76; font-size: 11px; }\n.sd .badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 11px; background: #eaeef2; }\n.sd .badge.verified { background: #dafbe1; color: #116329; } .sd .badge.failed { background: #ffebe9; color: #a40e26; }\n.sd .frame-link { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; border: 0; padding: 0; background: none; color: #0969da; cursor: pointer; text-decoration: underline; }\n", X = [
	"overview",
	"symbols",
	"guards",
	"why",
	"kernels",
	"sizes"
];
function Z(e) {
	let t = g(e), n = {
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
	} : X.includes(t.pane) ? {
		...n,
		pane: t.pane
	} : n;
}
function Q(t, r, a = {}) {
	let o = i(r), s = e("div", { class: "sd" }), c = document.createElement("style");
	c.textContent = Y, n(t).append(c, s);
	let l = a.deepLinks ?? !0, u = Z(l && typeof location < "u" ? location.hash : ""), d = (e) => {
		u = {
			...u,
			...e
		}, l && typeof history < "u" && u.guard && history.replaceState(null, "", _({
			pane: "guard",
			id: u.guard
		})), f();
	}, f = () => {
		let t = e("div", {
			class: "pane",
			"data-pane": u.pane
		}, $(o, u, d, a)), n = u.guard ? e("div", { class: "detail" }, z(o, u.guard, d, a)) : null;
		s.replaceChildren(ee(o), te(u, d), e("div", { class: "main" }, t, n ?? ""));
	};
	f();
}
function $(e, t, n, r) {
	switch (t.pane) {
		case "symbols": return P(e, n);
		case "guards": return F(e, t, n, r);
		case "why": return H(e, t, n, r);
		case "kernels": return W(e);
		case "sizes": return q(e);
		default: return k(e, n, r);
	}
}
function ee(t) {
	let n = Object.entries(t.problems).map(([e, t]) => `${e} ${t}`).join(", ");
	return e("header", {}, e("h1", {}, "symdebug"), e("span", { class: "muted" }, t.source), e("span", {}, `${t.compiles.length} compiles, ${t.recompiles.length} recompiles, ${t.guards.length} guards`), n ? e("span", { class: "problems" }, `problems: ${n}`) : null);
}
function te(t, n) {
	return e("nav", {}, ...X.map((r) => e("button", {
		class: t.pane === r ? "on" : "",
		"data-tab": r,
		onclick: () => n({ pane: r })
	}, r)));
}
// src/widget.ts
var ne = { render({ model: t, el: n }) {
	let r = e("div"), a = e("pre", {
		class: "results",
		"data-results": ""
	}), o = e("div", {
		class: "error",
		"data-error": ""
	}), s = document.createElement("select");
	s.setAttribute("aria-label", "frame");
	let c = document.createElement("input");
	c.setAttribute("aria-label", "sizes"), c.placeholder = "arguments as JSON: [[17, 64], 3]  (a list of ints is a shape)", c.size = 48;
	let l = 0, u = (e) => {
		l += 1, t.set("request", {
			action: e,
			frame: s.value,
			args: c.value,
			id: l
		}), t.save_changes();
	}, d = e("div", { class: "controls" }, s, c, e("button", {
		"data-action": "predict",
		onclick: () => u("predict")
	}, "Predict"), e("button", {
		"data-action": "run",
		onclick: () => u("run")
	}, "Run")), f = e("button", {
		"data-action": "verify",
		onclick: () => u("verify")
	}, "Verify fixes"), p = () => {
		f.hidden = !t.get("can_verify");
	};
	d.append(f);
	let m = () => {
		let e = String(t.get("session_json") || "{}");
		if (e === "{}") return;
		let n = i(JSON.parse(e)), a = [...new Set(n.compiles.map((e) => e.name))];
		s.replaceChildren(...a.map((e) => {
			let t = document.createElement("option");
			return t.value = t.textContent = e, t;
		})), Q(r, n, { deepLinks: !1 });
	}, h = () => {
		let e = t.get("results") ?? [];
		a.textContent = e.map((e) => `[${e.id}] ${e.action}: ${e.text}`).join("\n");
	};
	t.on("change:session_json", m), t.on("change:results", h), t.on("change:can_verify", p), t.on("change:error", () => {
		o.textContent = String(t.get("error") ?? "");
	}), n.replaceChildren(d, o, a, r), m(), h(), p();
} };
export { ne as default };
