"""What the battery's generators share: the case record, the environment of every run, values
beyond the limits of a text field, and the byte- and line-level mutations of any file."""

import os
from dataclasses import dataclass, field

# Values that a number field of a text file may hold after a mutation: out of range, not finite,
# not a number in C's sense, or a number only in some locale or language.
SPECIAL_NUMBERS = [
    "1e308", "-1e308", "1e309", "-1e400", "4.9e-324", "1e-320", "2.5e-310", "nan", "-nan", "NaN", "inf", "-inf",
    "Infinity", "0x1p3", "0x10", "1e", "--1", "+", "-", ".", "1.2.3", "1_000", "9" * 400, "1e99999", "+.5", "-0",
    "0e0", "\u0663", "\u00a01", "1f", "1d0", "\uff11", "9223372036854775808", "18446744073709551616",
]
# Values for an integer field of a graph file: ids and weights at and beyond every limit.
SPECIAL_INTEGERS = [
    "0", "-1", "-9223372036854775808", "1152921504606846976", "4611686018427387904", "9223372036854775807",
    "9223372036854775808", "18446744073709551615", "18446744073709551616", "99999999999999999999999", "1.5",
    "1e3", "0x10", "abc", "+3", "", "2147483648", "4294967296",
]
WEIGHT_LIMITS = ["0", "-1", "1152921504606846976", "4611686018427387904", "9223372036854775807",
                 "9223372036854775808", "18446744073709551616", "2.5"]


@dataclass
class Case:
    kind: str        # points-text, points-h5, grid-h5, graph-metis, graph-chaco, graph-mm
    name: str        # unique, says what was done to the file
    path: str
    args: list       # hpart's arguments; "{out}" is replaced by a part file per rank count
    key: bool = False  # a named class of issue 20 (or a rank without rows): at every P in the quick subset
    check: str = ""  # points, graph: a success's part file and report are checked; grid: its report
    notes: dict = field(default_factory=dict)


def write_file(path, data):
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def run_env(memory_limit=""):
    """The environment of every hpart run: one thread per rank, mpirun allowed as root, and a
    memory budget per rank (HPART_MEMORY_LIMIT) when given: then a file that declares more than
    fits is refused alike on every machine, instead of being served from a big machine's memory."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    # Open MPI's mpirun otherwise lingers up to 2 s after a nonzero exit (before its SIGKILL of
    # ranks that are gone anyway): the time of the quick subset, not of hpart.
    env["OMPI_MCA_odls_base_sigkill_timeout"] = "0"
    env.pop("HPART_MEMORY_LIMIT", None)
    if memory_limit:
        env["HPART_MEMORY_LIMIT"] = memory_limit
    return env


def number_text(rng, x):
    return rng.choice(["%.6f", "%.17g", "%g", "%.3e"]) % x


# Byte-level mutations, for every kind of file.

def flip_bits(rng, data, count=None, lo=0, hi=None):
    b = bytearray(data)
    if not b:
        return bytes(b)
    hi = len(b) if hi is None else min(hi, len(b))
    lo = min(lo, hi - 1)
    for _ in range(count or rng.randint(1, 8)):
        i = rng.randrange(lo, hi)
        b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def insert_bytes(rng, data):
    i = rng.randrange(len(data) + 1)
    junk = bytes(rng.choice([rng.randrange(256), rng.choice(b" \t\n\r,#%.-+eE0123456789")]) for _ in range(rng.randint(1, 12)))
    return data[:i] + junk + data[i:]


def delete_bytes(rng, data):
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + data[i + rng.randint(1, 16):]


def truncate(rng, data):
    return data[:rng.randrange(len(data))] if data else data


def crlf(rng, data):
    return data.replace(b"\n", b"\r\n")


def cr_only(rng, data):
    return data.replace(b"\n", b"\r")


def no_final_newline(rng, data):
    return data.rstrip(b"\n")


def with_bom(rng, data):
    return b"\xef\xbb\xbf" + data


def nul_bytes(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        b.insert(rng.randrange(len(b) + 1), 0)
    return bytes(b)


BYTE_MUTATIONS = [flip_bits, insert_bytes, delete_bytes, truncate, crlf, cr_only, no_final_newline, with_bom, nul_bytes]


def garbage(rng, size):
    return bytes(rng.randrange(256) for _ in range(size))


def split_lines(data):
    return data.decode("utf-8", "surrogateescape").split("\n")


def join_lines(lines):
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def data_lines(lines):
    return [i for i, l in enumerate(lines) if l.strip() and l.lstrip()[0] not in "#%"]


def replace_token(rng, data, values=SPECIAL_NUMBERS, skip_lines=0):
    """One number field of one data line (after the first `skip_lines` of them) becomes a special value."""
    lines = split_lines(data)
    rows = data_lines(lines)[skip_lines:]
    if not rows:
        return data, "no data line"
    i = rng.choice(rows)
    tokens = lines[i].split()
    if not tokens:
        return data, "empty line"
    j = rng.randrange(len(tokens))
    value = rng.choice(values)
    tokens[j] = value
    lines[i] = " ".join(tokens)
    return join_lines(lines), f"line {i + 1} field {j + 1} = {value[:20]!r}"
