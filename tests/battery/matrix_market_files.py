"""MatrixMarket coordinate files: banner variants, size lines that lie, entries out of range."""

import os

from mutations import BYTE_MUTATIONS, SPECIAL_NUMBERS, Case, garbage, number_text, write_file


def matrix_market(n, entries, banner="%%MatrixMarket matrix coordinate real symmetric", size=None, field="real"):
    out = [banner, "% written by the hpart battery", size or f"{n} {n} {len(entries)}"]
    for i, j, v in entries:
        out.append(f"{i} {j}" + ("" if field == "pattern" else f" {v}"))
    return ("\n".join(out) + "\n").encode()


def _mm_base(rng, n=24):
    """A valid symmetric matrix: a path, some diagonal entries and a few longer edges (lower triangle)."""
    entries = [(i + 2, i + 1, number_text(rng, rng.random())) for i in range(n - 1)]
    entries += [(i + 1, i + 1, "4") for i in range(0, n, 5)]
    entries += [(i, 1, "1.5") for i in sorted(set(rng.randint(3, n) for _ in range(4)))]
    return n, entries


BANNERS = [
    "%%MatrixMarket matrix coordinate real general", "%%MatrixMarket matrix coordinate pattern symmetric",
    "%%MatrixMarket matrix coordinate integer general", "%%MatrixMarket matrix coordinate complex hermitian",
    "%%MatrixMarket matrix coordinate real skew-symmetric", "%%MatrixMarket matrix array real general",
    "%%MatrixMarket matrix coordinate quaternion general", "%%MatrixMarket vector coordinate real general",
    "%%matrixmarket MATRIX Coordinate REAL General", "%MatrixMarket matrix coordinate real general",
    "%%MatrixMarket matrix coordinate real", "%%MatrixMarket  matrix   coordinate  real  general  extra", "",
    "MatrixMarket matrix coordinate real general", "%%MatrixMarket matrix coordinate pattern general",
]
MM_MUTATIONS = ["banner", "size_nnz_plus", "size_nnz_minus", "size_nonsquare", "size_huge", "size_rows_small",
                "entry_out_of_range", "entry_value", "entry_missing_value", "entry_extra_value", "entry_duplicate",
                "blank_lines", "size_fields"] + BYTE_MUTATIONS


def mutate_mm(rng, how):
    n, entries = _mm_base(rng, rng.choice([5, 24, 60]))
    banner, size, field = "%%MatrixMarket matrix coordinate real symmetric", None, "real"
    what = how
    if how == "banner":
        banner = rng.choice(BANNERS)
        field = "pattern" if "pattern" in banner else "real"
        if "complex" in banner or "hermitian" in banner:
            entries = [(i, j, f"{v} 0.5") for i, j, v in entries]
        what += f" {banner!r}"
    elif how == "size_nnz_plus":
        size = f"{n} {n} {len(entries) + rng.randint(1, 3)}"
    elif how == "size_nnz_minus":
        size = f"{n} {n} {len(entries) - rng.randint(1, 3)}"
    elif how == "size_nonsquare":
        size = f"{n} {n + rng.choice([-1, 1, 1000])} {len(entries)}"
    elif how == "size_huge":
        big = rng.choice([3000000000, 1 << 31, 1 << 40, (1 << 62) + 1, 1 << 63, 99999999999999999999])
        size = f"{big} {big} {len(entries)}" if rng.random() < 0.7 else f"{n} {n} {big}"
        what += f" {size}"
    elif how == "size_rows_small":
        size = f"{n // 2} {n // 2} {len(entries)}"
    elif how == "size_fields":
        size = rng.choice([f"{n} {n}", f"{n} {n} {len(entries)} 7", f"{n}", "", f"-{n} -{n} {len(entries)}",
                           f"{n}.0 {n} {len(entries)}", f"{n} {n} -1"])
        what += f" {size!r}"
    elif how == "entry_out_of_range":
        k = rng.randrange(len(entries))
        i, j, v = entries[k]
        bad = rng.choice(["0", str(n + 1), "-1", "9223372036854775808", "x", "1.5"])
        entries[k] = (bad, j, v) if rng.random() < 0.5 else (i, bad, v)
        what += f" entry {k + 1}: {bad}"
    elif how == "entry_value":
        k = rng.randrange(len(entries))
        i, j, _ = entries[k]
        entries[k] = (i, j, rng.choice(SPECIAL_NUMBERS))
    elif how == "entry_missing_value":
        k = rng.randrange(len(entries))
        i, j, _ = entries[k]
        entries[k] = (i, j, "")
    elif how == "entry_extra_value":
        k = rng.randrange(len(entries))
        i, j, v = entries[k]
        entries[k] = (i, j, f"{v} 2.0")
    elif how == "entry_duplicate":
        entries.append(entries[rng.randrange(len(entries))])
    text = matrix_market(n, entries, banner, size, field)
    if how == "blank_lines":
        text = text.replace(b"\n", b"\n\n", rng.randint(1, 20))
    elif callable(how):
        text, what = how(rng, text), how.__name__
    return text, what


def mm_cases(rng, work, mutants):
    cases = []

    def add(name, data, key=False, notes=None, k=None):
        path = os.path.join(work, f"mm_{name}.mtx")
        write_file(path, data)
        k = k or rng.choice([1, 2, 3, 5, 16])
        method = rng.choice(["graph", "graph", "metis"])
        args = ["partition", "--graph", path, "--format", "mm", "--parts", str(k), "--method", method, "--out", "{out}"]
        cases.append(Case("graph-mm", f"mm_{name}", path, args, key, "graph", notes or {}))

    n, entries = _mm_base(rng)
    fixed = [
        ("ok", matrix_market(n, entries), False),
        ("n_3e9_three_lines", b"%%MatrixMarket matrix coordinate pattern symmetric\n3000000000 3000000000 1\n2 1\n", True),
        ("n_2e40", b"%%MatrixMarket matrix coordinate pattern general\n1099511627776 1099511627776 2\n1 2\n2 1\n", True),
        ("nnz_2e62", b"%%MatrixMarket matrix coordinate pattern general\n4 4 4611686018427387904\n1 2\n", False),
        ("only_banner", b"%%MatrixMarket matrix coordinate real general\n", False),
        ("empty", b"", False),
        ("diagonal_only", matrix_market(4, [(i, i, "1") for i in range(1, 5)]), False),
        ("one_by_one", matrix_market(1, [(1, 1, "2")]), True),
        ("zero_size", b"%%MatrixMarket matrix coordinate real general\n0 0 0\n", False),
        ("non_square", b"%%MatrixMarket matrix coordinate real general\n3 4 2\n1 2 1\n3 4 1\n", False),
        ("array_format", b"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", False),
        ("crlf", matrix_market(n, entries).replace(b"\n", b"\r\n"), False),
        ("garbage", garbage(rng, 2000), False),
    ]
    for name, data, key in fixed:
        add(name, data, key)
    add("parts_2e30", matrix_market(n, entries), True, k=1 << 30)
    for i in range(mutants):
        how = MM_MUTATIONS[(i * 3 + i // len(MM_MUTATIONS)) % len(MM_MUTATIONS)]
        text, what = mutate_mm(rng, how)
        add(f"m{i:03d}", text, notes={"mutation": what})
    return cases
