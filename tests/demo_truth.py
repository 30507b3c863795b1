"""Reads the demo's ground truth (demo.truth: key=value lines that trx_demo
writes from its own simulation, # comments). The Python tests share it."""


def read_truth(path):
    """Returns (counts, lists): keys whose value is an integer, and the
    comma-separated name lists (e.g. inversion_3_ran_inside=medium,consumer)."""
    counts, lists = {}, {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or "=" not in line:
                continue
            key, value = line.split("=", 1)
            if value.lstrip("-").isdigit():
                counts[key] = int(value)
            else:
                lists[key] = [v for v in value.split(",") if v]
    return counts, lists
