"""METIS and Chaco graph files: a model graph (adjacency, weights) written as text with lies in
the header, broken symmetry, ids and weights at the limits, and byte-level mutants."""

import os
from dataclasses import dataclass

from mutations import (BYTE_MUTATIONS, SPECIAL_INTEGERS, WEIGHT_LIMITS, Case, garbage, join_lines, split_lines,
                       write_file)


@dataclass
class Graph:
    adj: list                  # adj[u] = list of [v, w] (0-based v)
    vwgt: list = None          # vwgt[u] = list of ncon weights, or None
    vsize: list = None         # METIS vertex sizes, or None
    ewgt: bool = False

    @property
    def n(self):
        return len(self.adj)

    def edges(self):
        return sum(len(a) for a in self.adj) // 2


def grid_graph(rng, rows, cols, vwgt_ncon=0, ewgt=False, vsize=False):
    adj = [[] for _ in range(rows * cols)]
    for r in range(rows):
        for c in range(cols):
            u = r * cols + c
            for v in ([u + 1] if c + 1 < cols else []) + ([u + cols] if r + 1 < rows else []):
                w = rng.randint(1, 9)
                adj[u].append([v, w])
                adj[v].append([u, w])
    g = Graph(adj, ewgt=ewgt)
    if vwgt_ncon:
        g.vwgt = [[rng.randint(0, 9) for _ in range(vwgt_ncon)] for _ in adj]
    if vsize:
        g.vsize = [rng.randint(1, 5) for _ in adj]
    return g


def read_metis(path):
    with open(path) as f:
        lines = [l for l in f.read().split("\n") if not l.lstrip().startswith("%")]
    head = lines[0].split()
    n = int(head[0])
    fmt = head[2].zfill(3) if len(head) > 2 else "000"
    ncon = int(head[3]) if len(head) > 3 else 1
    g = Graph([], ewgt=fmt[2] == "1")
    if fmt[1] == "1":
        g.vwgt = []
    if fmt[0] == "1":
        g.vsize = []
    for line in lines[1:n + 1]:
        t = [int(x) for x in line.split()]
        if g.vsize is not None:
            g.vsize.append(t.pop(0))
        if g.vwgt is not None:
            g.vwgt.append(t[:ncon])
            t = t[ncon:]
        step = 2 if g.ewgt else 1
        g.adj.append([[t[j] - 1, t[j + 1] if g.ewgt else 1] for j in range(0, len(t), step)])
    return g


def write_graph(g, dialect="metis", n=None, m=None, fmt=None, ncon=None, tokens=None):
    """The file text; n, m, fmt, ncon override the header (a lie), tokens[(u, j)] a field's text."""
    tokens = tokens or {}
    ncon_real = len(g.vwgt[0]) if g.vwgt else 1
    lead = g.vsize is not None if dialect == "metis" else True
    real_fmt = f"{int(lead)}{int(g.vwgt is not None)}{int(g.ewgt)}"
    if dialect == "chaco" and not lead:
        real_fmt = real_fmt[1:]
    head = [str(g.n if n is None else n), str(g.edges() if m is None else m)]
    f = real_fmt if fmt is None else fmt
    if f not in ("000", "00", "0") or ncon is not None or ncon_real > 1:
        head.append(f)
    if ncon is not None:
        head.append(str(ncon))
    elif ncon_real > 1 and fmt is None:
        head.append(str(ncon_real))
    out = ["% written by the hpart battery", " ".join(head)]
    for u, a in enumerate(g.adj):
        fields = []
        if dialect == "chaco":
            fields.append(str(u + 1))
        elif g.vsize is not None:
            fields.append(str(g.vsize[u]))
        if g.vwgt is not None:
            fields += [str(x) for x in g.vwgt[u]]
        for v, w in a:
            fields.append(str(v + 1))
            if g.ewgt:
                fields.append(str(w))
        for j in range(len(fields)):
            if (u, j) in tokens:
                fields[j] = tokens[(u, j)]
        out.append(" ".join(fields))
    return ("\n".join(out) + "\n").encode()


