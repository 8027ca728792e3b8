#!/usr/bin/env python3
"""Checks the DDR arena of a generated TX8 main.c (docs/tx8.md, "DDR
placement"). usage: tx8_ddr_check.py main.c aligned BANK | packed
aligned: every tensor that is not an alias starts on a BANK boundary and
lies in the arena. packed: the tensors lie in declaration order, each on
the first 16-byte boundary after the one before (what one malloc each
gives). Prints the arena's bytes, and in both cases that an alias lies
where its source does; exits 1 on the first violation."""
import re
import sys

ROW = re.compile(r'\{"(\w+)", (TX8_\w+), (\d+), .*\}, (-?\d+), (\d+)\},$')


def main():
    text = open(sys.argv[1]).read()
    rows = [ROW.match(l.strip()) for l in text.splitlines()]
    rows = [(m.group(1), m.group(2), int(m.group(3)), int(m.group(4)),
             int(m.group(5))) for m in rows if m]
    arena = int(re.search(r"tx8_ddr_arena_bytes = (\d+);", text).group(1))
    end = 0
    for name, kind, size, alias, off in rows:
        if alias >= 0:
            if off != rows[alias][4]:
                sys.exit("%s: an alias away from its source" % name)
            continue
        if off + size > arena:
            sys.exit("%s: outside the arena" % name)
        if sys.argv[2] == "aligned" and off % int(sys.argv[3]):
            sys.exit("%s: offset %d off a bank boundary" % (name, off))
        if sys.argv[2] == "packed":
            if off != (end + 15) // 16 * 16:
                sys.exit("%s: offset %d is not packed after %d" % (name, off, end))
            end = off + size
    print("ddr ok: %d tensors, arena %d bytes" % (len(rows), arena))


main()
