# tx8-kpipe.test: the two programs' cycles (their cycles.txt) and the
# search's estimates (search.txt) in the two result directories given,
# the pipelined one's first.
import re
import sys


def chosen(d):
    text = open(d + "/search.txt").read()
    m = re.findall(r"chose (sharding [^,]*), (\d+) cycles", text)
    return m[0][0], int(m[0][1])


def total(d):
    text = open(d + "/cycles.txt").read()
    return int(re.search(r"^total: (\d+)", text, re.M).group(1))


two, one = sys.argv[1], sys.argv[2]
(d2, e2), (d1, e1) = chosen(two), chosen(one)
print("same decision: %s" % ("yes" if d2 == d1 else "no"))
print("two copies faster in the program: %s" %
      ("yes" if total(two) < total(one) else "no"))
print("two copies cheaper in the estimate: %s" % ("yes" if e2 < e1 else "no"))
