"""Argument checks of hpart.torch's collective calls: each rank checks its own arguments, then one
MPI_Allreduce (hpart._hpart._torch_agree) combines the verdicts, compares what every rank must pass
alike and ORs the ranks' "needs a gradient" flags, so bad input on one rank is every rank's
hpart.Error and never a hang."""
import torch

from .. import _hpart

DTYPES = {torch.float32: ("float32", 1), torch.float64: ("float64", 2)}
DTYPE_OF_CODE = {1: torch.float32, 2: torch.float64}


def error(message):
    e = _hpart.Error(message)
    e.code = _hpart.ErrorCode.invalid_argument
    return e


def agree(comm, fn, problem, values=(), names=(), flag=False, abstain=()):
    """Collective. Raises the same hpart.Error on every rank when any rank has a problem (the
    lowest failing rank's message) or a value of `values` differs between the ranks that do not
    abstain from it; returns (flag on any rank, the agreed values)."""
    return _hpart._torch_agree(comm, fn, problem or "", [int(v) for v in values], list(names), bool(flag),
                               [bool(a) for a in abstain])


def tensor_problem(x, fn, name, shape):
    """Why `x` cannot be this rank's local tensor of `shape` (None when it can): a torch tensor of
    float32 or float64, contiguous, of exactly that shape."""
    if not isinstance(x, torch.Tensor):
        return f"{fn}: {name} must be a torch.Tensor, got {type(x).__name__}"
    if x.dtype not in DTYPES:
        return f"{fn}: {name} has dtype {x.dtype}, expected torch.float32 or torch.float64"
    if x.layout != torch.strided:
        return f"{fn}: {name} is a {x.layout} tensor, expected a dense (strided) one"
    if tuple(x.shape) != tuple(shape):
        return f"{fn}: {name} has shape {tuple(x.shape)}, this rank's shard of the layout is {tuple(shape)}"
    if not x.is_contiguous():
        return f"{fn}: {name} is not contiguous (a slice or permute?): x.contiguous() makes a contiguous copy"
    return None


def dtype_code(x):
    return DTYPES[x.dtype][1] if isinstance(x, torch.Tensor) and x.dtype in DTYPES else 0


def wants_grad(*tensors):
    return torch.is_grad_enabled() and any(isinstance(t, torch.Tensor) and t.requires_grad for t in tensors)


def anchor(needed):
    """A leaf that requires grad, passed to an autograd Function on a rank whose inputs need no
    gradient while another rank's do: its output then requires grad too, so that every rank runs
    the Function's backward (a collective) when the loss is back-propagated."""
    return torch.empty(0, requires_grad=True) if needed else None
