"""hpart.torch.Layout: how a torch tensor of global shape (N, C, W), (N, C, H, W) or (N, C, D, H, W)
is cut over the ranks of an mpi4py communicator. A thin wrapper of the C++ hpart::tensor::ShardLayout:
the shard extents, the cost-balanced cuts and the pooling alignment are computed there. A 1-D
tensor (N, C, W) is the C++ 2-D shape (N, C, 1, W): H of extent 1, never cut, no halo; the memory
of a contiguous (N, C, W) tensor is that of (N, C, 1, W), so the C++ plans run on it unchanged.
"""
import numpy as np
import torch

from .. import _hpart
from ._checks import agree, error


class Shard:
    """Placement of a tensor axis cut over the ranks of the mesh (DTensor's vocabulary)."""

    def __init__(self, dim):
        self.dim = int(dim)

    def __repr__(self):
        return f"Shard(dim={self.dim})"

    def __eq__(self, other):
        if isinstance(other, str):
            return other == "Shard"
        return isinstance(other, Shard) and other.dim == self.dim

    def __hash__(self):
        return hash(("Shard", self.dim))


class Replicate:
    """Placement of a tensor axis that is not cut: every rank of that mesh axis holds all of it."""

    def __repr__(self):
        return "Replicate()"

    def __eq__(self, other):
        if isinstance(other, str):
            return other == "Replicate"
        return isinstance(other, Replicate)

    def __hash__(self):
        return hash("Replicate")


def _axes(ndim):
    """The C++ axes (N, C, D, H, W = 0..4) of a torch tensor's axes: a 2-D tensor has no D, a
    1-D one neither D nor H."""
    return {3: (0, 1, 4), 4: (0, 1, 3, 4)}.get(ndim, (0, 1, 2, 3, 4))


def _shape5(shape):
    s = [int(e) for e in shape]
    return s[:2] + [1] * (5 - len(s)) + s[2:]


def _cpp_spatial(sd):
    """The C++ TensorShape's spatial dims: 1-D tensors are 2-D ones with H = 1 (the C++ tensors
    have 2 or 3 spatial axes)."""
    return max(sd, 2)


def _ints(v):
    return tuple(int(e) for e in v)


def _check_shape(shape, fn):
    """(problem or None, shape tuple or None)."""
    try:
        s = tuple(shape)
        ok = len(s) in (3, 4, 5) and all(isinstance(e, (int, np.integer)) and not isinstance(e, bool) for e in s)
    except TypeError:
        ok = False
    if not ok:
        return f"{fn}: shape must be a tuple (N, C, W), (N, C, H, W) or (N, C, D, H, W) of ints, got {shape!r}", None
    if any(e < 1 for e in s):
        return f"{fn}: shape {tuple(s)} has an extent < 1", None
    return None, _ints(s)


