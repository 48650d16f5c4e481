// symshape report: tables rendered in chunks, a graph of a bounded neighbourhood (cytoscape.js),
// and one selected equivalence class highlighted everywhere. Data: the two JSON scripts above.
(function () {
  "use strict";
  var PAGE = 500; // rows rendered at once; the rest on scroll, "more" or search
  var GRAPH_LIMIT = 600; // nodes laid out at once (ops + values); a 25k-op model shows a neighbourhood
  var SLICES = 8; // pie slices of a value node: its first 8 dims
  var LEGEND_CLASSES = 24; // classes named in the legend; the classes table lists them all
  // The graph's look: cytoscape's style and the legend are both drawn from these (and colour()).
  var LOOK = {
    plain: "#c8c8c8", // a slice of a static dim; a whole circle: a value without dims
    opFill: "#f3f3f3", opBorder: "#999", // an op's box
    edge: "#bbb", // dataflow, value -> op -> value
    ring: "#000", ringWidth: 4, // a value with a dim of the selected class
    faded: 0.2, // the opacity of the rest while a class is selected
    shade: "#000", shadeOpacity: 0.15, // the node whose details are shown
  };

  var doc = JSON.parse(document.getElementById("symshape-data").textContent);
  var graph = JSON.parse(document.getElementById("symshape-graph").textContent);
  var selected = null; // the selected class index
  var cy = null;

  // ---- classes ----
  var classOf = new Map(); // "value\0axis" -> class index
  doc.classes.forEach(function (members, k) {
    members.forEach(function (m) { classOf.set(m[0] + "\u0000" + m[1], k); });
  });
  function colour(k) { return "hsl(" + ((k * 137.508) % 360).toFixed(1) + ", 62%, 48%)"; }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }
  function nameHtml(name) { // a value's name may wrap after its separators, never inside a word
    return esc(name).replace(/([\/._:])(?=.)/g, "$1<wbr>");
  }
  function dimHtml(value, axis, d) {
    var k = classOf.get(value + "\u0000" + axis);
    if (k !== undefined) {
      var hl = k === selected ? " hl" : "";
      return '<span class="dim' + hl + '" data-class="' + k + '" style="--c:' + colour(k) +
        '" title="class ' + k + '">' + esc(d) + "</span>";
    }
    return '<span class="dim' + (typeof d === "number" ? " static" : "") + '">' + esc(d) + "</span>";
  }
  function dimsHtml(value, dims) {
    return dims.map(function (d, a) { return dimHtml(value, a, d); }).join("");
  }

  // ---- graph indices ----
  var valueIndex = new Map(graph.values.map(function (n, i) { return [n, i]; }));
  var producer = new Array(graph.values.length).fill(-1);
  var consumers = graph.values.map(function () { return []; });
  graph.ops.forEach(function (op, o) {
    op[2].forEach(function (v) { consumers[v].push(o); });
    op[3].forEach(function (v) { producer[v] = o; });
  });

  // ---- chunked tables ----
  function chunkedTable(id, rows, rowHtml) {
    var body = document.querySelector("#" + id + "-table tbody");
    var more = document.getElementById(id + "-more");
    var state = { rows: rows, shown: 0 };
    function renderMore() {
      var end = Math.min(state.rows.length, state.shown + PAGE);
      var parts = [];
      for (var i = state.shown; i < end; i++) parts.push(rowHtml(state.rows[i]));
      body.insertAdjacentHTML("beforeend", parts.join(""));
      state.shown = end;
      var left = state.rows.length - state.shown;
      more.innerHTML = left > 0 ? "showing " + state.shown + " of " + state.rows.length +
        ' rows <button type="button">show ' + Math.min(left, PAGE) + " more</button>" :
        (state.rows.length ? "" : "none");
    }
    more.addEventListener("click", function (e) { if (e.target.tagName === "BUTTON") renderMore(); });
    if ("IntersectionObserver" in window) {
      new IntersectionObserver(function (entries) {
        if (entries[0].isIntersecting && state.shown > 0 && state.shown < state.rows.length) renderMore();
      }).observe(more);
    }
    state.reset = function (newRows) {
      state.rows = newRows;
      state.shown = 0;
      body.innerHTML = "";
      renderMore();
    };
    renderMore();
    return state;
  }

  var valueRows = Object.keys(doc.values).map(function (name) {
    var entry = doc.values[name];
    var i = valueIndex.get(name);
    var op = i === undefined || producer[i] < 0 ? null : graph.ops[producer[i]];
    var made = op ? op[0] + " " + op[1] : "";
    return {
      name: name, entry: entry, made: made,
      key: (name + " " + entry.dims.join(" ") + " " + made).toLowerCase(),
    };
  });
  function valueRowHtml(r) {
    var link = valueLink(r.name);
    var els = r.entry.elements ? "[" + r.entry.elements.map(esc).join(", ") + "]" : "";
    return '<tr><td class="name">' + link + "</td><td>" + dimsHtml(r.name, r.entry.dims) + "</td><td>" + els +
      "</td><td>" + esc(r.made) + "</td></tr>";
  }
  var values = chunkedTable("values", valueRows, valueRowHtml);
  var note = document.getElementById("values-note");
  function showCount(n) {
    note.textContent = n + " of " + valueRows.length + " values" +
      (n > PAGE ? " (rendered " + PAGE + " at a time: scroll or search)" : "");
  }
  showCount(valueRows.length);
  var searchTimer = 0;
  document.getElementById("search").addEventListener("input", function (e) {
    var q = e.target.value.trim().toLowerCase();
    clearTimeout(searchTimer);
    searchTimer = setTimeout(function () {
      var rows = q ? valueRows.filter(function (r) { return r.key.indexOf(q) >= 0; }) : valueRows;
      values.reset(rows);
      showCount(rows.length);
    }, 120);
  });

  chunkedTable("symbols", Object.keys(doc.symbols), function (name) {
    var s = doc.symbols[name];
    var range = "[" + s.range[0] + ", " + (s.range[1] === null ? "∞" : s.range[1]) + "]";
    return "<tr><td>" + esc(name) + "</td><td>" + range + "</td><td>" + s.divisor + "</td><td>" +
      esc(s.likely.join(", ")) + "</td><td>" + esc(s.origin) + "</td></tr>";
  });
  var classRows = doc.classes.map(function (members, k) { return k; });
  classRows.sort(function (a, b) { return doc.classes[b].length - doc.classes[a].length; });
  chunkedTable("classes", classRows, function (k) {
    var members = doc.classes[k];
    var first = members[0];
    var dim = doc.values[first[0]] ? doc.values[first[0]].dims[first[1]] : "?";
    var shown = members.slice(0, 4).map(function (m) { return nameHtml(m[0]) + "[" + m[1] + "]"; }).join(", ");
    return "<tr><td>" + k + "</td><td>" + members.length + "</td><td>" + dimHtml(first[0], first[1], dim) +
      '</td><td class="name">' + shown + (members.length > 4 ? ", ..." : "") + "</td></tr>";
  });
  var opByName = new Map(graph.ops.map(function (op, o) { return [op[1], o]; }));
  function originHtml(origin) { // "Reshape '/Reshape_177' (reshape target)": the op's name links to the graph
    var m = /'([^']*)'/.exec(origin);
    var text = m ? esc(origin.slice(0, m.index + 1)) + nameHtml(m[1]) + esc(origin.slice(m.index + m[0].length - 1)) :
      esc(origin);
    if (!m || !opByName.has(m[1])) return text;
    return '<a data-op="' + opByName.get(m[1]) + '" href="#graph" title="show in the graph">' + text + "</a>";
  }
  function valueLink(name) {
    return valueIndex.has(name) ? '<a data-value="' + esc(name) + '" title="show in the graph">' + nameHtml(name) +
      "</a>" : nameHtml(name);
  }
  chunkedTable("guards", doc.guards, function (g) {
    return "<tr><td>" + esc(g.condition) + '</td><td class="name">' + originHtml(g.origin) + "</td><td>" +
      esc(g.reason) + "</td></tr>";
  });
  chunkedTable("unresolved", doc.unresolved, function (u) {
    var entry = doc.values[u[0]];
    var dim = entry && entry.dims[u[1]] !== undefined ? dimHtml(u[0], u[1], entry.dims[u[1]]) : "";
    return '<tr><td class="name">' + valueLink(u[0]) + "</td><td>" + u[1] + " " + dim + "</td><td>" + esc(u[2]) +
      "</td></tr>";
  });

  // ---- graph ----
  function neighbourhood(start) {
    // breadth-first over values and ops (both directions) from the start values, up to GRAPH_LIMIT nodes
    var seenV = new Set(), seenO = new Set(), queue = [];
    start.forEach(function (v) { if (!seenV.has(v)) { seenV.add(v); queue.push(["v", v]); } });
    for (var q = 0; q < queue.length && seenV.size + seenO.size < GRAPH_LIMIT; q++) {
      var item = queue[q];
      var ops = item[0] === "v" ? consumers[item[1]].concat(producer[item[1]] >= 0 ? [producer[item[1]]] : []) : [];
      var vals = item[0] === "o" ? graph.ops[item[1]][2].concat(graph.ops[item[1]][3]) : [];
      ops.forEach(function (o) {
        if (!seenO.has(o) && seenV.size + seenO.size < GRAPH_LIMIT) { seenO.add(o); queue.push(["o", o]); }
      });
      vals.forEach(function (v) {
        if (!seenV.has(v) && seenV.size + seenO.size < GRAPH_LIMIT) { seenV.add(v); queue.push(["v", v]); }
      });
    }
    return { values: seenV, ops: seenO };
  }
  function valueNode(v) {
    var name = graph.values[v];
    var dims = doc.values[name] ? doc.values[name].dims : [];
    var data = { id: "v" + v, kind: "value", name: name, cls: [] };
    var n = Math.min(dims.length, SLICES);
    dims.forEach(function (d, a) { // every dim's class counts for the highlight, drawn or not
      var k = classOf.get(name + "\u0000" + a);
      if (k !== undefined && data.cls.indexOf(k) < 0) data.cls.push(k);
    });
    for (var a = 0; a < SLICES; a++) {
      var k = a < n ? classOf.get(name + "\u0000" + a) : undefined;
      data["c" + a] = k !== undefined ? colour(k) : LOOK.plain;
      data["s" + a] = a < n ? 100 / n : 0;
    }
    if (n === 0) data.s0 = 100;
    return { group: "nodes", data: data };
  }
  function pieStyle() {
    var style = { "pie-size": "100%", "background-color": LOOK.plain, width: 18, height: 18, label: "" };
    for (var a = 0; a < SLICES; a++) {
      style["pie-" + (a + 1) + "-background-color"] = "data(c" + a + ")";
      style["pie-" + (a + 1) + "-background-size"] = "data(s" + a + ")";
    }
    return style;
  }
  // ---- legend: every colour and mark of the graph, drawn from LOOK and the classes it shows ----
  function swatch(shape, style) { return '<span class="swatch ' + shape + '" style="' + style + '"></span>'; }
  function mark(name, sw, text) { return '<li data-mark="' + name + '">' + sw + "<span>" + text + "</span></li>"; }
  function showLegend(elements) {
    var shown = [];
    elements.forEach(function (e) {
      (e.data.cls || []).forEach(function (k) { if (shown.indexOf(k) < 0) shown.push(k); });
    });
    shown.sort(function (a, b) { return a - b; }); // the largest classes first, as in the classes table
    var half = (shown.length ? colour(shown[0]) : LOOK.plain) + " 0 50%, " + LOOK.plain + " 0";
    var items = [mark("value", swatch("circle", "background: conic-gradient(" + half + ")"),
      "value: one slice per dim (its first " + SLICES + "), in the colour of the dim's equivalence class")];
    shown.slice(0, LEGEND_CLASSES).forEach(function (k) {
      var first = doc.classes[k][0];
      var dim = doc.values[first[0]] ? doc.values[first[0]].dims[first[1]] : "?";
      items.push('<li data-mark="class" data-legend-class="' + k + '">' + swatch("circle", "background: " + colour(k)) +
        dimHtml(first[0], first[1], dim) + "<span>class " + k + ", " + doc.classes[k].length + " dims</span></li>");
    });
    if (shown.length > LEGEND_CLASSES) {
      items.push('<li data-mark="more">and ' + (shown.length - LEGEND_CLASSES) +
        " more classes (the equivalence classes table lists them all)</li>");
    }
    items.push(mark("plain", swatch("circle", "background: " + LOOK.plain),
      "grey: a static dim (a number); a grey circle: a value without dims"));
    items.push(mark("op", swatch("box", "background: " + LOOK.opFill + "; border-color: " + LOOK.opBorder),
      "op, labelled with its type"));
    items.push(mark("edge", swatch("edge", "background: " + LOOK.edge + "; color: " + LOOK.edge),
      "edge: from an input value to its op, from the op to its outputs"));
    items.push(mark("ring", swatch("circle", "background: " + LOOK.plain + "; border: 3px solid " + LOOK.ring),
      "black ring: a value with a dim of the selected class"));
    items.push(mark("faded", swatch("circle", "background: " + LOOK.plain + "; opacity: " + LOOK.faded),
      "faded: the rest, while a class is selected"));
    items.push(mark("selected", swatch("circle shaded", "background: " + LOOK.plain + "; --shade: " + LOOK.shade +
      "; --shade-opacity: " + LOOK.shadeOpacity), "shaded: the node whose details are shown"));
    document.getElementById("legend").innerHTML = items.join("");
  }
  function showGraph(start, label) {
    var part = neighbourhood(start);
    var elements = [];
    part.values.forEach(function (v) { elements.push(valueNode(v)); });
    part.ops.forEach(function (o) {
      var op = graph.ops[o];
      elements.push({ group: "nodes", data: { id: "o" + o, kind: "op", label: op[0], name: op[1], cls: [],
        w: 6 * op[0].length + 8 } });
      op[2].forEach(function (v) {
        if (part.values.has(v)) elements.push({ group: "edges", data: { id: "i" + o + "_" + v, source: "v" + v, target: "o" + o } });
      });
      op[3].forEach(function (v) {
        if (part.values.has(v)) elements.push({ group: "edges", data: { id: "u" + o + "_" + v, source: "o" + o, target: "v" + v } });
      });
    });
    var total = graph.values.length + graph.ops.length;
    document.getElementById("graph-note").textContent = (elements.length ? "" : "No graph: ") +
      "showing " + (part.values.size + part.ops.size) + " of " + total + " nodes (" + label + ", up to " +
      GRAPH_LIMIT + " nodes laid out at once; click a value's name in the table to centre the graph on it).";
    showLegend(elements);
    if (cy) cy.destroy();
    cy = cytoscape({
      container: document.getElementById("graph"),
      elements: elements,
      hideEdgesOnViewport: elements.length > 300,
      style: [
        { selector: "node[kind = 'value']", style: pieStyle() },
        { selector: "node[kind = 'op']", style: {
          shape: "round-rectangle", "background-color": LOOK.opFill, "border-width": 1, "border-color": LOOK.opBorder,
          label: "data(label)", "font-size": 9, "text-valign": "center", width: "data(w)", height: 14 } },
        { selector: "edge", style: { width: 1, "line-color": LOOK.edge, "target-arrow-color": LOOK.edge,
          "target-arrow-shape": "triangle", "arrow-scale": 0.6, "curve-style": "bezier" } },
        { selector: ".faded", style: { opacity: LOOK.faded } },
        { selector: "node.hl", style: { "border-width": LOOK.ringWidth, "border-color": LOOK.ring, width: 26, height: 26 } },
        { selector: "node:selected", style: { "overlay-color": LOOK.shade, "overlay-opacity": LOOK.shadeOpacity } },
      ],
      layout: { name: "dagre", rankDir: "LR", nodeSep: 8, rankSep: 40, animate: false },
    });
    if (cy.zoom() > 1.5) cy.zoom(1.5).center(); // a tiny model: no giant nodes
    if (cy.zoom() < 0.5) { // a long model: start readable at its beginning, pan and zoom for the rest
      var first = cy.nodes().min(function (n) { return n.position("x"); }).ele;
      cy.zoom(0.7);
      cy.pan({ x: 40 - first.position("x") * 0.7, y: cy.height() / 2 - first.position("y") * 0.7 });
    }
    cy.on("tap", "node", function (e) { showInfo(e.target.data()); });
    applyGraphHighlight();
    return cy;
  }

  function showInfo(data) {
    var info = document.getElementById("info");
    if (data.kind === "value") {
      var entry = doc.values[data.name] || { dims: [] };
      info.innerHTML = "<p><b>value</b> " + nameHtml(data.name) + "</p><p>" + dimsHtml(data.name, entry.dims) + "</p>" +
        '<p><a data-value="' + esc(data.name) + '" href="#graph">centre the graph here</a></p>';
    } else {
      var op = graph.ops[+data.id.slice(1)];
      var list = function (ids) {
        return ids.map(function (v) {
          var n = graph.values[v];
          return "<li>" + nameHtml(n) + " " + dimsHtml(n, doc.values[n] ? doc.values[n].dims : []) + "</li>";
        }).join("");
      };
      info.innerHTML = "<p><b>" + esc(op[0]) + "</b> " + nameHtml(op[1]) + "</p><p>inputs</p><ul>" + list(op[2]) +
        "</ul><p>outputs</p><ul>" + list(op[3]) + "</ul>";
    }
  }

  // ---- class selection ----
  function applyGraphHighlight() {
    if (!cy) return;
    cy.batch(function () {
      cy.elements().removeClass("hl faded");
      if (selected === null) return;
      var hit = cy.nodes().filter(function (n) { return n.data("cls").indexOf(selected) >= 0; });
      cy.elements().difference(hit).addClass("faded");
      hit.addClass("hl");
    });
  }
  function selectClass(k) {
    selected = k;
    document.querySelectorAll(".dim.hl").forEach(function (el) { el.classList.remove("hl"); });
    var banner = document.getElementById("selection");
    if (k !== null) {
      document.querySelectorAll('.dim[data-class="' + k + '"]').forEach(function (el) { el.classList.add("hl"); });
      var first = doc.classes[k][0];
      banner.innerHTML = 'class <span class="dim hl" style="--c:' + colour(k) + '">' + k + "</span> " +
        esc(doc.values[first[0]] ? doc.values[first[0]].dims[first[1]] : "") + ": " + doc.classes[k].length +
        ' dims, highlighted in the tables and the graph <button type="button">clear</button>';
    }
    banner.hidden = k === null;
    document.body.dataset.selectedClass = k === null ? "" : String(k);
    applyGraphHighlight();
  }
  document.addEventListener("click", function (e) {
    var t = e.target;
    if (t.closest("#selection button")) { selectClass(null); return; }
    var dim = t.closest(".dim[data-class]");
    if (dim && !dim.closest("#selection")) { selectClass(+dim.dataset.class); return; }
    var opLink = t.closest("a[data-op]");
    if (opLink) {
      e.preventDefault();
      var o = +opLink.dataset.op;
      showGraph(graph.ops[o][3].concat(graph.ops[o][2]), "the neighbourhood of op " + graph.ops[o][1]);
      var opNode = cy.getElementById("o" + o);
      if (opNode.nonempty()) { opNode.select(); cy.center(opNode); showInfo(opNode.data()); }
      document.getElementById("graph-section").scrollIntoView();
      return;
    }
    var link = t.closest("a[data-value]");
    if (link) {
      e.preventDefault();
      showGraph([valueIndex.get(link.dataset.value)], "the neighbourhood of " + link.dataset.value);
      var node = cy.getElementById("v" + valueIndex.get(link.dataset.value));
      node.select();
      cy.center(node);
      showInfo(node.data());
      document.getElementById("graph-section").scrollIntoView();
    }
  });

  window.symshapeReport = { cy: function () { return cy; }, selectClass: selectClass, showGraph: showGraph };
  // The tables paint first (data-ready); the graph is laid out right after (data-graph-ready).
  requestAnimationFrame(function () {
    window.symshapeReadyMs = performance.now();
    document.body.dataset.ready = "1";
    setTimeout(function () {
      var start = graph.inputs.length ? graph.inputs : (graph.values.length ? [0] : []);
      var whole = graph.values.length + graph.ops.length <= GRAPH_LIMIT;
      showGraph(start, whole ? "the whole model" : "the neighbourhood of the inputs");
      requestAnimationFrame(function () {
        window.symshapeGraphReadyMs = performance.now();
        document.body.dataset.graphReady = "1";
      });
    }, 0);
  });
})();
