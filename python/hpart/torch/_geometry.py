"""Where this rank's shard lies in the mesh, and the layouts the ops' outputs live on.

An op's output layout is its input's mesh with new extents (a pooled shard is half as wide, a
conv changes the channels): `derive` builds it as an explicit-extents Layout.sharded on the same
mesh and communicator, cached on the input layout, so the collective construction happens once
per (layout, output geometry) in a training loop, on every rank in the same order (SPMD).
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Geometry:
    """The mesh of a sharded layout as the ops need it (identical on every rank but `pos`)."""
    shape: tuple          # global shape (N, C, spatial...)
    parts: tuple          # shards along each tensor axis
    intervals: tuple      # per axis: ((start, stop) per mesh position), identical on every rank
    pos: tuple            # this rank's mesh position per axis
    periodic: tuple       # per tensor axis (False for N and C)

    @property
    def ndim(self):
        return len(self.shape)

    def start(self, a):
        return self.intervals[a][self.pos[a]][0]

    def stop(self, a):
        return self.intervals[a][self.pos[a]][1]

    def first(self, a):
        """This rank's shard is the first along axis a (its lower halo lies past the edge)."""
        return self.pos[a] == 0

    def last(self, a):
        return self.pos[a] == self.parts[a] - 1

    def extents(self, a):
        return [hi - lo for lo, hi in self.intervals[a]]

    def thinnest(self, a):
        return min(self.extents(a))

    def empty_axis(self):
        """An axis along which some shard has no cells (None if every rank holds cells)."""
        for a in range(self.ndim):
            if min(self.extents(a)) == 0:
                return a
        return None


def check_cells(g, size, what):
    """Every rank must hold cells: the sharded ops keep each shard's natural shape (an empty
    shard's torch ops would need shapes torch refuses). The geometry is the same on every rank,
    so every rank raises here alike, without a collective."""
    from ._checks import error
    parts = 1
    for p in g.parts:
        parts *= p
    if parts != size:
        raise error(f"{what}: the layout is not sharded over all {size} ranks (a replicated or on_rank layout?); "
                    f"ShardTensors need a Layout.sharded layout")
    a = g.empty_axis()
    if a is not None:
        raise error(f"{what}: a shard without cells along axis {a} (extents {g.extents(a)}); sharded ops need "
                    f"every rank to hold cells: use fewer ranks along that axis or a larger tensor")


def geometry(layout):
    """The Geometry of a layout (cached on it)."""
    g = getattr(layout, "_hpart_geometry", None)
    if g is None:
        g = _compute(layout)
        layout._hpart_geometry = g
    return g


def _compute(layout):
    shape = tuple(layout.shape)
    mesh = tuple(layout.mesh)
    extents = tuple(tuple(e) for e in layout.extents)
    intervals = []
    for ext in extents:
        lo, iv = 0, []
        for e in ext:
            iv.append((lo, lo + e))
            lo += e
        intervals.append(tuple(iv))
    pos = tuple(layout.mesh_coords)  # this rank's shard along each axis (empty ones included)
    sp = len(shape) - 2
    per = tuple(layout.periodic) if layout.periodic is not None else (False,) * sp
    periodic = (False, False) + tuple(bool(p) for p in per[-sp:]) if sp else (False, False)
    return Geometry(shape, mesh, tuple(intervals), tuple(pos), periodic)


def derive(layout, shape, extents, periodic=None):
    """A layout on `layout`'s mesh with global `shape` and per-axis `extents` (lists, one entry per
    mesh position); periodic flags per spatial axis (default: the input's). Cached on `layout`."""
    g = geometry(layout)
    shape = tuple(int(s) for s in shape)
    extents = tuple(tuple(int(e) for e in ext) for ext in extents)
    per = tuple(g.periodic[2:]) if periodic is None else tuple(bool(p) for p in periodic)
    key = (shape, extents, per)
    cache = getattr(layout, "_hpart_derived", None)
    if cache is None:
        cache = layout._hpart_derived = {}
    if key == (g.shape, tuple(tuple(e) for e in (g.extents(a) for a in range(g.ndim))), tuple(g.periodic[2:])):
        return layout
    for a, ext in enumerate(extents):
        if min(ext) == 0:
            from ._checks import error
            raise error(f"the op's output would leave a rank without cells along axis {a} (extents "
                        f"{list(ext)}): use fewer ranks along that axis or a larger tensor")
    out = cache.get(key)
    if out is None:
        from .layout import Layout
        out = Layout.sharded(shape, g.parts, periodic=per, split=[list(e) for e in extents], comm=layout.comm)
        cache[key] = out
    return out


def same_geometry(a, b, skip=()):
    """Two layouts shard the same way (axes in `skip` aside): the same mesh and intervals."""
    if a is b:
        return True
    ga, gb = geometry(a), geometry(b)
    return all(ga.intervals[x] == gb.intervals[x] and ga.parts[x] == gb.parts[x]
               for x in range(ga.ndim) if x not in skip) and ga.ndim == gb.ndim