class Layout:
    """How a tensor is laid out over the ranks of a communicator (collective constructors:
    `Layout.sharded`, `Layout.replicated`, `Layout.on_rank`). Immutable, identical on every rank.

    >>> L = hpart.torch.Layout.sharded((1, 16, 256, 256), (1, 1, 2, 2))      # 4 ranks, H and W halved
    >>> L.local_shape, L.local_slices, L.placements
    ((1, 16, 128, 128), (slice(0, 1), slice(0, 16), slice(0, 128), slice(128, 256)),
     (Replicate(), Replicate(), Shard(dim=2), Shard(dim=3)))
    >>> x = torch.randn(L.local_shape)          # this rank's shard
    """

    def __init__(self, impl, shape):
        # Private: use the constructors.
        self._impl = impl
        self._shape = _ints(shape)
        self._axes = _axes(len(self._shape))
        boxes = impl.boxes()
        self._boxes = [tuple(slice(0, 0) if empty else slice(lo[a], hi[a] + 1) for a in self._axes)
                       for lo, hi, empty in boxes]
        self._local = self._boxes[impl.rank]
        self._halo_plans = {}     # (halo (d, h, w), dtype, transfer[, "assume_zero"]) -> _hpart._HaloPlan
        self._halo_specs = {}     # (function, halo, padding) -> halo._Spec (checks computed once)
        self._redist_plans = {}   # (to Layout, dtype) -> _hpart._RedistributionPlan
        self._related = {}        # ("on_rank", root) / ("replicated",) -> Layout

    # -- constructors ------------------------------------------------------------------------
    @classmethod
    def sharded(cls, shape, mesh, *, periodic=None, split="balanced", cost=None, cost_box=None, align_levels=0,
                comm=None):
        """A layout over a process mesh. Collective over `comm` (mpi4py; default COMM_WORLD).

        shape: (N, C, W), (N, C, H, W) or (N, C, D, H, W), the global tensor.
        mesh: ranks along each axis of shape (same length; 1 = Replicate, > 1 = Shard), whose
            product is comm.size, e.g. (1, 1, 2, 2). N and C may be cut too (no halos there).
        periodic: None (no axis), a bool (every spatial axis), or one bool per spatial axis, or
            per axis of shape (N and C must be False): halo exchanges wrap around those axes.
        split: "balanced" (default: equal widths, or cut by hpart's grid partitioner on `cost`),
            "uniform" (equal widths), or explicit extents: one list per axis of shape (None for
            an axis with one part) of mesh[axis] extents summing to shape[axis].
        cost, cost_box: balanced split from a cost field. Each rank passes the costs (numpy
            float64, C-contiguous, shape = the box's extents) of a box of spatial cells,
            `cost_box` = one (start, stop) pair or slice per spatial axis ((W,), (H, W) or (D, H, W));
            the ranks' boxes are disjoint and cover the spatial domain (a rank may pass none).
        align_levels: spatial cuts at multiples of 2**align_levels (pooling/upsampling by 2 that
            many times stays aligned; the last shard absorbs the remainder).
        """
        fn = "hpart.torch.Layout.sharded"
        problem, shp = _check_shape(shape, fn)
        nd = len(shp) if shp else 4
        sd = nd - 2
        parts5, per5, extents5 = [1] * 5, [False] * 5, [[] for _ in range(5)]
        method = "balanced"
        cost_arr, lo, hi = None, [], []
        axes = _axes(nd)

        def bad(msg):
            nonlocal problem
            if problem is None:
                problem = f"{fn}: {msg}"

        try:
            m = tuple(int(e) for e in mesh)
            if len(m) != nd:
                bad(f"mesh {m} has {len(m)} entries, the shape {nd}: one count of ranks per tensor axis")
            elif any(e < 1 for e in m):
                bad(f"mesh {m} has an entry < 1")
            else:
                for a, e in zip(axes, m):
                    parts5[a] = e
        except (TypeError, ValueError):
            bad(f"mesh must be a tuple of ints (ranks per axis), got {mesh!r}")
        if periodic is None:
            pass
        elif isinstance(periodic, (bool, np.bool_)):
            for a in axes[2:]:
                per5[a] = bool(periodic)
        else:
            p = tuple(bool(e) for e in periodic)
            if len(p) == sd:
                for a, e in zip(axes[2:], p):
                    per5[a] = e
            elif len(p) == nd and not p[0] and not p[1]:
                for a, e in zip(axes[2:], p[2:]):
                    per5[a] = e
            else:
                bad(f"periodic {p} must have one flag per spatial axis ({sd}) or per axis ({nd}, N and C False)")
        if isinstance(split, str):
            if split not in ("balanced", "uniform"):
                bad(f"split '{split}' (balanced, uniform, or a list of extents per axis)")
            method = split
        else:
            method = "explicit"
            try:
                ex = list(split)
                if len(ex) != nd:
                    bad(f"split has {len(ex)} entries, the shape {nd}: one list of extents (or None) per axis")
                else:
                    for a, e in zip(axes, ex):
                        extents5[a] = [] if e is None else [int(v) for v in e]
            except (TypeError, ValueError):
                bad(f"split must be 'balanced', 'uniform' or a list of extents per axis, got {split!r}")
        if cost is not None:
            if isinstance(cost, torch.Tensor):
                cost = cost.detach().cpu().numpy()
            if cost_box is None:
                bad("cost needs cost_box (the spatial cells whose costs this rank passes)")
            elif not isinstance(cost, np.ndarray) or cost.dtype != np.float64:
                bad(f"cost must be a numpy float64 array, got {getattr(cost, 'dtype', type(cost).__name__)}")
            elif not cost.flags.c_contiguous:
                bad("cost is not C-contiguous: numpy.ascontiguousarray(cost) makes a contiguous copy")
            else:
                try:
                    box = [(b.start, b.stop) if isinstance(b, slice) else (int(b[0]), int(b[1])) for b in cost_box]
                except (TypeError, ValueError, IndexError):
                    box = None
                if box is None or len(box) != sd:
                    bad(f"cost_box must be one (start, stop) per spatial axis ({sd}), got {cost_box!r}")
                elif tuple(cost.shape) != tuple(b - a for a, b in box):
                    bad(f"cost has shape {tuple(cost.shape)}, cost_box {tuple(box)} needs "
                        f"{tuple(b - a for a, b in box)}")
                else:
                    # Grid order: x = W first; a 1-D box spans the C++ H axis's one cell.
                    lo = [a for a, _ in reversed(box)] + [0] * (_cpp_spatial(sd) - sd)
                    hi = [b - 1 for _, b in reversed(box)] + [0] * (_cpp_spatial(sd) - sd)
                    cost_arr = cost.reshape(-1)
        try:
            align_levels = int(align_levels)
            if align_levels < 0:
                bad(f"align_levels {align_levels} < 0")
        except (TypeError, ValueError):
            bad(f"align_levels must be an int, got {align_levels!r}")
            align_levels = 0
        shape5 = _shape5(shp) if shp else [0] * 5
        agree(comm, fn, problem, [sd] + shape5 + parts5,
              ["the number of spatial axes"] + [f"shape[{a}]" for a in "NCDHW"] + [f"mesh[{a}]" for a in "NCDHW"])
        impl = _hpart._TensorLayout.sharded(shape5, _cpp_spatial(sd), parts5, per5, method, extents5, cost_arr, lo, hi,
                                            align_levels, comm)
        return cls(impl, shp)

    @classmethod
    def replicated(cls, shape, comm=None):
        """Every rank holds the whole tensor (rank 0's copy is the primary). Collective."""
        fn = "hpart.torch.Layout.replicated"
        problem, shp = _check_shape(shape, fn)
        shape5 = _shape5(shp) if shp else [0] * 5
        agree(comm, fn, problem, [len(shp or ()) - 2] + shape5,
              ["the number of spatial axes"] + [f"shape[{a}]" for a in "NCDHW"])
        return cls(_hpart._TensorLayout.replicated(shape5, _cpp_spatial(len(shp) - 2), comm), shp)

    @classmethod
    def on_rank(cls, shape, root=0, comm=None):
        """Rank `root` holds the whole tensor, the others nothing (empty shards). Collective."""
        fn = "hpart.torch.Layout.on_rank"
        problem, shp = _check_shape(shape, fn)
        shape5 = _shape5(shp) if shp else [0] * 5
        agree(comm, fn, problem, [len(shp or ()) - 2] + shape5 + [int(root)],
              ["the number of spatial axes"] + [f"shape[{a}]" for a in "NCDHW"] + ["root"])
        return cls(_hpart._TensorLayout.on_rank(shape5, _cpp_spatial(len(shp) - 2), int(root), comm), shp)

    # -- properties ---------------------------------------------------------------------------
    @property
    def shape(self):
        """The global shape, as given (3, 4 or 5 entries)."""
        return self._shape

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def spatial_dims(self):
        """1 for (N, C, W), 2 for (N, C, H, W), 3 for (N, C, D, H, W)."""
        return len(self._shape) - 2

    @property
    def local_slices(self):
        """The part of the global tensor this rank holds: one slice per axis (x_global[slices])."""
        return self._local

    @property
    def local_shape(self):
        """This rank's shard (interior: no halo); all zeros for a rank without cells."""
        return tuple(s.stop - s.start for s in self._local)

    def boxes(self):
        """Every rank's local_slices, in rank order."""
        return list(self._boxes)

    def halo_shape(self, halo):
        """The local shape grown by the halo on the spatial axes (all zeros without cells)."""
        from .halo import halo_widths
        h = halo_widths(self, halo)
        if self.empty:
            return (0,) * self.ndim
        return self.local_shape[:2] + tuple(e + 2 * w for e, w in zip(self.local_shape[2:], h))

    @property
    def empty(self):
        """Whether this rank holds no cells."""
        return any(s.stop == s.start for s in self._local)

    @property
    def mesh(self):
        """Ranks along each axis (1 for every axis of replicated and on_rank layouts)."""
        p = self._impl.parts5
        return tuple(p[a] for a in self._axes)

    @property
    def mesh_coords(self):
        """This rank's position along each axis of the mesh."""
        c = self._impl.mesh_coord5
        return tuple(c[a] for a in self._axes)

    @property
    def extents(self):
        """Per axis, the extent of the shard at each mesh position (sharded layouts)."""
        s5 = self._impl.starts5
        out = []
        for a in self._axes:
            st = list(s5[a]) or [0]
            e = self._shape[self._axes.index(a)]
            out.append([b - a_ for a_, b in zip(st, st[1:] + [e])])
        return out

    @property
    def placements(self):
        """Per axis: hpart.torch.Shard(dim) where the mesh cuts it, else Replicate() (they
        compare equal to the strings "Shard" and "Replicate")."""
        return tuple(Shard(i) if m > 1 else Replicate() for i, m in enumerate(self.mesh))

    @property
    def periodic(self):
        """Per axis, whether halos wrap around it (False for N, C and layouts without a mesh)."""
        p = self._impl.periodic5
        return tuple(bool(p[a]) for a in self._axes)

    @property
    def comm(self):
        """The mpi4py communicator (None was given: MPI.COMM_WORLD)."""
        from mpi4py import MPI
        c = self._impl.comm
        return MPI.COMM_WORLD if c is None else c

    @property
    def rank(self):
        return self._impl.rank

    @property
    def size(self):
        return self._impl.size

    @property
    def has_mesh(self):
        return self._impl.has_mesh

    def __repr__(self):
        return (f"hpart.torch.Layout(shape={self._shape}, mesh={self.mesh}, local_slices={self._local}, "
                f"rank={self.rank}/{self.size})")

    def __eq__(self, other):
        return isinstance(other, Layout) and (self is other or (self.ndim == other.ndim and self._impl.same_as(other._impl)))

    __hash__ = object.__hash__

    # -- internals shared by halo.py and redistribute.py ----------------------------------------
    def _fingerprint(self):
        # The C++ fingerprint (< 2**62) cannot tell (N, C, W) from (N, C, 1, W): mix in the ndim.
        return self._impl.fingerprint ^ (self.ndim << 56)

    def _on_rank(self, root):
        key = ("on_rank", root)
        if key not in self._related:
            self._related[key] = Layout.on_rank(self._shape, root, self._impl.comm)
        return self._related[key]

    def _replicated(self):
        key = ("replicated",)
        if key not in self._related:
            self._related[key] = Layout.replicated(self._shape, self._impl.comm)
        return self._related[key]

    def release(self):
        """Frees the cached halo and redistribution plans of this layout now (their MPI requests
        and buffers), e.g. before freeing its communicator. The layout stays usable: the next
        call plans again (collectively)."""
        for p in self._halo_plans.values():
            p.release()
        for p in self._redist_plans.values():
            p.release()
        self._halo_plans.clear()
        self._redist_plans.clear()
        for lay in self._related.values():
            lay.release()
