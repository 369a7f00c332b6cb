"""Sharded group_norm: statistics over the whole domain, gradients exact.

Per (sample, group): the mean of all its cells on every rank, then the mean of the centred
squares (two passes, as stable as torch's), each an all-reduce of per-rank partial sums through
`shared_sum`, whose backward all-reduces the gradients of the sums again: the adjoint of "every
rank gets the total", so autograd's gradient through the statistics is the unsharded one. A
sample split over the batch axis contributes its sums at its global index (zeros elsewhere).
"""
import math

import torch
import torch.nn.functional as F

from ._collective import agree, into_shards, shared_sum, values_crc
from ._geometry import geometry
from .shard_tensor import ShardTensor, implements


@implements(F.group_norm)
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    x = input
    g = geometry(x.layout)
    comm = x.layout.comm
    problem = None
    if g.ndim < 3:
        problem = "group_norm: a ShardTensor with spatial axes (N, C, ...)"
    elif g.parts[1] > 1:
        problem = "group_norm: the layout splits the channels; group statistics need whole channels"
    elif num_groups < 1 or g.shape[1] % num_groups:
        problem = f"group_norm: {g.shape[1]} channels do not split into {num_groups} groups"
    elif weight is not None and tuple(weight.shape) != (g.shape[1],):
        problem = f"group_norm: weight of shape {tuple(weight.shape)} for {g.shape[1]} channels"
    elif bias is not None and tuple(bias.shape) != (g.shape[1],):
        problem = f"group_norm: bias of shape {tuple(bias.shape)} for {g.shape[1]} channels"
    agree(comm, "group_norm", problem, same=(("num_groups", num_groups), ("eps", float(eps)),
                               ("affine", (weight is None, bias is None)),
                               ("weight values (CRC-32)", values_crc(weight)),
                               ("bias values (CRC-32)", values_crc(bias)),
                               ("requires_grad of weight and bias",
                                tuple(bool(getattr(t, "requires_grad", False)) for t in (weight, bias)))))
    n_glob, c = g.shape[0], g.shape[1]
    n0, n1 = g.start(0), g.stop(0)
    local = x.local
    cells = math.prod(local.shape[2:])
    count = (c // num_groups) * math.prod(g.shape[2:])
    xg = local.reshape(n1 - n0, num_groups, (c // num_groups) * cells)

    def total(partial):  # (local samples, G) partial sums -> (local samples, G) global sums
        full = F.pad(partial, (0, 0, n0, n_glob - n1))
        return shared_sum(full, comm)[n0:n1]

    mean = total(xg.sum(-1)) / count
    xc = xg - mean.unsqueeze(-1)
    var = total((xc * xc).sum(-1)) / count
    y = (xc * torch.rsqrt(var + eps).unsqueeze(-1)).reshape(local.shape)
    shape = (1, c) + (1,) * (g.ndim - 2)
    if weight is not None:
        y = y * into_shards(weight, comm).reshape(shape)
    if bias is not None:
        y = y + into_shards(bias, comm).reshape(shape)
    return ShardTensor._wrap(y, x.layout)
