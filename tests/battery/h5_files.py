"""HDF5 files: files `hpart` wrote (points, a partition, a grid cost field) mutated byte by byte,
and the structural cases of the battery_h5_cases helper (shapes, types, declared sizes)."""

import os
import subprocess

from mutations import Case, flip_bits, garbage, run_env, write_file


def _hpart(hpart, mpiexec, args):
    cmd = list(mpiexec) + ["-np", "1", hpart] + args + ["--quiet"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, env=run_env())


def _h5_mutations(rng, data):
    """(bytes, what) for one byte-level mutation of an HDF5 file."""
    how = rng.choice(["truncate", "truncate_tail", "flip_meta", "flip_meta", "flip_any", "flip_data", "zero_block",
                      "ff_block", "prepend_512", "prepend_7", "append", "superblock"])
    n = len(data)
    if how == "truncate":
        cut = rng.choice([0, 8, 96, 512, 2048, n // 2, n - 1])
        return data[:cut], f"truncated to {cut} of {n} bytes"
    if how == "truncate_tail":
        cut = n - rng.randint(1, min(n - 1, 4000))
        return data[:cut], f"truncated to {cut} of {n} bytes"
    if how == "flip_meta":
        k = rng.randint(1, 6)
        return flip_bits(rng, data, k, 0, 2048), f"{k} bits flipped in the first 2 KiB"
    if how == "flip_any":
        k = rng.randint(1, 30)
        return flip_bits(rng, data, k), f"{k} bits flipped anywhere"
    if how == "flip_data":
        k = rng.randint(1, 30)
        return flip_bits(rng, data, k, n // 2, n), f"{k} bits flipped in the second half"
    if how in ("zero_block", "ff_block"):
        at, size = rng.randrange(n), rng.choice([8, 64, 512])
        fill = b"\0" if how == "zero_block" else b"\xff"
        return data[:at] + fill * size + data[at + size:], f"{size} bytes at {at} set to {fill!r}"
    if how == "prepend_512":
        return b"\0" * 512 + data, "512 bytes prepended (a user block)"
    if how == "prepend_7":
        return b"garbage" + data, "7 bytes prepended"
    if how == "append":
        return data + garbage(rng, rng.choice([1, 100, 5000])), "garbage appended"
    at = rng.randrange(8, 48)
    b = bytearray(data)
    b[at] = rng.randrange(256)
    return bytes(b), f"superblock byte {at} = {b[at]}"


# Structural HDF5 cases that reproduce issue 20's classes (a rank without rows, declared sizes,
# ids and weights at the limits): in the quick subset at every rank count.
H5_KEY_CASES = {"points_one_row", "points_two_rows_3d", "points_2e31_rows", "weights_1e308", "ids_uint64_2e63",
                "ids_duplicate", "cost_1_row", "cost_1x1", "cost_2e31_rows", "points_unwritten_1_row",
                "weights_unwritten_1_row", "cost_unwritten_2_rows"}


def h5_cases(rng, work, hpart, h5_helper, mpiexec, mutants):
    cases = []
    base_dir = os.path.join(work, "h5_bases")
    os.makedirs(base_dir, exist_ok=True)
    bases = {
        "uniform2d": (["generate", "--shape", "uniform2d", "--n", "40", "--seed", "3"], "points"),
        "clusters3d": (["generate", "--shape", "clusters3d", "--n", "60", "--seed", "4"], "points"),
        "grid": (["grid", "--extent", "12,9", "--parts", "3", "--cost", "hotspot"], "grid"),
    }
    base_data = {}
    for name, (args, what) in bases.items():
        path = os.path.join(base_dir, name + ".h5")
        _hpart(hpart, mpiexec, args + ["--out", path])
        base_data[name] = (open(path, "rb").read(), what)
    # A partition file holds /points, /weights, /ids and /parts: it reads back as a point file.
    parted = os.path.join(base_dir, "parted.h5")
    _hpart(hpart, mpiexec, ["partition", "--h5", os.path.join(base_dir, "clusters3d.h5"), "--parts", "5", "--out", parted])
    base_data["parted"] = (open(parted, "rb").read(), "points")

    def add(name, path, what, key=False, notes=None, k=None):
        if what == "grid":
            k = k or rng.choice([1, 2, 3, 5, 8])
            method = rng.choice(["sfc", "blocks", "tensor", "uniform", "hier"])
            args = ["grid", "--h5", path, "--dataset", "/cost", "--parts", str(k), "--method", method]
            cases.append(Case("grid-h5", name, path, args, key, "grid", notes or {}))
        else:
            k = k or rng.choice([1, 2, 3, 4, 16])
            args = ["partition", "--h5", path, "--parts", str(k), "--out", "{out}"]
            if rng.random() < 0.2:
                args[3:3] = ["--dim", rng.choice(["2", "3"])]
            cases.append(Case("points-h5", name, path, args, key, "points", notes or {}))

    for name, (data, what) in base_data.items():
        path = os.path.join(work, f"h5_base_{name}.h5")
        write_file(path, data)
        add(f"h5_base_{name}", path, what)
    # The reproducer of issue 20: one row, read at np 2.
    one = os.path.join(work, "h5_generated_one.h5")
    _hpart(hpart, mpiexec, ["generate", "--shape", "uniform2d", "--n", "1", "--out", one])
    add("h5_generated_one", one, "points", True, k=2)

    if h5_helper:
        names = subprocess.run([h5_helper, work], check=True, capture_output=True, text=True).stdout.split()
        for name in names:
            path = os.path.join(work, f"h5_{name}.h5")
            what = "grid" if name.startswith("cost_") else "points"
            add(f"h5_{name}", path, what, name in H5_KEY_CASES)
        # A cost field read as points and a point file read as a cost field: wrong dataset for the command.
        add("h5_cost_ok_as_points", os.path.join(work, "h5_cost_ok.h5"), "points")
        add("h5_points_ok_2d_as_grid", os.path.join(work, "h5_points_ok_2d.h5"), "grid")
    grid_parts_case = os.path.join(work, "h5_cost_ok.h5")
    if os.path.exists(grid_parts_case):
        add("h5_cost_parts_2e30", grid_parts_case, "grid", True, k=1 << 30)

    names = sorted(base_data)
    for i in range(mutants):
        bname = names[i % len(names)]
        data, what = base_data[bname]
        mutated, how = _h5_mutations(rng, data)
        path = os.path.join(work, f"h5m_{i:03d}_{bname}.h5")
        write_file(path, mutated)
        add(f"h5m_{i:03d}_{bname}", path, what, notes={"mutation": how})
    return cases