def _copy(g):
    return Graph([[list(e) for e in a] for a in g.adj], [list(w) for w in g.vwgt] if g.vwgt else None,
                 list(g.vsize) if g.vsize else None, g.ewgt)


def _first_nbr_field(g, dialect, u):
    return (1 if dialect == "chaco" or g.vsize is not None else 0) + (len(g.vwgt[u]) if g.vwgt else 0)


def mutate_graph(rng, g, dialect, how):
    """(text, what): `how` names a structural mutation or a header lie."""
    original, g = g, _copy(g)
    n = g.n
    u = rng.randrange(n)
    while not g.adj[u] and any(g.adj):
        u = rng.randrange(n)
    kw = {}
    what = how
    if how == "header_n_plus":
        kw["n"] = n + 1
    elif how == "header_n_minus":
        kw["n"] = n - 1
    elif how == "header_n_zero":
        kw["n"] = 0
    elif how == "header_n_huge":
        kw["n"] = rng.choice([3000000000, 1 << 40, (1 << 62) + 1, 1 << 63, -5, "abc", "1e9"])
        what += f" n={kw['n']}"
    elif how == "header_m_plus":
        kw["m"] = g.edges() + 1
    elif how == "header_m_minus":
        kw["m"] = g.edges() - 1
    elif how == "header_m_huge":
        kw["m"] = rng.choice([0, -1, 1 << 40, (1 << 62) + 1, 1 << 63, "x"])
        what += f" m={kw['m']}"
    elif how == "header_fmt":
        kw["fmt"] = rng.choice(["012", "1111", "2", "abc", "011", "001", "010", "100", "0001", "-1", "11", "1"])
        what += f" fmt={kw['fmt']}"
    elif how == "header_ncon":
        kw["fmt"] = "010" if dialect == "metis" else "10"
        kw["ncon"] = rng.choice([0, -1, 2, 3, 1000000000, "x"])
        what += f" ncon={kw['ncon']}"
    elif how == "asym_drop" and g.adj[u]:
        del g.adj[u][rng.randrange(len(g.adj[u]))]
        kw["m"] = g.edges()
    elif how == "asym_add":
        v = rng.randrange(n)
        g.adj[u].append([v, 1])
        what += f" {u + 1}->{v + 1}"
    elif how == "self_loop":
        g.adj[u].append([u, 1])
        g.adj[u].append([u, 1])
    elif how == "multi_edge" and g.adj[u]:
        v, w = g.adj[u][0]
        g.adj[u].append([v, w])
        g.adj[v].append([u, w])
    elif how in ("nbr_id", "vertex_weight", "edge_weight") and g.adj[u]:
        first = _first_nbr_field(g, dialect, u)
        step = 2 if g.ewgt else 1
        if how == "nbr_id":
            j = first + step * rng.randrange(len(g.adj[u]))
            value = rng.choice(SPECIAL_INTEGERS + [str(n + 1), str(n + 2)])
        elif how == "vertex_weight" and g.vwgt:
            j = first - 1 - rng.randrange(len(g.vwgt[u]))
            value = rng.choice(WEIGHT_LIMITS + SPECIAL_INTEGERS)
        elif how == "edge_weight" and g.ewgt:
            j = first + 1 + step * rng.randrange(len(g.adj[u]))
            value = rng.choice(WEIGHT_LIMITS + SPECIAL_INTEGERS)
        else:
            return write_graph(g, dialect), how + " (no such field: unchanged)"
        kw["tokens"] = {(u, j): value}
        what += f" vertex {u + 1} field {j + 1} = {value[:24]!r}"
    elif how == "all_vertex_weights" and g.vwgt:
        value = rng.choice(["1152921504606846976", "4611686018427387904", "9223372036854775807", "0"])
        g.vwgt = [[int(value)] * len(w) for w in g.vwgt]
        what += f" = {value}"
    elif how == "all_edge_weights" and g.ewgt:
        value = rng.choice([1 << 60, 1 << 62, (1 << 63) - 1])
        for a in g.adj:
            for e in a:
                e[1] = value
        what += f" = {value}"
    elif how == "symmetric_edge_weight" and g.ewgt and g.adj[u]:
        v = g.adj[u][0][0]
        value = rng.choice([0, -1, 1 << 60, (1 << 63) - 1, 1 << 63])
        g.adj[u][0][1] = value
        for e in g.adj[v]:
            if e[0] == u:
                e[1] = value
        what += f" ({u + 1},{v + 1}) = {value}"
    elif how == "isolated_vertices":
        g.adj += [[] for _ in range(rng.randint(1, 5))]
        if g.vwgt:
            g.vwgt += [[1] * len(g.vwgt[0])] * (len(g.adj) - len(g.vwgt))
        if g.vsize:
            g.vsize += [1] * (len(g.adj) - len(g.vsize))
    text = write_graph(g, dialect, **kw)
    if how == "blank_line":
        lines = split_lines(text)
        lines.insert(rng.randrange(2, len(lines)), "")
        text = join_lines(lines)
    elif how == "comment_line":
        lines = split_lines(text)
        lines.insert(rng.randrange(2, len(lines)), "% a comment among the vertex lines")
        text = join_lines(lines)
    elif how == "drop_line":
        lines = split_lines(text)
        del lines[rng.randrange(2, len(lines) - 1)]
        text = join_lines(lines)
    elif how == "duplicate_line":
        lines = split_lines(text)
        i = rng.randrange(2, len(lines) - 1)
        lines.insert(i, lines[i])
        text = join_lines(lines)
    elif how == "swap_lines":
        lines = split_lines(text)
        i, j = rng.randrange(2, len(lines) - 1), rng.randrange(2, len(lines) - 1)
        lines[i], lines[j] = lines[j], lines[i]
        text = join_lines(lines)
    elif how == "tabs":
        text = text.replace(b" ", b"\t")
    elif callable(how):
        text = how(rng, text)
        what = how.__name__
    if text == write_graph(original, dialect):
        what += " (no effect on this file)"
    return text, what


