"""Markdown helpers shared by the reports of compare, calibrate and models."""
import math


def fmt(v):
    """A figure as a report shows it: integers whole, floats to 4 significant digits, dicts compact."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "—"
        return f"{v:.4g}"
    if isinstance(v, dict):
        return ", ".join(f"{k} {v[k]}" for k in sorted(v))
    return str(v)


def table(header, rows):
    """A Markdown table; cells are formatted with fmt and `|` escaped."""
    def cell(v):
        return (v if isinstance(v, str) else fmt(v)).replace("|", "\\|")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def write(path, text):
    if path:
        with open(path, "w") as f:
            f.write(text if text.endswith("\n") else text + "\n")
