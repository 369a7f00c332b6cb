"""Text point files (`x y [z] [w]` per line): hand-made edge cases and mutants of generated files."""

import os

from mutations import (BYTE_MUTATIONS, Case, data_lines, garbage, join_lines, number_text, replace_token,
                       split_lines, write_file)


def point_text(rng, n, columns):
    return ("\n".join(" ".join(number_text(rng, rng.random()) for _ in range(columns)) for _ in range(n)) + "\n").encode()


def _point_bases(rng):
    """(name, bytes, columns, dim that reads them as intended)."""
    def w(rng):
        return rng.paretovariate(1.5)
    bases = []
    for n in (5, 40, 300):
        bases.append((f"xy{n}", point_text(rng, n, 2), 2, 2))
        bases.append((f"xyz{n}", point_text(rng, n, 3), 3, 3))
        xyw = "\n".join(f"{rng.random():.6f} {rng.random():.6f} {w(rng):.4f}" for _ in range(n)) + "\n"
        bases.append((f"xyw{n}", xyw.encode(), 3, 2))
        xyzw = "\n".join(f"{rng.random():.6f} {rng.random():.6f} {rng.random():.6f} {w(rng):.4f}" for _ in range(n)) + "\n"
        bases.append((f"xyzw{n}", xyzw.encode(), 4, 3))
    return bases


def _fixed_point_files(rng):
    """Hand-made files: (name, bytes, dim, key). `key` files reproduce issue 20's classes."""
    def rows(n, f):
        return ("\n".join(f(i) for i in range(n)) + "\n").encode()
    return [
        ("empty", b"", 0, True),
        ("blank_lines", b"\n\n   \n\t\n", 0, False),
        ("only_comments", b"# x y\n% nothing here\n   # indented\n", 0, False),
        ("single_point", b"0.5 0.5\n", 0, True),
        ("single_point_weighted", b"0.5 0.5 0.5 3\n", 3, False),
        ("two_points", b"0 0\n1 1\n", 0, True),
        ("two_points_3d_no_newline", b"0 0 0\n1 1 1", 3, False),
        ("identical_points", rows(50, lambda i: "0.25 0.75"), 2, True),
        ("identical_points_3d", rows(7, lambda i: "1 1 1"), 0, False),
        ("zero_weights", rows(20, lambda i: f"{i} {i % 3} 0"), 2, False),
        ("one_nonzero_weight", rows(20, lambda i: f"{i} {i % 3} {5 if i == 7 else 0}"), 2, False),
        ("weights_1e308", rows(30, lambda i: f"{i} {i % 7} 1e308"), 2, True),
        ("weights_1e300_one", rows(30, lambda i: f"{i} {i % 7} {'1e300' if i == 3 else '1'}"), 2, True),
        ("weights_1e-300", rows(30, lambda i: f"{i} {i % 7} 1e-300"), 2, False),
        ("weights_denormal", rows(30, lambda i: f"{i} {i % 7} 4.9e-324"), 2, False),
        ("weights_mixed_scale", rows(30, lambda i: f"{i} {i % 7} {10.0 ** (i - 15):g}"), 2, False),
        ("weights_2e62", rows(30, lambda i: f"{i} {i % 7} 4611686018427387904"), 2, False),
        ("negative_weight_last", rows(30, lambda i: f"{i} {i % 7} {-1 if i == 29 else 1}"), 2, True),
        ("negative_zero_weight", rows(10, lambda i: f"{i} {i} -0"), 2, False),
        ("coords_1e308", rows(20, lambda i: f"{(-1) ** i * 1e308:g} {i}"), 0, False),
        ("coords_tiny_span", rows(20, lambda i: f"{i * 1e-310:.3e} 1"), 0, False),
        ("coords_huge_offset", rows(20, lambda i: f"{1e15 + i:.1f} {1e15 - i:.1f}"), 0, False),
        ("coords_negative", rows(20, lambda i: f"{-i - 1} {-2 * i}"), 0, False),
        ("mixed_columns", b"0 0\n1 1\n2 2 2\n3 3\n", 0, False),
        ("one_column", rows(10, lambda i: f"{i}"), 0, False),
        ("five_columns", rows(10, lambda i: f"{i} {i} {i} {i} {i}"), 0, False),
        ("xy_forced_3d", rows(10, lambda i: f"{i} {i + 1}"), 3, False),
        ("xyzw_forced_2d", rows(10, lambda i: f"{i} {i} {i} 1"), 2, False),
        ("commas_tabs", rows(12, lambda i: f"{i},\t{i * 2} ,{i % 5}"), 2, False),
        ("semicolons", rows(12, lambda i: f"{i};{i * 2}"), 0, False),
        ("inline_comments", rows(12, lambda i: f"{i} {i} # point {i}"), 0, False),
        ("comments_between", rows(12, lambda i: f"{i} {i}" if i % 3 else f"% c{i}\n{i} {i}"), 0, False),
        ("crlf", rows(12, lambda i: f"{i} {i}\r"), 0, False),
        ("cr_only", "\r".join(f"{i} {i}" for i in range(12)).encode(), 0, False),
        ("bom", b"\xef\xbb\xbf" + rows(5, lambda i: f"{i} {i}"), 0, False),
        ("utf16", "0 0\n1 1\n".encode("utf-16"), 0, False),
        ("nul_inside", b"0 0\n1 \x00 1\n2 2\n", 0, False),
        ("long_line", ("1 " * 50000 + "\n").encode(), 0, False),
        ("long_number", ("0." + "1" * 100000 + " 1\n2 2\n").encode(), 0, False),
        ("garbage_small", garbage(rng, 64), 0, False),
        ("garbage_large", garbage(rng, 20000), 0, False),
        ("garbage_text", bytes(rng.choice(b"0123456789 .-+eE\n\t,#") for _ in range(4000)), 0, False),
        ("many_points_few_bytes", b"0 0\n" * 5000, 0, False),
        ("fewer_points_than_parts", b"0 0\n1 0\n0 1\n", 2, True),
    ]


