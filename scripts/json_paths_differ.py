"""Lists the JSON paths where two results differ (scripts/goldens). Exit 0 when every difference
is a field the typed contract adds (a diagnostic's range: `start`, `end` inside `warnings`,
`diagnostics` or `errors`),
1 otherwise."""
import json
import re
import sys

ALLOWED = re.compile(r"(^|\.)(warnings|diagnostics|errors)\[\d+\]\.(start|end)(\.|$)")


def walk(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            sub = f"{path}.{k}" if path else k
            if k not in a or k not in b:
                out.append((sub, a.get(k, "<absent>"), b.get(k, "<absent>")))
            else:
                walk(a[k], b[k], sub, out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, f"{path}[{i}]", out)
    elif a != b or type(a) is not type(b):
        out.append((path, a, b))


def main():
    name, golden, now = sys.argv[1:4]
    with open(golden) as f:
        a = json.load(f)
    with open(now) as f:
        b = json.load(f)
    out = []
    walk(a, b, "", out)
    bad = [d for d in out if not ALLOWED.search(d[0])]
    allowed = len(out) - len(bad)
    if allowed:
        print(f"goldens: {name}: {allowed} added diagnostic-range field(s), allowed")
    for path, x, y in bad[:20]:
        print(f"goldens: {name}: {path}: golden {str(x)[:80]} now {str(y)[:80]}")
    if len(bad) > 20:
        print(f"goldens: {name}: ... {len(bad) - 20} more differences")
    if not out:
        print(f"goldens: {name}: same JSON, different bytes (formatting)")
        return 1
    return 1 if bad else 0


sys.exit(main())