GRAPH_MUTATIONS = ["header_n_plus", "header_n_minus", "header_n_zero", "header_n_huge", "header_m_plus",
                   "header_m_minus", "header_m_huge", "header_fmt", "header_ncon", "asym_drop", "asym_add",
                   "self_loop", "multi_edge", "nbr_id", "nbr_id", "vertex_weight", "vertex_weight", "edge_weight",
                   "edge_weight", "all_vertex_weights", "all_edge_weights", "symmetric_edge_weight",
                   "isolated_vertices", "blank_line", "comment_line", "drop_line", "duplicate_line", "swap_lines",
                   "tabs"] + BYTE_MUTATIONS


def _fixed_graph_files(rng):
    """(name, text, format, key) for hand-made graph files."""
    ring = grid_graph(rng, 1, 6)
    ring.adj[0].append([5, 1])
    ring.adj[5].append([0, 1])
    heavy_v = grid_graph(rng, 4, 5, vwgt_ncon=1)
    heavy_v.vwgt = [[1 << 60] for _ in heavy_v.adj]
    heavy_e = grid_graph(rng, 4, 5, ewgt=True)
    for a in heavy_e.adj:
        for e in a:
            e[1] = 1 << 60
    one_heavy = grid_graph(rng, 4, 5, vwgt_ncon=1)
    one_heavy.vwgt[0] = [(1 << 62)]
    twenty = grid_graph(rng, 4, 5)
    return [
        ("empty", b"", "metis", False),
        ("only_comments", b"% nothing\n%\n", "metis", False),
        ("header_only", b"5 4\n", "metis", False),
        ("zero_graph", b"0 0\n", "metis", False),
        ("one_vertex", b"1 0\n\n", "metis", True),
        ("two_vertices_one_edge", b"2 1\n2\n1\n", "metis", True),
        ("isolated_only", b"5 0\n\n\n\n\n\n", "metis", False),
        ("ring", write_graph(ring), "metis", False),
        ("ring_chaco", write_graph(ring, "chaco"), "chaco", False),
        ("vertex_weights_2e60", write_graph(heavy_v), "metis", True),
        ("edge_weights_2e60", write_graph(heavy_e), "metis", True),
        ("one_weight_2e62", write_graph(one_heavy), "metis", True),
        ("twenty_vertices", write_graph(twenty), "metis", False),
        ("n_3e9_few_lines", b"3000000000 1\n2\n1\n", "metis", True),
        ("m_2e62", b"2 4611686018427387904\n2\n1\n", "metis", False),
        ("ncon_huge", b"2 1 010 1000000000\n1 2\n1 1\n", "metis", False),
        ("ncon_mismatch", b"3 2 010 2\n1 2\n1 1 3\n1 2\n", "metis", False),
        ("fmt_weights_missing", b"3 2 011\n2\n1 3\n2\n", "metis", False),
        ("garbage", garbage(rng, 3000), "metis", False),
        ("crlf", write_graph(ring).replace(b"\n", b"\r\n"), "metis", False),
        ("chaco_numbers_wrong", b"3 2 100\n1 2\n3 1 3\n2 2\n", "chaco", False),
        ("chaco_as_metis", write_graph(ring, "chaco"), "metis", False),
        ("metis_as_chaco", write_graph(ring), "chaco", False),
    ]


