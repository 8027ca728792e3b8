#!/usr/bin/env python3
"""Do the aievec / aievec_aie1 ops mlir-aie prints parse and round-trip?

The CHECK lines of mlir-aie's aie-vectorize tests show exactly how aie-opt
prints these ops. For every CHECK line that holds one, this script
  1. replaces the FileCheck patterns (%[[T0:.*]], %[[T0]], {{\\[}}) by
     concrete names,
  2. works out the type of each operand from the op's type list, by the rules
     of mlir-aie's own assembly formats (OPERAND_TYPES below, independent of
     our op tables),
  3. wraps the op in a function taking its operands as arguments, named the
     way MLIR prints them (%arg0, ...; the result is %0),
  4. runs npuc-opt on it and compares the printed op with the input.

A line "parses" when npuc-opt accepts the function, and "round-trips" when
the op comes back byte for byte. "npuc form" counts the lines that
round-trip once rewritten with the syntax differences docs/aievec.md lists
(the op-table format language cannot express mlir-aie's form of those ops
yet). Output: counts per op, then one entry per distinct failure with the
number of CHECK lines it covers and an example.

usage: aievec_syntax.py [--strict] [NPUC_OPT [DIR]]
  NPUC_OPT  default $NPUC_OPT, else build/bin/npuc-opt
  DIR       default ../shared/conformance/mlir-aie beside the repository
  --strict  exit 1 unless every line round-trips
"""
import argparse
import collections
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

OP_RE = re.compile(r"^(%[\w.$-]+)\s*=\s*(aievec(?:_aie1)?\.\w+)\s*(.*)$")
CHECK_RE = re.compile(r"^\s*//\s*CHECK(?:-NEXT|-SAME|-DAG)?:\s*(.*)$")
PATTERN_DEF = re.compile(r"\[\[(\w+):[^\]]*\]\]")
PATTERN_USE = re.compile(r"\[\[(\w+)\]\]")
REGEX_BLOCK = re.compile(r"\{\{(.*?)\}\}")


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("npuc_opt", nargs="?", default=os.environ.get(
        "NPUC_OPT", os.path.join(root, "build", "bin", "npuc-opt")))
    ap.add_argument("dir", nargs="?", default=os.path.join(
        root, "..", "shared", "conformance", "mlir-aie"))
    ap.add_argument("--strict", action="store_true")
    args = ap.parse_args()
    lines = collect(args.dir)
    if not lines:
        print("no aievec CHECK lines under %s" % args.dir)
        return 1
    results = check_all(args.npuc_opt, lines)
    report(lines, results)
    ok = all(r[0][0] == "ok" for r in results)
    return 0 if ok or not args.strict else 1


# ---- extraction --------------------------------------------------------------

class Snippet:
    def __init__(self, where, raw):
        self.where = where  # "file:line"
        self.raw = raw      # the CHECK text with patterns replaced
        self.op = OP_RE.match(raw).group(2)


def collect(directory):
    """Every CHECK line holding an aievec op, in file order."""
    out = []
    for path in sorted(glob.glob(os.path.join(directory, "*.mlir"))):
        name = os.path.basename(path)
        with open(path, encoding="utf-8") as f:
            for num, line in enumerate(f, 1):
                m = CHECK_RE.match(line)
                if not m:
                    continue
                text = concretize(m.group(1).strip())
                if text is not None and OP_RE.match(text):
                    out.append(Snippet("%s:%d" % (name, num), text))
    return out


def concretize(text):
    """FileCheck patterns -> concrete text; None if a regex remains."""
    text = PATTERN_DEF.sub(lambda m: m.group(1), text)
    text = PATTERN_USE.sub(lambda m: m.group(1), text)

    def literal(m):
        body = m.group(1)
        unescaped = re.sub(r"\\(.)", r"\1", body)
        return unescaped if re.escape(unescaped) == body or \
            body == "\\" + unescaped else None

    parts = []
    pos = 0
    for m in REGEX_BLOCK.finditer(text):
        lit = literal(m)
        if lit is None:
            return None
        parts.append(text[pos:m.start()])
        parts.append(lit)
        pos = m.end()
    parts.append(text[pos:])
    return "".join(parts)


