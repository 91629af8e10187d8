#!/usr/bin/env python3
"""PROTOTYPE (session 26, issue 30): an independent check of a schedule file of stepped_plan.py --out.

usage: bench/smpi/stepped_check.py TORUS KIND SCHEDULE [--mean M]

Recomputes the demand W (alltoallv_linkload.demand_matrix, mean M, default 65536) and checks, without the
planner's code: every send has its receive (same ranks, step, bytes); every message goes to a torus neighbour;
every receive a send forwards from came in an earlier step; on every rank the bytes sent minus the bytes
received equal its row total minus its column total (what a rank forwards it first received). Prints the
checks and the bytes on the wire; exit 1 when one fails.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from alltoallv_linkload import Torus, demand_matrix  # noqa: E402


def main(argv):
    mean = 65536
    if "--mean" in argv:
        k = argv.index("--mean")
        mean = int(argv[k + 1])
        argv = argv[:k] + argv[k + 2:]
    if len(argv) != 3:
        raise SystemExit(__doc__.split("\n")[2])
    tor, kind, path = argv
    T = Torus([int(x) for x in tor.split("x")])
    n = T.n
    W = demand_matrix(kind, mean, n)
    row = [sum(W[i][j] for j in range(n) if j != i) for i in range(n)]
    col = [sum(W[i][j] for i in range(n) if i != j) for j in range(n)]
    snd, rcv = [0] * n, [0] * n
    S, R = {}, {}
    bad = 0
    for line in open(path):
        p = line.split()
        if p[0] == "S":
            r, s, q, b = map(int, p[1:5])
            snd[r] += b
            S[(r, s, q)] = b
            if q not in set(T.move(r, d, g) for d in range(T.D) for g in (1, -1)):
                bad += 1
            deps = list(map(int, p[6:]))
            if len(deps) != 2 * int(p[5]) or any(deps[k] >= s for k in range(0, len(deps), 2)):
                bad += 1
        elif p[0] == "R":
            r, s, q, b = map(int, p[1:5])
            rcv[r] += b
            R[(q, s, r)] = b
    ok = [S == R, bad == 0, all(snd[i] - rcv[i] == row[i] - col[i] for i in range(n))]
    print("sends match receives: %s; neighbours and earlier receives: %s (%d bad); sent - received = row - column "
          "on every rank: %s; bytes on the wire %d" % (ok[0], ok[1], bad, ok[2], sum(snd)))
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