def graph_cases(rng, work, shared, mutants):
    cases = []

    def add(name, data, fmt, key=False, notes=None, k=None, method=None):
        path = os.path.join(work, f"g_{name}.graph")
        write_file(path, data)
        k = k or rng.choice([1, 2, 3, 4, 8, 25])
        method = method or rng.choice(["graph", "graph", "graph", "metis"])
        args = ["partition", "--graph", path, "--format", fmt, "--parts", str(k), "--method", method, "--out", "{out}"]
        cases.append(Case("graph-chaco" if fmt == "chaco" else "graph-metis", f"g_{name}", path, args, key, "graph",
                          notes or {}))

    for name, data, fmt, key in _fixed_graph_files(rng):
        add(name, data, fmt, key)
    add("metis_k_exceeds_n", write_graph(grid_graph(rng, 4, 5)), "metis", True, k=50, method="metis")
    add("metis_heavy_vertices", write_graph(_fixed_heavy(rng)), "metis", True, k=4, method="metis")
    add("parts_2e30", b"2 1\n2\n1\n", "metis", True, k=1 << 30)
    bases = [
        ("grid", grid_graph(rng, 5, 6)),
        ("grid_w011", grid_graph(rng, 6, 5, vwgt_ncon=1, ewgt=True)),
        ("grid_w001", grid_graph(rng, 4, 7, ewgt=True)),
        ("grid_w010_ncon2", grid_graph(rng, 5, 5, vwgt_ncon=2)),
        ("grid_w111", grid_graph(rng, 3, 8, vwgt_ncon=1, ewgt=True, vsize=True)),
    ]
    for name in ("test.mgraph", "add20.graph", "3elt.graph"):
        path = os.path.join(shared, name) if shared else ""
        if path and os.path.exists(path):
            bases.append((name.split(".")[0], read_metis(path)))
    for i in range(mutants):
        bname, g = bases[i % len(bases)]
        how = GRAPH_MUTATIONS[(i * 5 + i // len(GRAPH_MUTATIONS)) % len(GRAPH_MUTATIONS)]
        dialect = "chaco" if (i // len(bases)) % 4 == 3 else "metis"
        text, what = mutate_graph(rng, g, dialect, how)
        if "(no " in what:  # a weight mutation of a graph without such weights: an id instead
            text, what = mutate_graph(rng, g, dialect, "nbr_id")
        add(f"m{i:03d}_{bname}_{dialect}", text, dialect, notes={"mutation": what})
    return cases


def _fixed_heavy(rng):
    g = grid_graph(rng, 4, 5, vwgt_ncon=1)
    g.vwgt = [[(1 << 60) if u % 3 == 0 else 1] for u in range(g.n)]
    return g
