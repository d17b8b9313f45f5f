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
var i = [
	"guards",
	"symbols",
	"specializations",
	"recompiles",
	"explanations",
	"graph_breaks"
];
function a(e) {
	if (!("packed" in e)) return e;
	let t = { ...e.session };
	for (let n of e.tables) t[n] = s(t[n]);
	for (let n of i) t[n] = (t[n] ?? []).map((t) => ({
		...t,
		...typeof t.fix == "number" ? { fix: e.fixes[t.fix] } : {},
		fixes: t.fixes.map((t) => e.fix_objects[t])
	}));
	let n = e.frames.map(([e, t, n, r]) => ({
		filename: e,
		lineno: t,
		name: n,
		line: r
	})), r = t.guards.map((e) => ({
		...e,
		user_stack: e.user_stack.map((e) => n[e]),
		framework_stack: e.framework_stack.map((e) => n[e])
	}));
	return {
		...t,
		guards: r
	};
}
function o(e) {
	return e.verified === null ? "not tried" : e.verified ? "verified" : "failed";
}
function s(e) {
	return e.rows.map((t) => Object.fromEntries(e.columns.map((e, n) => [e, t[n]])));
}
function c(e, t) {
	let n = (t.text ?? "").toLowerCase();
	return e.filter((e) => (!t.cause || e.cause === t.cause) && (!t.status || e.status === t.status) && (!t.compile || e.compile_id === t.compile) && (!t.phase || e.phase === t.phase) && (!n || l(e).includes(n)));
}
function l(e) {
	let t = e.user_stack[e.user_stack.length - 1];
	return [
		e.expr,
		e.fx_node ?? "",
		e.sources.join(" "),
		t ? `${t.filename}:${t.lineno} ${t.line}` : ""
	].join(" ").toLowerCase();
}
function u(e, t, n = !1) {
	let r = n ? -1 : 1;
	return [...e].sort((e, n) => r * f(e[t], n[t]));
}
var d = new Intl.Collator(void 0, { numeric: !0 });
function f(e, t) {
	return d.compare(e, t);
}
function p(e, t) {
	return [...new Set(e.map(t))].sort((e, t) => f(e, t));
}
function m(e) {
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
function h(e) {
	return p(e.explanations, (e) => e.source);
}
function g(e, t) {
	return e.explanations.filter((e) => e.source === t);
}
function _(e, t) {
	return g(e, t).at(-1);
}
function v(e, t) {
	let n = e.compiles.find((e) => e.compile_id === t);
	if (!n) return `compile ${t}`;
	let r = n.generation ? `@${n.generation}` : "", i = n.filename ? `, ${n.filename}:${n.lineno}` : "";
	return `${n.callee?.qualname || n.name} (frame ${n.frame_id}${r}${i})`;
}
function ee(e) {
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
		label: v(e, n.get(t) ?? "")
	})));
}
function y(e) {
	let [t, ...n] = decodeURIComponent(e.replace(/^#/, "")).split("=");
	return n.length ? {
		pane: t,
		id: n.join("=")
	} : { pane: t || "overview" };
}
function b(e) {
	return `#${e.id === void 0 ? e.pane : `${e.pane}=${encodeURIComponent(e.id)}`}`;
}
function x(e, t, n, r, i = 10) {
	return [Math.max(0, Math.floor(e / n) - i), Math.min(r, Math.ceil((e + t) / n) + i)];
}
function S(e) {
	return e.sources.map((t, n) => e.user_names?.[n] ? `${e.user_names[n]} (${t})` : t).join(", ");
}
var C = /* @__PURE__ */ new WeakMap();
function w(e, t, n) {
	let r = C.get(e);
	return r || (r = new Map(e.map((e) => [t(e), e])), C.set(e, r)), r.get(n);
}
function te(e, t) {
	return t === null ? void 0 : w(e.guards, (e) => e.id, t);
}
function ne(e, t, n) {
	return w(e.symbols, (e) => `${e.compile_id}|${e.name}`, `${t}|${n}`);
}
function T(e, t) {
	return t === null ? void 0 : w(e.specializations, (e) => `${e.compile_id}|${e.source}`, t);
}
function E(e, t) {
	return t.symbols.map((n) => {
		let r = ne(e, t.compile_id, n);
		return r?.sources.length ? `${n} = ${S(r)}` : n;
	});
}
function re(e, t) {
	return e.recompiles.filter((e) => t.has(e.compile_id));
}
// src/chart.ts
var ie = "http://www.w3.org/2000/svg", D = 720, O = 300, k = 96, A = 36, j = 608, ae = 212, M = "#cf222e", N = "#0969da", oe = "#bc4c00", P = "#57606a";
function F(e, t, n) {
	let r = document.createElementNS(ie, e);
	for (let [e, n] of Object.entries(t)) r.setAttribute(e, String(n));
	return n !== void 0 && (r.textContent = n), r;
}
function I(e, ...t) {
	let n = F("g", e);
	for (let e of t) n.appendChild(e);
	return n;
}
function se(e) {
	let t = [...e.predicted, ...e.actual].filter((e) => !!e);
	return [...new Set(t)].sort(f).concat("recompile");
}
function ce(e, t, n = 6) {
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
function L(e) {
	if (e.x.every((e) => typeof e == "number")) {
		let t = e.x, [n, r] = [Math.min(...t), Math.max(...t)], i = (e) => 108 + (r > n ? (e - n) / (r - n) * 584 : j / 2);
		return {
			at: (e) => i(t[e]),
			ticks: ce(n, r).map((e) => [i(e), String(e)])
		};
	}
	let t = e.x.length, n = (e) => k + (e + .5) / Math.max(t, 1) * j, r = Math.max(1, Math.ceil(t / 8));
	return {
		at: n,
		ticks: e.x.flatMap((e, t) => t % r === 0 ? [[n(t), String(e)]] : [])
	};
}
function R(e) {
	let t = 188 / Math.max(e.length - 1, 1);
	return (n) => 48 + (e.length - 1 - e.indexOf(n ?? "recompile")) * t;
}
function z(e, t) {
	let n = e.ticks.map(([e, t]) => I({ class: "tick" }, F("line", {
		x1: e,
		x2: e,
		y1: 248,
		y2: 252,
		stroke: P
	}), F("text", {
		x: e,
		y: 264,
		"font-size": 11,
		"text-anchor": "middle"
	}, t)));
	return I({ "data-axis": "x" }, F("line", {
		x1: k,
		x2: 704,
		y1: 248,
		y2: 248,
		stroke: P
	}), ...n, F("text", {
		x: 400,
		y: 292,
		"font-size": 12,
		"text-anchor": "middle"
	}, t));
}
function B(e, t) {
	let n = e.map((e) => I({ class: "tick" }, F("line", {
		x1: 92,
		x2: 704,
		y1: t(e),
		y2: t(e),
		stroke: "#eaeef2"
	}), F("text", {
		x: 88,
		y: t(e) + 4,
		"font-size": 11,
		"text-anchor": "end"
	}, e)));
	return I({ "data-axis": "y" }, F("line", {
		x1: k,
		x2: k,
		y1: A,
		y2: 248,
		stroke: P
	}), ...n, F("text", {
		transform: "translate(14 142) rotate(-90)",
		"font-size": 12,
		"text-anchor": "middle"
	}, "cache entry that serves"));
}
function V(e, t, n = 4) {
	return F("path", {
		d: `M${e - n},${t - n}L${e + n},${t + n}M${e - n},${t + n}L${e + n},${t - n}`,
		stroke: oe,
		"stroke-width": 1.5
	});
}
function H() {
	let e = [
		[F("circle", {
			cx: 6,
			cy: -4,
			r: 4,
			fill: "none",
			stroke: N
		}), "predicted entry"],
		[V(6, -4), "entry that served (re-run)"],
		[F("line", {
			x1: 6,
			x2: 6,
			y1: -10,
			y2: 2,
			stroke: M,
			"stroke-width": 2
		}), "recompiled"]
	], t = [
		0,
		130,
		320
	];
	return I({
		"data-legend": "",
		transform: `translate(${k} 16)`
	}, ...e.map(([e, n], r) => I({ transform: `translate(${t[r]} 0)` }, e, F("text", {
		x: 16,
		y: 0,
		"font-size": 11
	}, n))));
}
function U(e, t) {
	let n = e.predicted[t] ?? "a recompile", r = e.actual[t], i = r === void 0 ? "not re-run" : `served by ${r ?? "eager (no entry)"}`, a = e.recompiled[t] ? "; recompiled" : "", o = e.prediction_held?.[t] === !1 ? "; prediction missed" : "";
	return `${e.axis ?? "point"} = ${String(e.x[t])}: predicted ${n}; ${i}${a}${o}`;
}
function W() {
	return I({
		"data-tooltip": "",
		visibility: "hidden",
		"pointer-events": "none"
	}, F("rect", {
		rx: 4,
		fill: "#1f2328",
		"fill-opacity": .9,
		height: 22
	}), F("text", {
		"font-size": 11,
		fill: "white",
		x: 6,
		y: 15
	}));
}
function G(e, t, n, r) {
	let [i, a] = [e.firstChild, e.lastChild];
	a.textContent = t;
	let o = a.getComputedTextLength() + 12;
	i.setAttribute("width", String(o));
	let s = Math.min(Math.max(n - o / 2, 0), D - o);
	e.setAttribute("transform", `translate(${s} ${Math.max(r - 30, 0)})`), e.setAttribute("visibility", "visible");
}
function le(e, t, n, r) {
	let i = I({
		class: "point",
		"data-point": t
	});
	e.recompiled[t] && i.appendChild(F("line", {
		x1: n,
		x2: n,
		y1: A,
		y2: 248,
		stroke: M,
		"stroke-opacity": .4
	})), i.appendChild(F("circle", {
		cx: n,
		cy: r(e.predicted[t]),
		r: 4,
		fill: "none",
		stroke: N
	}));
	let a = e.actual[t];
	a != null && i.appendChild(V(n, r(a)));
	let o = F("rect", {
		x: n - 6,
		y: A,
		width: 12,
		height: ae,
		fill: "transparent"
	});
	return o.appendChild(F("title", {}, U(e, t))), i.appendChild(o), i;
}
function ue(e) {
	let t = se(e), n = R(t), r = L(e), i = F("svg", {
		width: D,
		height: O,
		viewBox: `0 0 ${D} ${O}`,
		"data-chart": "sweep"
	});
	i.append(z(r, e.axis ?? "point"), B(t, n), H());
	let a = W();
	return e.x.forEach((t, o) => {
		let s = le(e, o, r.at(o), n);
		s.addEventListener("mouseenter", () => G(a, U(e, o), r.at(o), n(e.predicted[o]))), s.addEventListener("mouseleave", () => a.setAttribute("visibility", "hidden")), i.appendChild(s);
	}), i.appendChild(a), i;
}
// src/panes.ts
var K = 24;
function q(t, n, r = `${t.filename}:${t.lineno}`) {
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
function de(t, n, r = {}) {
	let i = e("div");
	for (let a of m(t)) {
		let o = {
			filename: a.filename,
			lineno: a.lineno,
			name: a.name,
			line: ""
		}, s = a.compiles[0]?.kind === "export", c = s ? `torch.export.${a.name}` : `frame ${a.name}`;
		i.appendChild(e("h3", {}, `${c}  `, e("span", { class: "muted" }, q(o, r))));
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
		let u = new Set(a.compiles.map((e) => e.compile_id));
		for (let e of re(t, u)) i.appendChild(fe(t, e, n, r));
		for (let e of (t.graph_breaks ?? []).filter((e) => u.has(e.compile_id))) i.appendChild(he(e, r));
	}
	return i;
}
function fe(t, n, r, i = {}) {
	let a = n.failed_entry ? ` (entry ${n.failed_entry} failed)` : "";
	return e("div", {
		class: "recompile",
		"data-recompile": n.compile_id
	}, e("div", {}, e("span", { class: `cause ${n.cause}` }, n.cause), ` compile ${n.compile_id} recompiled${a}`), pe(t, n, r, i), X(n.fixes, 1), e("details", { class: "reason" }, e("summary", {}, "torch's reason"), e("pre", {}, n.reasons.join("\n"))));
}
function pe(n, r, i, a) {
	let o = r.sources.map((e) => {
		let t = _(n, e)?.user_name;
		return t ? `${t} (${e})` : e;
	}), s = e("div", { class: "check" }, r.sources.length ? `inputs: ${o.join(", ")}` : ""), c = te(n, r.guard), l = T(n, r.specialization);
	return c ? t(s, me(n, c, i, a)) : l && s.append(`; ${l.source} was the constant ${l.value} in ${l.compile_id}`), s;
}
function me(t, n, r, i) {
	let a = n.user_stack[n.user_stack.length - 1], o = E(t, n).filter((e) => e.includes(" = ")), s = ["; failed check ", e("a", {
		class: "guard",
		"data-guard": n.id,
		onclick: () => r({
			pane: "guards",
			guard: n.id
		})
	}, n.expr)];
	return o.length && s.push(` (${o.join("; ")})`), a && s.push(" at ", q(a, i)), a?.line && s.push(e("pre", { class: "code" }, a.line)), s;
}
function he(t, n = {}) {
	let r = t.failed ? "the compile failed (the call raised)" : t.skipped ? "frame skipped for good (it runs eagerly, uncompiled)" : `resume frame ${t.resume_frames.join(", ") || "?"} (${t.resume_compiles.join(", ") || "not compiled"})`, i = t.user_frame ? q(t.user_frame, n) : e("code", {}, "(unknown line)"), a = e("div", {
		class: "graph-break",
		"data-compile": t.compile_id
	}, e("span", { class: "cause graph_break" }, "graph break"), " at ", i, `: ${t.reason} → ${r}`);
	t.expression && a.appendChild(e("div", { class: "data-dependent" }, `data-dependent: torch could not decide ${t.expression}`)), t.user_frame?.line && a.appendChild(e("pre", { class: "code" }, t.user_frame.line));
	for (let n of t.lost) {
		let r = n.marked ? "marked dynamic" : `dynamic (${n.symbol})`;
		a.appendChild(e("div", { class: "lost" }, `lost dynamism: ${n.source} was ${r} in ${t.compile_id}; the resume compile ${n.resume_compile} got ${n.resume_sources.join(", ")} = ${n.value} as a constant`));
	}
	let o = X(t.fixes);
	return o && a.appendChild(o), a;
}
function ge(e) {
	if (!e.origin) return "";
	let t = e.user_frame ? ` at ${e.user_frame.filename}:${e.user_frame.lineno}` : "", n = e.runtime_asserts?.length ? `; runtime asserts: ${e.runtime_asserts.join(", ")}` : "";
	return `${e.origin}${t}${n}`;
}
function _e(t) {
	return t.compiles.flatMap((t) => (t.expected_constants ?? []).map((n) => e("tr", { class: "expected" }, e("td", {}, t.compile_id), e("td", {}, "—"), e("td", {}, n))));
}
function ve(t, n) {
	let r = e("tbody");
	for (let i of t.symbols.filter((e) => !e.expected)) {
		let t = i.range ? `[${i.range[0]}, ${i.range[1]}]` : "";
		r.appendChild(e("tr", {
			class: "row",
			onclick: () => n({
				pane: "why",
				source: i.sources[0]
			})
		}, e("td", {}, i.compile_id), e("td", {}, i.name), e("td", {}, S(i)), e("td", {}, ge(i)), e("td", {}, i.hint ?? ""), e("td", {}, t), e("td", {}, i.state), e("td", {}, i.cause ? e("span", { class: `cause ${i.cause}` }, i.cause) : "")));
	}
	for (let e of _e(t)) r.appendChild(e);
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
function ye(t, n, i, a = {}) {
	let o = n.filter, s = (e, t) => r(t, o[e] ?? "", e, (t) => i({ filter: {
		...o,
		[e]: t || void 0
	} })), l = document.createElement("input");
	l.placeholder = "search expr, node, source, line", l.value = o.text ?? "", l.addEventListener("change", () => i({ filter: {
		...o,
		text: l.value || void 0
	} }));
	let d = u(c(t.guards, o), n.sort, n.descending);
	return e("div", {}, e("div", { class: "filters" }, s("cause", p(t.guards, (e) => e.cause)), s("status", p(t.guards, (e) => e.status)), s("compile", p(t.guards, (e) => e.compile_id)), s("phase", p(t.guards, (e) => e.phase)), l, e("span", {
		class: "muted",
		"data-count": String(d.length)
	}, `${d.length} of ${t.guards.length} guards`)), be(t, d, n, i, a));
}
function be(t, n, r, i, a) {
	let o = (t, n) => e("th", {
		"data-col": t,
		onclick: () => i({
			sort: t,
			descending: r.sort === t && !r.descending
		})
	}, n + (r.sort === t ? r.descending ? " ▼" : " ▲" : "")), s = e("tr", {}, o("compile_id", "compile"), o("expr", "guard"), e("th", {
		"data-col": "symbols",
		title: "each symbol of the guard and the input dimension it stands for"
	}, "symbols"), o("cause", "cause"), o("status", "status"), o("phase", "phase"), e("th", { "data-col": "line" }, "user line")), c = e("tbody"), l = e("div", { class: "scroll" }, e("table", { class: "guards" }, e("thead", {}, s), c)), u = () => {
		let [e, o] = x(l.scrollTop, l.clientHeight || 480, K, n.length);
		c.replaceChildren(J(e * K), ...n.slice(e, o).map((e) => xe(t, e, r, i, a)), J((n.length - o) * K));
	};
	return l.addEventListener("scroll", u), requestAnimationFrame(u), u(), l;
}
function J(t) {
	let n = e("tr");
	return n.style.height = `${t}px`, n;
}
function xe(t, n, r, i, a) {
	let o = n.user_stack[n.user_stack.length - 1], s = o ? `${ke(o.filename)}:${o.lineno}` : "", c = E(t, n).join("; ");
	return e("tr", {
		class: `row${r.guard === n.id ? " on" : ""}`,
		"data-guard": n.id,
		onclick: () => i({ guard: n.id })
	}, e("td", {}, n.compile_id), e("td", { title: n.expr }, n.expr), e("td", {
		title: c,
		"data-symbols": ""
	}, c), e("td", { title: n.cause }, e("span", { class: `cause ${n.cause}` }, n.cause)), e("td", { title: n.status }, n.status), e("td", { title: n.phase }, n.phase), e("td", { title: o?.line ?? "" }, o ? a.openFrame ? q(o, a, s) : s : ""));
}
function Se(t, n, r, i = {}) {
	let a = t.guards.find((e) => e.id === n);
	if (!a) return e("div", { class: "muted" }, `no guard ${n}`);
	let o = (t) => e("ol", {}, ...t.map((t) => e("li", {}, q(t, i, `${t.filename}:${t.lineno} in ${t.name}`), t.line ? e("pre", {}, t.line) : null)));
	return e("div", { "data-detail": a.id }, e("h3", {}, e("code", {}, a.expr)), e("p", {}, e("span", { class: `cause ${a.cause}` }, a.cause), ` ${a.status}, ${a.phase}, compile ${a.compile_id}`, e("a", { onclick: () => r({
		pane: "guards",
		guard: a.id
	}) }, "")), e("p", {}, a.fx_node ? `FX node: ${a.fx_node}${a.fx_node_inferred ? " (inferred)" : ""}` : `no FX node (control flow${a.instruction ? `, ${a.instruction}` : ""})`, a.kernel ? `; kernel ${a.kernel}` : ""), Ce(t, a), e("h4", {}, "user stack"), o(a.user_stack), e("details", {}, e("summary", {}, `framework stack (${a.framework_stack.length})`), o(a.framework_stack)), X(a.fixes), e("p", { class: "muted" }, `link: ${b({
		pane: "guard",
		id: a.id
	})}`));
}
function Ce(t, n) {
	if (!n.symbols.length) return null;
	let r = E(t, n).map((t) => e("li", {}, e("code", {}, t)));
	return e("div", { class: "symbols" }, e("h4", {}, "symbols"), e("ul", {}, ...r));
}
function Y(t) {
	let n = o(t), r = e("button", { onclick: () => navigator.clipboard?.writeText(t.code) }, "copy");
	return e("div", {
		class: "fix",
		"data-verified": n
	}, e("div", {}, e("span", { class: `badge ${n.replace(" ", "-")}` }, n), " ", e("span", { class: "kind" }, t.kind), t.effect ? e("span", { class: "effect" }, ` ${t.effect}`) : null, " ", r), e("pre", { class: "fix-code" }, t.code), t.explanation ? e("p", { class: "muted" }, t.explanation) : null);
}
function X(t, n = t.length) {
	if (!t.length) return null;
	let r = t.length > 1 ? `fixes (${t.length}, best first)` : "fix", i = t.slice(n), a = i.length ? e("details", {}, e("summary", {}, `${i.length} more ${i.length > 1 ? "fixes" : "fix"}`), ...i.map(Y)) : null;
	return e("div", { class: "fixes" }, e("h4", {}, r), ...t.slice(0, n).map(Y), a);
}
function we(t, n, i, a = {}) {
	let o = h(t), s = n.source ?? o[0] ?? "", c = g(t, s), l = c.at(-1), u = c.slice(0, -1).map((n) => e("details", { class: "other-frame" }, e("summary", {}, `also in ${v(t, n.compile_id)}`), Z(n.steps, i, a), X(n.fixes)));
	return e("div", {}, r(o, s, "source", (e) => i({ source: e }), (e) => {
		let n = _(t, e)?.user_name;
		return n ? `${n} (${e})` : e;
	}), l && c.length > 1 ? e("p", { class: "frame-of" }, `in ${v(t, l.compile_id)}`) : null, Z(l?.steps ?? [], i, a), X(l?.fixes ?? []), ...u);
}
function Z(t, n, r) {
	return e("ol", { class: "steps" }, ...t.filter((e) => e.kind !== "fix").map((t) => e("li", { "data-kind": t.kind }, Te(t, n, r))));
}
function Te(t, n, r) {
	let i = t.guard;
	return i === null ? t.kind === "fix" ? e("pre", {}, t.text) : t.frame !== null && r.openFrame ? e("span", {}, q(t.frame, r), `  ${t.frame.line}`) : t.text : e("span", {
		class: "guard",
		"data-guard": i,
		onclick: () => n({
			pane: "guards",
			guard: i
		})
	}, t.text);
}
function Ee(t) {
	if (!t.kernels.length) return e("p", { class: "muted" }, "no generated kernels were captured (compile with the inductor backend)");
	let n = e("div");
	for (let r of t.graph_code.filter((e) => e.specialized_dims.length)) n.appendChild(e("h3", {}, `baked into ${r.graph} (compile ${r.compile_id})`)), n.appendChild(e("ul", {}, ...r.specialized_dims.map((t) => e("li", {}, `${t.source} = ${t.value} (was ${t.symbol}): ${t.explanation}`))));
	for (let e of t.kernels) n.appendChild(De(e));
	return n;
}
function De(t) {
	let n = t.size_args.map((e) => `${e.param} = ${e.expr} (${e.sources.join(", ")})`).join("; ");
	return e("details", {}, e("summary", {}, `${t.compile_id} ${t.graph} ${t.name}  `, e("span", { class: "muted" }, n)), e("p", {}, `computes: ${t.nodes.join(", ")}; literals: ${t.literals.map((e) => `${e.value} (${e.kind})`).join(", ")}`), Oe(t.source));
}
function Oe(t) {
	let n = e("pre");
	for (let r of t.split(/(\bks\d+\b|\b\d+L\b)/)) /^ks\d+$/.test(r) ? n.appendChild(e("span", { class: "sym" }, r)) : /^\d+L$/.test(r) ? n.appendChild(e("span", { class: "lit" }, r)) : n.appendChild(document.createTextNode(r));
	return n;
}
function Q(t) {
	let n = t.sweeps;
	if (!n.length) return e("p", { class: "muted" }, "no sweep in this session: run session.sweep(...) to add one");
	let r = e("div");
	for (let t of n) {
		let n = t.prediction_held?.filter((e) => e === !1).length ?? 0, i = t.axis === "runs" ? `${t.x.length} re-runs` : `${t.x.length} sizes of ${t.axis ?? "?"}`, a = t.recompiled.filter(Boolean).length;
		r.appendChild(e("p", {}, `${i}; ${a} recompiles; prediction missed ${n}`)), r.appendChild(e("div", { class: "chart" }, ue(t)));
	}
	return r;
}
function ke(e) {
	return e.split("/").pop() ?? e;
}
// src/styles.ts
var Ae = "\n.sd { font: 13px/1.45 system-ui, -apple-system, \"Segoe UI\", sans-serif; color: #1f2328; overflow-wrap: anywhere; }\n.sd header { display: flex; gap: 16px; align-items: baseline; padding: 8px 0; border-bottom: 1px solid #d0d7de; }\n.sd header h1 { font-size: 16px; margin: 0; }\n.sd .muted { color: #656d76; }\n.sd nav { display: flex; gap: 4px; margin: 8px 0; }\n.sd nav button { border: 1px solid #d0d7de; background: #f6f8fa; padding: 4px 10px; border-radius: 6px; cursor: pointer; }\n.sd nav button.on { background: #0969da; color: white; border-color: #0969da; }\n.sd .main { display: flex; gap: 12px; align-items: flex-start; }\n.sd .pane { flex: 1; min-width: 0; }\n.sd .detail { flex: 0 0 42%; min-width: 0; box-sizing: border-box; border-left: 1px solid #d0d7de; padding-left: 12px; }\n.sd .detail pre { white-space: pre-wrap; }\n.sd table { border-collapse: collapse; width: 100%; }\n.sd th, .sd td { text-align: left; padding: 2px 6px; border-bottom: 1px solid #eaeef2; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 420px; }\n.sd table.guards { table-layout: fixed; }\n.sd table.guards th[data-col=compile_id] { width: 8%; } .sd table.guards th[data-col=expr] { width: 20%; }\n.sd table.guards th[data-col=symbols] { width: 24%; } .sd table.guards th[data-col=cause] { width: 14%; }\n.sd table.guards th[data-col=status] { width: 11%; } .sd table.guards th[data-col=phase] { width: 9%; }\n.sd table.guards th[data-col=line] { width: 14%; }\n.sd th { cursor: pointer; background: #f6f8fa; position: sticky; top: 0; }\n.sd tr.row { cursor: pointer; height: 24px; }\n.sd tr.row:hover, .sd tr.row.on { background: #ddf4ff; }\n.sd .scroll { height: 480px; overflow-y: auto; border: 1px solid #eaeef2; }\n.sd .filters { display: flex; gap: 6px; margin-bottom: 6px; flex-wrap: wrap; }\n.sd code, .sd pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }\n.sd pre { background: #f6f8fa; padding: 8px; overflow-x: auto; border-radius: 6px; }\n.sd .cause { display: inline-block; padding: 0 6px; border-radius: 10px; background: #eaeef2; font-size: 11px; }\n.sd .cause.user_branch { background: #fff8c5; } .sd .cause.op_requirement { background: #ddf4ff; }\n.sd .cause.int_specialized, .sd .cause.static_by_default { background: #ffebe9; }\n.sd .cause.zero_one, .sd .cause.duck_sizing { background: #fbefff; }\n.sd .cause.inductor, .sd .cause.backward { background: #dafbe1; }\n.sd .cause.graph_break { background: #ffd8b5; } .sd .graph-break { margin: 6px 0 10px; }\n.sd .timeline { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin: 4px 0 12px; }\n.sd .compile { border: 1px solid #d0d7de; border-radius: 6px; padding: 2px 8px; cursor: pointer; }\n.sd .compile.failed { border-color: #cf222e; color: #cf222e; }\n.sd .arrow { color: #656d76; max-width: 360px; font-size: 12px; }\n.sd .steps li { margin: 4px 0; }\n.sd .steps .guard { cursor: pointer; text-decoration: underline dotted; }\n.sd .sym { background: #ddf4ff; } .sd .lit { background: #ffebe9; }\n.sd .problems { color: #9a6700; }\n.sd .fix { margin: 6px 0 10px; }\n.sd .fix pre { margin: 4px 0; white-space: pre-wrap; overflow-x: visible; }\n.sd .fixes { min-width: 0; max-width: 100%; }\n.sd .recompile { margin: 6px 0 14px; padding-left: 8px; border-left: 3px solid #d0d7de; }\n.sd .recompile .check { margin: 2px 0; }\n.sd .recompile .guard { cursor: pointer; text-decoration: underline dotted; }\n.sd .recompile .reason pre { white-space: pre-wrap; }\n.sd .chart svg { max-width: 100%; height: auto; }\n.sd .fix .kind { color: #656d76; font-size: 11px; }\n.sd .badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 11px; background: #eaeef2; }\n.sd .badge.verified { background: #dafbe1; color: #116329; } .sd .badge.failed { background: #ffebe9; color: #a40e26; }\n.sd .frame-link { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; border: 0; padding: 0; background: none; color: #0969da; cursor: pointer; text-decoration: underline; }\n", $ = [
	"overview",
	"symbols",
	"guards",
	"why",
	"kernels",
	"sizes"
];
function je(e) {
	let t = y(e), n = {
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
	} : $.includes(t.pane) ? {
		...n,
		pane: t.pane
	} : n;
}
function Me(t, r, i = {}) {
	let o = a(r), s = e("div", { class: "sd" }), c = document.createElement("style");
	c.textContent = Ae, n(t).append(c, s);
	let l = i.deepLinks ?? !0, u = je(l && typeof location < "u" ? location.hash : ""), d = (e) => {
		u = {
			...u,
			...e
		}, l && typeof history < "u" && history.replaceState(null, "", Ne(u)), f();
	}, f = () => {
		let t = e("div", {
			class: "pane",
			"data-pane": u.pane
		}, Fe(o, u, d, i));
		s.replaceChildren(Ie(o), Le(u, d), e("div", { class: "main" }, t, Pe(o, u, d, i)));
	};
	f();
}
function Ne(e) {
	return e.pane === "guards" && e.guard ? b({
		pane: "guard",
		id: e.guard
	}) : b({ pane: e.pane });
}
function Pe(t, n, r, i) {
	return n.pane !== "guards" || !n.guard ? null : e("div", {
		class: "detail",
		"data-detail-of": "guards"
	}, Se(t, n.guard, r, i));
}
function Fe(e, t, n, r) {
	switch (t.pane) {
		case "symbols": return ve(e, n);
		case "guards": return ye(e, t, n, r);
		case "why": return we(e, t, n, r);
		case "kernels": return Ee(e);
		case "sizes": return Q(e);
		default: return de(e, n, r);
	}
}
function Ie(t) {
	let n = Object.entries(t.problems).map(([e, t]) => `${e} ${t}`).join(", ");
	return e("header", {}, e("h1", {}, "symdebug"), e("span", { class: "muted" }, t.source), e("span", {}, `${t.compiles.length} compiles, ${t.recompiles.length} recompiles, ${t.guards.length} guards`), n ? e("span", { class: "problems" }, `problems: ${n}`) : null);
}
function Le(t, n) {
	return e("nav", {}, ...$.map((r) => e("button", {
		class: t.pane === r ? "on" : "",
		"data-tab": r,
		onclick: () => n({ pane: r })
	}, r)));
}
// src/patch.ts
function Re(e, t) {
	let n = e;
	for (let e of t) n = ze(n, e);
	return n;
}
function ze(e, t) {
	if (!t.path.length) return t.value;
	let n = { ...e }, r = n;
	for (let e of t.path.slice(0, -1)) r[e] = { ...r[e] }, r = r[e];
	let i = t.path[t.path.length - 1];
	return r[i] = t.op === "append" ? [...r[i], ...t.items ?? []] : t.value, n;
}
// src/widget.ts
var Be = { render({ model: t, el: n }) {
	let r = e("div"), i = e("pre", {
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
	let m = null, h = 0, g = 0, _ = () => {
		let e = String(t.get("session_json") || "{}");
		e !== "{}" && (m = JSON.parse(e), h = Number(t.get("base_revision") ?? 0), y(), Number(t.get("revision") ?? 0) > h && t.send({ type: "resend" }));
	}, v = (e) => {
		let n = e;
		if (n?.type === "patch" && m !== null) {
			if (n.from !== h) return t.send({ type: "resend" });
			m = Re(m, JSON.parse(n.operations)), h = n.from + 1, g += 1, y();
		}
	}, y = () => {
		if (m === null) return;
		n.dataset.revision = String(h), n.dataset.patches = String(g);
		let e = a(m);
		s.replaceChildren(...ee(e).map((e) => {
			let t = document.createElement("option");
			return t.value = e.value, t.textContent = e.label, t;
		})), Me(r, e, { deepLinks: !1 });
	}, b = () => {
		let e = t.get("results") ?? [];
		i.textContent = e.map((e) => `[${e.id}] ${e.action}: ${e.text}`).join("\n");
	};
	t.on("change:session_json", _), t.on("msg:custom", v), t.on("change:results", b), t.on("change:can_verify", p), t.on("change:error", () => {
		o.textContent = String(t.get("error") ?? "");
	}), n.replaceChildren(d, o, i, r), _(), b(), p();
} };
export { Be as default };
