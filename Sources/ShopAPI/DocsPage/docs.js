// The API reference at /docs: renders /openapi.json (operations by tag, parameters, schemas,
// examples) and sends "try it" requests with fetch to this same origin. Every text from the
// document goes into the page through text nodes, never as HTML.
"use strict";

(() => {
  const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
  const TOKEN_KEY = "floral.docs.token";
  let doc = null;

  /** An element with attributes (`text`, `class`, `on<event>`) and children (strings become text nodes). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value == null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child == null || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  /** Description text: paragraphs on blank lines, `backticks` as code, line breaks kept. */
  function rich(text, tag = "div") {
    const box = el(tag, { class: "rich" });
    if (!text) return box;
    for (const paragraph of String(text).split(/\n{2,}/)) {
      const p = el("p");
      String(paragraph).split("`").forEach((part, index) => {
        if (index % 2 === 1) p.append(el("code", { text: part }));
        else part.split("\n").forEach((line, n) => { if (n > 0) p.append(el("br")); p.append(line); });
      });
      box.append(p);
    }
    return box;
  }

  /** Follows `$ref`s within the document: the target and the name of the last one. */
  function resolve(value) {
    let name = null;
    for (let hops = 0; value && typeof value === "object" && typeof value.$ref === "string" && hops < 32; hops++) {
      const ref = value.$ref;
      if (!ref.startsWith("#/")) return { value: {}, name: ref };
      name = decodeURIComponent(ref.split("/").pop().replace(/~1/g, "/").replace(/~0/g, "~"));
      let target = doc;
      for (const raw of ref.slice(2).split("/")) {
        const key = decodeURIComponent(raw.replace(/~1/g, "/").replace(/~0/g, "~"));
        target = target && typeof target === "object" ? target[key] : undefined;
      }
      value = target;
    }
    return { value: value || {}, name };
  }

  // ---- schemas ----

  function typeText(schema) {
    if (schema.const !== undefined) return "const " + JSON.stringify(schema.const);
    let type = Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type;
    if (!type) {
      if (schema.properties) type = "object";
      else if (schema.items) type = "array";
      else if (schema.oneOf) type = "one of";
      else if (schema.anyOf) type = "any of";
      else if (schema.allOf) type = "all of";
      else type = "any";
    }
    if (schema.items && (type === "array" || (Array.isArray(schema.type) && schema.type.includes("array")))) {
      const item = resolve(schema.items);
      type = type.replace("array", "array of " + (item.name || typeText(item.value)));
    }
    if (schema.format) type += " (" + schema.format + ")";
    if (schema.contentMediaType) type += " (" + schema.contentMediaType + ")";
    return type;
  }

  function constraints(schema) {
    const notes = [];
    if (schema.enum) notes.push("one of " + schema.enum.map((v) => JSON.stringify(v)).join(", "));
    const pairs = [["minimum", "≥ "], ["exclusiveMinimum", "> "], ["maximum", "≤ "], ["exclusiveMaximum", "< "],
      ["minLength", "length ≥ "], ["maxLength", "length ≤ "], ["minItems", "items ≥ "], ["maxItems", "items ≤ "],
      ["pattern", "pattern "], ["default", "default "]];
    for (const [key, label] of pairs) {
      if (schema[key] !== undefined) notes.push(label + (typeof schema[key] === "string" && key !== "pattern" ? JSON.stringify(schema[key]) : schema[key]));
    }
    if (schema.readOnly) notes.push("read-only");
    if (schema.deprecated) notes.push("deprecated");
    return notes;
  }

  /** A schema as a tree: type, constraints and description, then properties, items or alternatives. */
  function schemaView(input, seen = [], depth = 0, describe = true) {
    const { value: schema, name } = resolve(input);
    const box = el("div", { class: "schema" });
    const head = el("div", { class: "schema-head" },
      name ? el("span", { class: "ref", text: name }) : null,
      el("span", { class: "type", text: typeText(schema) }),
      constraints(schema).map((note) => el("span", { class: "note", text: note })));
    // Under a property's own line (`describe` false) the type and description are already shown.
    if (describe) box.append(head);
    if (describe && schema.description) box.append(rich(schema.description));
    if (name && seen.includes(name)) {
      box.append(el("div", { class: "note", text: "(" + name + " again, as above)" }));
      return box;
    }
    if (depth > 10) return box;
    const inside = name ? [...seen, name] : seen;
    if (schema.properties) {
      const required = new Set(schema.required || []);
      const list = el("ul", { class: "props" });
      for (const [prop, sub] of Object.entries(schema.properties)) {
        const resolved = resolve(sub).value;
        const item = el("li", {},
          el("div", { class: "prop-head" },
            el("code", { class: "prop", text: prop }),
            required.has(prop) ? el("span", { class: "req", text: "required" }) : null,
            el("span", { class: "type", text: resolve(sub).name || typeText(resolved) }),
            constraints(resolved).map((note) => el("span", { class: "note", text: note }))),
          (sub.description || resolved.description) ? rich(sub.description || resolved.description) : null);
        if (hasStructure(resolved)) item.append(schemaView(sub, inside, depth + 1, false));
        list.append(item);
      }
      box.append(list);
    }
    if (schema.items && hasStructure(resolve(schema.items).value)) {
      box.append(el("div", { class: "label", text: "each item:" }), schemaView(schema.items, inside, depth + 1));
    }
    if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
      box.append(el("div", { class: "label", text: "each value:" }), schemaView(schema.additionalProperties, inside, depth + 1));
    }
    for (const key of ["oneOf", "anyOf", "allOf"]) {
      if (!Array.isArray(schema[key])) continue;
      const list = el("ol", { class: "alternatives" });
      for (const sub of schema[key]) list.append(el("li", {}, schemaView(sub, inside, depth + 1)));
      box.append(el("div", { class: "label", text: { oneOf: "one of:", anyOf: "any of:", allOf: "all of:" }[key] }), list);
    }
    return box;
  }

  function hasStructure(schema) {
    return !!(schema.properties || schema.oneOf || schema.anyOf || schema.allOf
      || (schema.items && hasStructure(resolve(schema.items).value))
      || (schema.additionalProperties && typeof schema.additionalProperties === "object"));
  }

  /** A value that fits `schema`, for a request body without an example. */
  function sample(input, depth = 0) {
    const schema = resolve(input).value;
    if (schema.example !== undefined) return schema.example;
    if (schema.examples && schema.examples.length) return schema.examples[0];
    if (schema.default !== undefined) return schema.default;
    if (schema.const !== undefined) return schema.const;
    if (schema.enum) return schema.enum[0];
    if (depth > 6) return null;
    const alternatives = schema.oneOf || schema.anyOf;
    if (alternatives) return sample(alternatives[0], depth + 1);
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
    if (schema.properties || type === "object") {
      const out = {};
      for (const [name, sub] of Object.entries(schema.properties || {})) out[name] = sample(sub, depth + 1);
      return out;
    }
    if (type === "array") return schema.items ? [sample(schema.items, depth + 1)] : [];
    if (type === "integer" || type === "number") return schema.minimum !== undefined ? schema.minimum : 1;
    if (type === "boolean") return true;
    if (type === "string") return "";
    return null;
  }

  function examplesOf(media) {
    const out = [];
    if (media.example !== undefined) out.push({ title: "Example", value: media.example });
    for (const [key, raw] of Object.entries(media.examples || {})) {
      const example = resolve(raw).value;
      if (example.value !== undefined) out.push({ title: example.summary || key, value: example.value });
    }
    return out;
  }

  function pretty(value) {
    return typeof value === "string" ? value : JSON.stringify(value, null, 2);
  }

  // ---- operations ----

  function operations() {
    const list = [];
    for (const [path, rawItem] of Object.entries(doc.paths || {})) {
      const item = resolve(rawItem).value;
      for (const method of METHODS) {
        if (!item[method]) continue;
        const op = item[method];
        const params = [...(item.parameters || []), ...(op.parameters || [])].map((p) => resolve(p).value);
        const byKey = new Map(params.map((p) => [p.in + ":" + p.name, p]));
        list.push({ path, method, op, params: [...byKey.values()], id: op.operationId || method + path });
      }
    }
    return list;
  }

  function security(op) {
    const requirements = op.security || doc.security || [];
    if (!requirements.length) return null;
    const optional = requirements.some((r) => Object.keys(r).length === 0);
    return optional ? el("span", { class: "lock optional", text: "token optional", title: "A valid bearer token personalises the answer" })
      : el("span", { class: "lock", text: "token required", title: "Needs Authorization: Bearer <token>" });
  }

  function operationView(entry) {
    const { path, method, op } = entry;
    const details = el("details", { class: "op", id: "op-" + entry.id, "data-search": [method, path, op.summary || "", entry.id].join(" ").toLowerCase() });
    const summary = el("summary", {},
      el("span", { class: "method m-" + method, text: method.toUpperCase() }),
      el("code", { class: "path", text: path }),
      el("span", { class: "summary", text: op.summary || "" }),
      security(op));
    details.append(summary);
    let built = false;
    details.addEventListener("toggle", () => {
      if (details.open && !built) {
        built = true;
        details.append(operationBody(entry));
      }
      if (details.open && location.hash !== "#" + details.id) history.replaceState(null, "", "#" + details.id);
    });
    return details;
  }

  function operationBody(entry) {
    const { op } = entry;
    const body = el("div", { class: "op-body" });
    if (op.description) body.append(rich(op.description));
    body.append(el("div", { class: "op-id" }, "operationId ", el("code", { text: entry.id })));
    if (entry.params.length) {
      const table = el("table", { class: "params" },
        el("thead", {}, el("tr", {}, ["Name", "In", "Type", "Required", "Description"].map((h) => el("th", { text: h })))));
      const rows = el("tbody");
      for (const p of entry.params) {
        const schema = resolve(p.schema || {}).value;
        rows.append(el("tr", {},
          el("td", { "data-label": "Name" }, el("code", { text: p.name })),
          el("td", { "data-label": "In", text: p.in }),
          el("td", { "data-label": "Type" }, el("span", { class: "type", text: typeText(schema) }),
            constraints(schema).map((note) => el("span", { class: "note", text: note }))),
          el("td", { "data-label": "Required", text: p.required ? "yes" : "no" }),
          el("td", { "data-label": "Description" }, rich(p.description),
            p.example !== undefined ? el("div", { class: "note" }, "example ", el("code", { text: pretty(p.example) })) : null)));
      }
      table.append(rows);
      body.append(el("h4", { text: "Parameters" }), el("div", { class: "table-wrap" }, table));
    }
    if (op.requestBody) {
      const request = resolve(op.requestBody).value;
      body.append(el("h4", {}, "Request body", request.required ? el("span", { class: "req", text: "required" }) : null));
      if (request.description) body.append(rich(request.description));
      for (const [type, media] of Object.entries(request.content || {})) body.append(mediaView(type, media));
    }
    body.append(el("h4", { text: "Responses" }));
    for (const [status, raw] of Object.entries(op.responses || {})) {
      const response = resolve(raw).value;
      const box = el("div", { class: "response" },
        el("div", { class: "response-head" },
          el("span", { class: "status s" + String(status)[0], text: status }),
          rich(response.description, "span")));
      const headers = Object.entries(response.headers || {});
      if (headers.length) {
        box.append(el("ul", { class: "headers" }, headers.map(([name, header]) => {
          const h = resolve(header).value;
          return el("li", {}, el("code", { text: name }), " ", rich(h.description, "span"));
        })));
      }
      for (const [type, media] of Object.entries(response.content || {})) box.append(mediaView(type, media));
      body.append(box);
    }
    body.append(tryIt(entry));
    return body;
  }

  function mediaView(type, media) {
    const box = el("div", { class: "media" }, el("div", { class: "media-type" }, el("code", { text: type })));
    if (media.schema) box.append(schemaView(media.schema));
    for (const example of examplesOf(media)) {
      box.append(el("details", { class: "example" }, el("summary", { text: example.title }), el("pre", { text: pretty(example.value) })));
    }
    return box;
  }

  // ---- try it ----

  function tryIt(entry) {
    const { path, method, op } = entry;
    const form = el("form", { class: "try", novalidate: true });
    const fields = [];
    for (const p of entry.params.filter((p) => p.in === "path" || p.in === "query" || p.in === "header")) {
      const schema = resolve(p.schema || {}).value;
      const id = "try-" + entry.id + "-" + p.in + "-" + p.name;
      const input = schema.enum
        ? el("select", { id }, el("option", { value: "", text: "" }), schema.enum.map((v) => el("option", { value: v, text: v })))
        : el("input", { id, type: "text", spellcheck: "false", placeholder: p.example !== undefined ? String(p.example) : "" });
      if (p.in === "path" && p.example !== undefined) input.value = String(p.example);
      fields.push({ p, input });
      form.append(el("label", { for: id, class: "field" },
        el("span", {}, el("code", { text: p.name }), " ", el("small", { text: p.in + (p.required ? ", required" : "") })), input));
    }
    const language = el("select", { id: "try-" + entry.id + "-lang" },
      el("option", { value: "zh-CN", text: "zh-CN (中文)" }), el("option", { value: "en", text: "en (English)" }));
    form.append(el("label", { for: language.id, class: "field" }, el("span", {}, el("code", { text: "Accept-Language" })), language));
    let editor = null;
    const requestBody = op.requestBody ? resolve(op.requestBody).value : null;
    const contents = Object.entries((requestBody && requestBody.content) || {});
    const [bodyType, media] = contents.find(([type]) => type === "application/json") || contents[0] || [null, null];
    if (media) {
      const examples = examplesOf(media);
      const initial = examples.length ? examples[0].value : sample(media.schema || {});
      editor = el("textarea", { id: "try-" + entry.id + "-body", rows: 8, spellcheck: "false", class: "editor" });
      editor.value = pretty(initial);
      form.append(el("label", { for: editor.id, class: "field wide" },
        el("span", {}, "Body ", el("code", { text: bodyType })), editor));
    }
    const send = el("button", { type: "submit", class: "send", text: "Send " + method.toUpperCase() });
    const result = el("div", { class: "result", "aria-live": "polite" });
    form.append(el("div", { class: "actions" }, send), result);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      result.replaceChildren();
      let url = path;
      const query = new URLSearchParams();
      const headers = { "Accept-Language": language.value };
      for (const { p, input } of fields) {
        const value = input.value.trim();
        if (!value) {
          if (p.in === "path") { result.append(el("p", { class: "error", text: "Fill in " + p.name + "." })); return; }
          continue;
        }
        if (p.in === "path") url = url.replace("{" + p.name + "}", encodeURIComponent(value));
        else if (p.in === "query") query.append(p.name, value);
        else headers[p.name] = value;
      }
      const token = document.getElementById("token").value.trim();
      if (token) headers.Authorization = "Bearer " + token;
      const init = { method: method.toUpperCase(), headers, cache: "no-store" };
      if (editor && editor.value.trim() && method !== "get" && method !== "head") {
        init.body = editor.value;
        headers["Content-Type"] = bodyType;
      }
      const full = url + (query.toString() ? "?" + query : "");
      send.disabled = true;
      const started = performance.now();
      try {
        const response = await fetch(full, init);
        const ms = Math.round(performance.now() - started);
        const type = response.headers.get("Content-Type") || "";
        let text;
        if (/json|text|javascript|xml/.test(type) || !type) {
          text = await response.text();
          if (/json/.test(type)) { try { text = JSON.stringify(JSON.parse(text), null, 2); } catch (_) { /* shown as sent */ } }
        } else {
          text = "(" + (await response.arrayBuffer()).byteLength + " bytes of " + type + ")";
        }
        const lines = [];
        response.headers.forEach((value, name) => lines.push(name + ": " + value));
        result.append(
          el("div", { class: "result-head" },
            el("span", { class: "status s" + String(response.status)[0], text: String(response.status) }),
            el("span", { text: " " + response.statusText + " · " + ms + " ms · " }),
            el("code", { class: "sent", text: init.method + " " + full })),
          el("details", { class: "result-headers" }, el("summary", { text: "Headers (" + lines.length + ")" }), el("pre", { text: lines.join("\n") })),
          el("pre", { class: "result-body", text: text || "(no body)" }));
      } catch (error) {
        result.append(el("p", { class: "error", text: "The request failed: " + error.message }));
      } finally {
        send.disabled = false;
      }
    });
    return el("section", { class: "try-box" }, el("h4", { text: "Try it" }), form);
  }

  // ---- page ----

  function render() {
    const info = doc.info || {};
    document.title = (info.title || "API") + " · docs";
    document.getElementById("title").textContent = info.title || "API";
    document.getElementById("version").textContent = info.version ? "v" + info.version : "";
    const main = document.getElementById("main");
    const intro = el("section", { class: "intro" }, rich(info.description));
    const servers = (doc.servers || []).map((s) => el("li", {}, el("code", { text: s.url }), s.description ? " " + s.description : ""));
    intro.append(el("p", { class: "links" }, "Document: ", el("a", { href: "/openapi.json", text: "/openapi.json" }),
      servers.length ? " · servers:" : ""), servers.length ? el("ul", { class: "servers" }, servers) : null);
    const schemes = Object.entries((doc.components && doc.components.securitySchemes) || {});
    if (schemes.length) {
      intro.append(el("dl", { class: "schemes" }, schemes.map(([name, raw]) => {
        const scheme = resolve(raw).value;
        return [el("dt", {}, el("code", { text: name }), " ", el("span", { class: "note", text: [scheme.type, scheme.scheme].filter(Boolean).join(" ") })),
          el("dd", {}, rich(scheme.description))];
      })));
    }
    main.replaceChildren(intro);

    const all = operations();
    const tags = (doc.tags || []).map((t) => ({ name: t.name, description: t.description }));
    for (const entry of all) {
      for (const name of entry.op.tags && entry.op.tags.length ? entry.op.tags : ["other"]) {
        if (!tags.some((t) => t.name === name)) tags.push({ name });
      }
    }
    const nav = document.getElementById("tags");
    nav.replaceChildren();
    for (const tag of tags) {
      const ops = all.filter((e) => (e.op.tags && e.op.tags.length ? e.op.tags : ["other"]).includes(tag.name));
      if (!ops.length) continue;
      const id = "tag-" + tag.name.replace(/[^A-Za-z0-9_-]/g, "-");
      const section = el("section", { class: "tag", id },
        el("h2", {}, tag.name, el("span", { class: "count", text: String(ops.length) })),
        tag.description ? rich(tag.description) : null,
        ops.map(operationView));
      main.append(section);
      nav.append(el("li", { "data-tag": id }, el("a", { href: "#" + id }, tag.name, el("span", { class: "count", text: String(ops.length) }))));
    }
    openFromHash();
    document.body.classList.add("ready");
  }

  function openFromHash() {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (target && target.tagName === "DETAILS") {
      target.open = true;
      target.scrollIntoView();
    }
  }

  function filter(text) {
    const words = text.toLowerCase().split(/\s+/).filter(Boolean);
    for (const section of document.querySelectorAll("section.tag")) {
      let shown = 0;
      for (const op of section.querySelectorAll("details.op")) {
        const match = words.every((w) => op.dataset.search.includes(w));
        op.hidden = !match;
        if (match) shown++;
      }
      section.hidden = shown === 0;
      const link = document.querySelector('#tags li[data-tag="' + section.id + '"]');
      if (link) link.hidden = shown === 0;
    }
  }

  function start() {
    const token = document.getElementById("token");
    try { token.value = sessionStorage.getItem(TOKEN_KEY) || ""; } catch (_) { /* storage off */ }
    token.addEventListener("input", () => {
      try { sessionStorage.setItem(TOKEN_KEY, token.value); } catch (_) { /* storage off */ }
    });
    document.getElementById("filter").addEventListener("input", (event) => filter(event.target.value));
    window.addEventListener("hashchange", openFromHash);
    fetch("/openapi.json", { headers: { Accept: "application/json" } })
      .then((response) => {
        if (!response.ok) throw new Error("/openapi.json answered " + response.status);
        return response.json();
      })
      .then((value) => { doc = value; render(); })
      .catch((error) => {
        const status = document.getElementById("status");
        if (status) status.textContent = "Could not load the API document: " + error.message;
      });
  }

  start();
})();
