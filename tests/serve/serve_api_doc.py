#!/usr/bin/env python3
"""serve_api_doc.py TRX DOC TRACE - docs/serve-api.md's examples asked of
`trx serve TRACE` as written: each <!-- api-check --> block holds pairs of
lines "GET PATH" and "STATUS ANSWER"; the answer is the documented JSON
shape (N number, B boolean, S string, [...] a list, {...} an object: every
key, in that order, with its type) or, for an error, its text exactly."""
import json, os, re, sys, urllib.error, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from served import Served  # noqa: E402
from test_support import check, finish  # noqa: E402

TRX, DOC, TRACE = sys.argv[1:4]
text = open(DOC).read()
pairs = []
for block in re.findall(r"<!-- api-check -->\n```\n(.*?)```", text, re.S):
    lines = block.strip("\n").split("\n")
    check(len(lines) % 2 == 0, "a block of GET / answer pairs: %r" % block)
    pairs += [(lines[k], lines[k + 1]) for k in range(0, len(lines) - 1, 2)]
check(len(pairs) >= 15, "the page documents every route (%d examples)" % len(pairs))
routes = set(re.match(r"GET (/api/[a-z-]+)", g).group(1) for g, _ in pairs)
for r in ("/api/status", "/api/meta", "/api/view", "/api/locate", "/api/events", "/api/search",
          "/api/stats", "/api/inversions"):
    check(r in routes, "%s has an example" % r)


def shape(doc):
    """The documented shape as Python: placeholders become type names."""
    doc = doc.replace("[...]", '"<list>"').replace("{...}", '"<object>"')
    doc = re.sub(r'(?<=[:\[,])([NBS])(?=[,}\]])', r'"<\1>"', doc)
    return json.loads(doc)


def fits(want, got, where):
    kinds = {"<N>": lambda v: isinstance(v, int) and not isinstance(v, bool),
             "<B>": lambda v: isinstance(v, bool), "<S>": lambda v: isinstance(v, str),
             "<list>": lambda v: isinstance(v, list), "<object>": lambda v: isinstance(v, dict)}
    if isinstance(want, str) and want in kinds:
        return kinds[want](got) or "%s: %r is not %s" % (where, got, want)
    if isinstance(want, dict):
        if not isinstance(got, dict) or list(got) != list(want):
            return "%s: keys %s, documented %s" % (where, list(got) if isinstance(got, dict) else got,
                                                    list(want))
        for k in want:
            r = fits(want[k], got[k], where + "." + k)
            if r is not True:
                return r
        return True
    return want == got or "%s: %r, documented %r" % (where, got, want)


served = Served(TRX, TRACE)
try:
    served.wait_done()
    for request, answer in pairs:
        path = request[len("GET "):]
        status, _, body = answer.partition(" ")
        sep = "&" if "?" in path else "?"
        url = "%s%s%stoken=%s" % (served.base, path.lstrip("/"), sep, served.token)
        try:
            with urllib.request.urlopen(url, timeout=60) as r:
                code, got, ctype = r.status, r.read().decode(), r.headers.get("Content-Type")
        except urllib.error.HTTPError as e:
            code, got, ctype = e.code, e.read().decode(), e.headers.get("Content-Type")
        check(code == int(status), "%s: status %d, documented %s" % (request, code, status))
        if body.startswith("{"):
            r = fits(shape(body), json.loads(got), path)
            check(r is True and ctype == "application/json", "%s: %s (%s)" % (request, r, ctype))
        else:
            check(got == body + "\n" and ctype.startswith("text/plain"),
                  "%s: answered %r, documented %r" % (request, got, body))
finally:
    served.stop()
print("serve_api_doc: %d documented requests asked" % len(pairs))
finish("serve_api_doc")