# ---- the op as mlir-aie prints it: operands, attributes, types ---------------

def split_top(text, sep):
    """Splits at `sep` outside <>, (), [], {} and strings."""
    out, depth, cur, in_str, i = [], 0, [], False, 0
    while i < len(text):
        c = text[i]
        if in_str:
            in_str = c != '"'
        elif c == '"':
            in_str = True
        elif c in "<([{":
            depth += 1
        elif c in ">)]}" and not (c == ">" and text[i - 1] == "-"):
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            out.append("".join(cur))
            cur = []
            i += len(sep)
            continue
        cur.append(c)
        i += 1
    out.append("".join(cur))
    return out


def parse_op(snippet):
    """-> (result, op, operand names, types) of the printed op."""
    result, op, rest = OP_RE.match(snippet.raw).groups()
    pieces = split_top(rest, " : ")
    if len(pieces) != 2:
        raise ValueError("no single top-level ' : ' before the types")
    head, types = pieces
    head = re.sub(r"\{.*\}\s*$", "", head.strip())  # the attribute dictionary
    names = re.findall(r"%[\w.$-]+", head)
    return result, op, head, names, [t.strip() for t in split_top(types, ", ")]


def operand_types(op, head, names, types):
    """mlir-aie's formats: which type each operand has, and the result's."""
    short = op.split(".", 1)[1]
    if short == "upd":
        src, rest = head.split("[", 1)
        inside, after = rest.rsplit("]", 1)
        idx = re.findall(r"%[\w.$-]+", inside)
        vec = re.findall(r"%[\w.$-]+", after)
        want(types, 2)
        return ([(src.strip(), types[0])] + [(i, "index") for i in idx] +
                [(v, types[1]) for v in vec]), types[1]
    if short == "concat":
        want(types, 2)
        return [(n, types[0]) for n in names], types[1]
    if short in ("mac", "fma_conv", "mac_elem"):
        want(types, 3)
        return list(zip(names, types)), types[2]
    want(types, len(names) + 1)
    return list(zip(names, types)), types[-1]


def want(types, n):
    if len(types) != n:
        raise ValueError("expected %d types, found %d" % (n, len(types)))


def canonical(snippet):
    """The op renamed as MLIR prints it inside a function of its operands:
    -> (function text, expected op line) as mlir-aie prints it, and the
    same in npuc's form (see npuc_form)."""
    result, op, head, names, types = parse_op(snippet)
    pairs, _ = operand_types(op, head, names, types)
    args, arg_types = {}, []
    for name, ty in pairs:
        if name not in args:
            args[name] = "%%arg%d" % len(args)
            arg_types.append(ty)
        elif arg_types[int(args[name][4:])] != ty:
            raise ValueError("%s used with two types" % name)
    line = rename(snippet.raw, dict(args, **{result: "%0"}))
    sig = ", ".join("%s: %s" % (args[n], arg_types[i])
                    for i, n in enumerate(args))
    ours = npuc_form(op, line, len(names), types)
    return (wrap(sig, line), line), (wrap(sig, ours), ours)


def wrap(sig, line):
    return "func.func @f(%s) {\n  %s\n  return\n}\n" % (sig, line)


def npuc_form(op, line, num_operands, types):
    """The line with the differences docs/aievec.md lists, which the op-table
    format language cannot avoid yet: `%m [%i]` and the typed `%v : T` of
    upd, one type per concat source, `-> result` after mac, fma_conv and
    mac_elem."""
    short = op.split(".", 1)[1]
    head, _ = split_top(line, " : ")
    if short == "upd":
        head = re.sub(r"^(%0 = \S+ %[\w.$-]+)\[", r"\1 [", head)
        head = re.sub(r"\], (%[\w.$-]+)", r"], \1 : " + types[1], head)
        return head + " : " + ", ".join(types)
    if short == "concat":
        return head + " : " + ", ".join([types[0]] * num_operands +
                                        [types[1]])
    if short in ("mac", "fma_conv", "mac_elem"):
        return line + " -> " + types[2]
    return line


