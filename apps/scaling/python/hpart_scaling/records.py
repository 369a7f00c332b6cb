"""Run files: one `{"meta": {...}}` line, then one JSON object per (case, method, ranks) record.

Everything that reads a run file goes through `load_run`, so a malformed file fails in one place,
with a message that names the file and line; the commands turn `RunFileError` into exit status 2
("could not compare"), never into a verdict.
"""
import json
from dataclasses import dataclass, field

FLOOR = ("floor", "floor")  # (case, method) of the in-run reference measured in every round


class RunFileError(Exception):
    """A run file that cannot be read or two run files that cannot be compared."""


def record_key(rec):
    """The identity of a record inside one run: (case, method, ranks)."""
    return (rec["case"], rec["method"], int(rec["ranks"]))


def method_label(case, method):
    return f"{case}/{method}"


@dataclass
class RunFile:
    path: str
    meta: dict
    records: list
    index: dict = field(default_factory=dict)

    def __post_init__(self):
        for rec in self.records:
            key = record_key(rec)
            if key in self.index:
                raise RunFileError(f"{self.path}: two records for {key}")
            self.index[key] = rec

    @property
    def mode(self):
        return self.meta.get("mode") or (self.records[0].get("mode") if self.records else None)

    def ranks(self):
        return sorted({int(r["ranks"]) for r in self.records})

    def methods(self):
        """The measured (case, method) pairs, the floor left out, in the order they first appear."""
        seen = []
        for rec in self.records:
            cm = (rec["case"], rec["method"])
            if cm != FLOOR and cm not in seen:
                seen.append(cm)
        return seen

    def series(self, case, method):
        """{P: record} of one (case, method)."""
        return {p: r for (c, m, p), r in self.index.items() if (c, m) == (case, method)}

    def has_floor(self):
        return any((c, m) == FLOOR for (c, m, _) in self.index)


def parse_lines(lines, path):
    """The records of JSON Lines text (a `meta` line is returned apart); blank lines are skipped."""
    meta, records = None, []
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise RunFileError(f"{path}:{number}: not JSON ({e.msg})") from None
        if not isinstance(obj, dict):
            raise RunFileError(f"{path}:{number}: a line must hold a JSON object")
        if "meta" in obj:
            if meta is not None or records:
                raise RunFileError(f"{path}:{number}: the meta line must be the first and only one")
            meta = obj["meta"]
            continue
        missing = [k for k in ("case", "method", "ranks") if k not in obj]
        if missing:
            raise RunFileError(f"{path}:{number}: record without {', '.join(missing)}")
        records.append(obj)
    return meta, records


def load_run(path, need_meta=True):
    try:
        with open(path) as f:
            meta, records = parse_lines(f, path)
    except OSError as e:
        raise RunFileError(f"{path}: {e.strerror}") from None
    if meta is None and need_meta:
        raise RunFileError(f"{path}: no meta line (is this a worker's file rather than a run file?)")
    if not records:
        raise RunFileError(f"{path}: no records")
    return RunFile(path, meta or {}, records)


def write_run(path, meta, records):
    with open(path, "w") as f:
        f.write(json.dumps({"meta": meta}) + "\n")
        for rec in records:
            f.write(json.dumps(rec) + "\n")


# What must agree between two runs before any figure of theirs is compared.
COMPARABLE_META = ("mode", "size", "threads")


def check_comparable(base, cur):
    """Raise RunFileError when two runs measured different things (mode, size, threads, ranks)."""
    problems = []
    for k in COMPARABLE_META:
        if base.meta.get(k) != cur.meta.get(k):
            problems.append(f"{k}: {base.meta.get(k)!r} vs {cur.meta.get(k)!r}")
    # The rank counts asked for (meta), not those that produced records: a rank count whose records
    # are all missing is a regression of the current run, not a different experiment.
    base_ranks, cur_ranks = (sorted(r.meta["ranks"]) if "ranks" in r.meta else r.ranks() for r in (base, cur))
    if base_ranks != cur_ranks:
        problems.append(f"ranks: {base_ranks} vs {cur_ranks}")
    if problems:
        raise RunFileError(f"{base.path} and {cur.path} are not comparable: " + "; ".join(problems))
