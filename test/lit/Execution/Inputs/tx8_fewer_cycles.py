# Whether the first program took fewer cycles than the second: the totals
# of the two cycles.txt given.
import re
import sys


def total(path):
    text = open(path).read()
    return int(re.search(r"^total: (\d+)", text, re.M).group(1))


print("fewer cycles: %s" %
      ("yes" if total(sys.argv[1]) < total(sys.argv[2]) else "no"))