def rename(text, mapping):
    return re.sub(r"%[\w.$-]+", lambda m: mapping.get(m.group(0), m.group(0)),
                  text)


# ---- running npuc-opt ----------------------------------------------------------

def check_all(npuc_opt, lines):
    """-> per line, (result in mlir-aie's form, result in npuc's form).
    Each distinct function runs once (most lines repeat another's)."""
    jobs = {}
    for s in lines:
        try:
            for key in canonical(s):
                jobs.setdefault(key, None)
        except ValueError:
            pass
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for key, res in zip(jobs, pool.map(lambda k: run(npuc_opt, *k), jobs)):
            jobs[key] = res
    out = []
    for s in lines:
        try:
            anchor, ours = canonical(s)
            out.append((jobs[anchor], jobs[ours]))
        except ValueError as e:
            out.append((("unusable", str(e)), ("unusable", str(e))))
    return out


def run(npuc_opt, func, expected):
    """-> ("ok" | "no-parse" | "differs", detail)."""
    p = subprocess.run([npuc_opt, "-"], input=func, capture_output=True,
                       text=True)
    if p.returncode != 0:
        err = next((l for l in p.stderr.splitlines() if "error" in l),
                   p.stderr.strip())
        return "no-parse", re.sub(r"^<stdin>:\d+:\d+: |^-:\d+:\d+: ", "", err)
    got = next((l.strip() for l in p.stdout.splitlines()
                if l.strip().startswith("%0 = ")), "")
    if got != expected:
        return "differs", got
    return "ok", ""


# ---- report --------------------------------------------------------------------

def report(lines, results):
    per_op = collections.OrderedDict()
    for s, ((status, _), (ours, _)) in sorted(zip(lines, results),
                                              key=lambda x: x[0].op):
        c = per_op.setdefault(s.op, collections.Counter())
        c["lines"] += 1
        c["parsed"] += status in ("ok", "differs")
        c["round-tripped"] += status == "ok"
        c["npuc form"] += ours == "ok"
    cols = ("lines", "parsed", "round-tripped", "npuc form")
    print("%-22s %6s %7s %14s %10s" % (("op",) + cols))
    total = collections.Counter()
    for op, c in per_op.items():
        print("%-22s %6d %7d %14d %10d" % ((op,) + tuple(c[k] for k in cols)))
        total.update(c)
    print("%-22s %6d %7d %14d %10d" % (("TOTAL",) +
                                       tuple(total[k] for k in cols)))
    failures = collections.OrderedDict()
    for s, ((status, detail), ours) in zip(lines, results):
        if status != "ok":
            key = (s.op, status, reason_key(status, detail))
            failures.setdefault(key, []).append((s, detail, ours))
    if failures:
        print("\nfailures in mlir-aie's form (distinct reasons; count, first "
              "example, and whether npuc's form of it round-trips):")
    for (op, status, _), cases in failures.items():
        s, detail, ours = cases[0]
        print("%s: %s x%d at %s\n    anchor: %s\n    npuc:   %s\n"
              "    npuc form: %s" % (op, status, len(cases), s.where, s.raw,
                                     detail, " ".join(ours).strip()))
    print("\naievec syntax: %d of %d CHECK lines parse, %d round-trip; "
          "%d round-trip in npuc's form (docs/aievec.md)" % (
              total["parsed"], total["lines"], total["round-tripped"],
              total["npuc form"]))


def reason_key(status, detail):
    """Groups failures that differ only in names and numbers."""
    if status == "differs":
        return "differs"
    return re.sub(r"\d+|%\w+|'[^']*'|<[^>]*>", "#", detail)


if __name__ == "__main__":
    sys.exit(main())