TEXT_MUTATIONS = BYTE_MUTATIONS + ["token", "token", "token", "extra_column", "missing_column", "negative_weight",
                                   "duplicate_lines", "swap_lines", "drop_lines", "truncate_line"]


def _mutate_points(rng, data, how):
    if callable(how):
        return how(rng, data), how.__name__
    lines = split_lines(data)
    rows = data_lines(lines)
    i = rng.choice(rows) if rows else 0
    if how == "token":
        return replace_token(rng, data)
    if how == "extra_column":
        lines[i] += " " + number_text(rng, rng.random())
    elif how == "missing_column":
        lines[i] = " ".join(lines[i].split()[:-1])
    elif how == "negative_weight":
        tokens = lines[i].split()
        tokens[-1] = "-" + tokens[-1]
        lines[i] = " ".join(tokens)
    elif how == "duplicate_lines":
        lines[i:i] = [lines[i]] * rng.randint(1, 5)
    elif how == "swap_lines" and len(rows) > 1:
        j = rng.choice(rows)
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "drop_lines":
        del lines[i:i + rng.randint(1, 3)]
    elif how == "truncate_line":
        lines = lines[:i + 1]
        lines[i] = lines[i][:rng.randrange(max(1, len(lines[i])))]
        return join_lines(lines), f"{how} at line {i + 1}"
    return join_lines(lines), f"{how} at line {i + 1}"


def point_text_cases(rng, work, mutants):
    cases = []
    parts = [1, 2, 3, 7, 64]

    def add(name, data, dim, key=False, k=None, notes=None):
        path = os.path.join(work, f"pt_{name}.txt")
        write_file(path, data)
        k = k or rng.choice(parts)
        method = rng.choice(["hilbert", "hilbert", "morton"])
        args = ["partition", "--points", path, "--dim", str(dim), "--parts", str(k), "--method", method, "--out", "{out}"]
        cases.append(Case("points-text", f"pt_{name}", path, args, key, "points", notes or {}))

    for name, data, dim, key in _fixed_point_files(rng):
        add(name, data, dim, key)
    add("parts_2e30", b"0 0\n1 1\n2 2\n", 0, True, k=1 << 30)
    # Each part's weight is a double, their total is not: the imbalance must not come out as -1.
    add("weights_1e308_one_per_part", b"0 0 1e308\n1 0 1e308\n0 1 1e308\n1 1 1e308\n", 2, True, k=4)
    bases = _point_bases(rng)
    for i in range(mutants):
        bname, data, _, dim = bases[i % len(bases)]
        how = TEXT_MUTATIONS[(i * 7 + i // len(TEXT_MUTATIONS)) % len(TEXT_MUTATIONS)]
        mutated, what = _mutate_points(rng, data, how)
        # Mostly the dimension the file was written for; sometimes 0 (from the columns) or the other one.
        d = rng.choice([dim, dim, 0, 5 - dim])
        add(f"m{i:03d}_{bname}", mutated, d, notes={"mutation": what})
    return cases
